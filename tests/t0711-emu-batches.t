#!/bin/sh
# Every committed kernel, emulated on batches (kernel ABI v2) and compared
# bit-exactly, the gaps between matrices included: 3 x 33x31 with strides
# larger than the matrix (pointers aligned, and one element off), 1000 x 1x7
# (1000 blocks along z), 5 x 3x3 (pointers three elements off), and 2 x
# 67x129 with padded leading dimensions (the vector paths) and strides that
# are not multiples of 16 bytes (EMU_BATCH_SHAPES in tests/lib/emu_shapes.sh).
# The plain build: 1000 x 1x7 takes a while.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/emu_shapes.sh
exec tests/lib/emu_check.sh build/ptxpose "$EMU_BATCH_SHAPES"
