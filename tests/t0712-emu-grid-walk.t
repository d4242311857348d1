#!/bin/sh
# Every committed kernel, emulated on grids smaller than its tiles
# (PTXPOSE_GRID_MAX=2x2x2, the test knob of meta_grid_dims), so that every
# block walks several tile columns, tile rows and matrices with the grid's
# strides (kernel ABI v2), through the barrier that guards a shared tile's
# reuse and the group order; bit-exact. The plain build, like t0711 and
# t0713: these check kernels; the emulator's own code runs under ASan and
# UBSan on every kernel in t0710 (here the plain build takes a fifth of
# the ASan build's CPU time).
cd "$(dirname "$0")/.." || exit 1
SHAPES="67x129,130x66,300x5,5x300,144x160:ld_in=164:ld_out=148:offset=1"
SHAPES="$SHAPES,33x31:batch=5:stride_in=1100:stride_out=1200,36x68:batch=3:ld_in=72:ld_out=40:offset=2"
PTXPOSE_GRID_MAX=2x2x2 exec tests/lib/emu_check.sh build/ptxpose "$SHAPES"
