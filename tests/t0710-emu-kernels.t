#!/bin/sh
# Every committed kernel, emulated on the odd shapes and bit-exact, in the
# ASan/UBSan build so the emulator itself is checked too. 36x68 and 68x36
# have rows and columns that are multiples of 4 but not of a tile, so the
# first-row/column predicates of the vector kernels are exercised; the
# leading dimensions of 67x129:ld_in=132:ld_out=72 let them take the vector path;
# 16x68 and 144x160 reach the packed and 128-row tiles, the last with pointers
# one element off alignment.
cd "$(dirname "$0")/.." || exit 1
SHAPES="1x1,1x33,33x1,31x33,67x129,130x66,67x129:ld_in=132:ld_out=72,36x68,68x36:ld_in=40:ld_out=72,16x68,144x160,144x160:ld_in=164:ld_out=148:offset=1"
exec tests/lib/emu_check.sh build/asan/ptxpose "$SHAPES"
