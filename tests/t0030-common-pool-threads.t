#!/bin/sh
# The one thread pool (common/pool.c, behind inspect's parallel tool runs and
# the rig's fill and compare): every item and part done once, parts in
# order, several callers at once; plainly, under ASan/UBSan and under
# ThreadSanitizer (build/tsan/).
exec "$(dirname "$0")/lib/unit.sh" pool_unit tsan
