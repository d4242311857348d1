#!/bin/sh
# The sandbox generator scripts run in: text only, Lua's safe libraries,
# memory and time limits at the script's line, files in one transaction
# (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" gen_sandbox
