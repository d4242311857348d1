#!/bin/sh
# The emulator on hostile input: the launch's instruction and barrier budget
# (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" emu_limits
