#!/bin/sh
# inspect/ parsers on captured output: SASS lines and listings (cuobjdump
# 13.5; sm_80, sm_90, sm_100 forms), ptxas -v reports, --arch names.
exec "$(dirname "$0")/lib/unit.sh" ins_parse
