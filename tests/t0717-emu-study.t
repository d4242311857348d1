#!/bin/sh
# The study kernels (study=1: the warp-collective ones of gen/tp_warp.h,
# the skinny ones and the small-grid tiles, until timed) emulated where the
# warp kernels take their warp paths: interior tiles whose pointers and pitches are
# 16-byte aligned (the default shapes of t0710 reach them at 144x160 only):
# several tiles each way, padded leading dimensions, a batch with aligned
# strides, pointers 8 elements off, and a matrix that ends inside a tile;
# then on a 2x2x2 grid (PTXPOSE_GRID_MAX), so that each block walks
# several tiles and matrices, through the barrier before a shared stage is
# written again. Bit-exact, in the ASan/UBSan build.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
set -- $(grep -l '^// ptxpose .* study=1' ptx/*.ptx)
need_ptx "$1"
SHAPES="128x128,192x256:ld_in=264:ld_out=200,64x64:batch=3:stride_in=4608:stride_out=4608,128x192:offset=8,130x200"
tap_run "the study kernels on $SHAPES" $PX check --emulate --shapes "$SHAPES" "$@"
PTXPOSE_GRID_MAX=2x2x2 tap_run "... and on a 2x2x2 grid" $PX check --emulate \
	--shapes "192x256:ld_in=264:ld_out=200,128x128:batch=3:stride_in=16512:stride_out=16512" "$@"
# the small-grid tiles (lab/TUNING.md) on shapes of the set they won on
# (small matrices, square and 1:8, one off alignment)
tap_run "the small-grid tiles on 362x362, 181x1448, 724x724 offset 1" $PX check --emulate \
	--shapes "362x362,181x1448,724x724:offset=1" ptx/fast_s*_b*.ptx ptx/fast_v8_g8_b8.ptx
finish
