#!/bin/sh
# The small-dimension family (skinny_*), emulated and compared bit-exactly
# on the shapes it exists for: K x N and N x K for K = 1, 3, 7, 33, 64
# (1x5000, 5000x1, 3x1000, 1000x3, 7x999, 64x2000, 2000x64), and on shapes
# long enough that interior stages move whole granules: 3x9000 and 9000x3
# (aligned lines, then pointers off alignment), 7x5001 and 5001x7 whose
# odd leading dimensions misalign every line (the realigned granules and
# the dummy regions), 33x5000 and 5000x33 past kmax 16. Batches are in
# t0711 and capped grids in t0712, with every other kernel.
cd "$(dirname "$0")/.." || exit 1
SHAPES="1x5000,5000x1,3x1000,1000x3,7x999,64x2000,2000x64,3x9000,9000x3,3x9000:offset=1,9000x3:offset=3"
SHAPES="$SHAPES,7x5001:ld_in=5003:ld_out=9:offset=2,5001x7:ld_in=9:ld_out=5003:offset=1,33x5000,5000x33"
set -- $(grep -l '^// ptxpose skinny=' ptx/*.ptx)
if [ ! -e "$1" ]; then
	echo "1..1"
	echo "not ok 1 - no skinny_* kernel in ptx/ (they are committed: regenerate with ninja ptx)"
	exit 1
fi
exec build/ptxpose check --emulate --shapes "$SHAPES" "$@"
