#!/bin/sh
# Every committed kernel, emulated on batches (kernel ABI v2) and compared
# bit-exactly, the gaps between matrices included: 3 x 33x31 with strides
# larger than the matrix (pointers aligned, and one element off), 1000 x 1x7
# (1000 blocks along z), 5 x 3x3 (pointers three elements off), and 2 x
# 67x129 with padded leading dimensions (the vector paths) and strides that
# are not multiples of 16 bytes. The plain build: 1000 x 1x7 takes a while.
cd "$(dirname "$0")/.." || exit 1
SHAPES="33x31:batch=3:stride_in=1100:stride_out=1200,33x31:batch=3:stride_in=1100:stride_out=1200:offset=1"
SHAPES="$SHAPES,1x7:batch=1000,3x3:batch=5:offset=3,67x129:ld_in=132:ld_out=72:batch=2:stride_in=9001:stride_out=9402"
exec tests/lib/emu_check.sh build/ptxpose "$SHAPES"
