#!/bin/sh
# The table of live handle and plan ids (lib/api_live.c) at its edges, built
# with small limits (tests/unit/live_unit.c): full, slots retired when their
# generations are spent, ids that never were. Plainly and under ASan/UBSan.
exec "$(dirname "$0")/lib/unit.sh" live_unit
