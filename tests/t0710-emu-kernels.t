#!/bin/sh
# Every committed kernel, emulated on the odd shapes and bit-exact, in the
# ASan/UBSan build so the emulator itself is checked too. 36x68 and 68x36
# have rows and columns that are multiples of 4 but not of a tile, so the
# first-row/column predicates of the vector kernels are exercised; the
# leading dimensions of 67x129:ld_in=132:ld_out=72 let them take the vector path.
cd "$(dirname "$0")/.." || exit 1
SHAPES="1x1,1x33,33x1,31x33,67x129,130x66,67x129:ld_in=132:ld_out=72,36x68,68x36:ld_in=40:ld_out=72"
if ! build/ptxpose check --help 2>/dev/null | grep -q -- --emulate; then
	echo "1..0 # SKIP build/ptxpose check has no --emulate yet"
	exit 0
fi
set -- ptx/*.ptx
if [ ! -e "$1" ]; then
	echo "1..0 # SKIP no PTX files in ptx/"
	exit 0
fi
build/asan/ptxpose check --emulate --shapes "$SHAPES" "$@"
