#!/bin/sh
# Emulate every committed kernel on a list of shapes, or on `check
# --emulate`'s default shapes when none is given (kernels of ABI v3 aside:
# below): `ptxpose check
# --emulate`'s own TAP is the test's. Fails out loud when ptx/ is empty.
#   tests/lib/emu_check.sh PTXPOSE [SHAPES]
cd "$(dirname "$0")/../.." || exit 1
px=$1 shapes=${2:-}
# the kernels of ABI v3 (abi=3: *_nd_*) run their own multi-dim batches in
# t0718 (emu_nd_unit: every one, capped grids too) and t0721, those of v4
# (abi=4: pack_*) their tiles in t0722; here, v2's
set -- $(grep -L '^// ptxpose kernel=[a-z_0-9]* abi=[34] ' ptx/*.ptx)
if [ ! -e "$1" ]; then
	echo "1..1"
	echo "not ok 1 - no PTX files in ptx/ (they are committed: regenerate with ninja ptx)"
	exit 1
fi
if [ -n "$shapes" ]; then
	exec "$px" check --emulate --shapes "$shapes" "$@"
fi
exec "$px" check --emulate "$@"
