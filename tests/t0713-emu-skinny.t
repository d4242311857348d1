#!/bin/sh
# The small-dimension family (skinny_*), emulated and compared bit-exactly
# on the shapes it exists for: K x N and N x K for K = 1, 3, 7, 33, 64
# (1x5000, 5000x1, 3x1000, 1000x3, 7x999, 64x2000, 2000x64), every kernel
# on each. Then, in the direction each kernel is made for (wide: K x N,
# tall: N x K), shapes long enough that interior stages move whole
# granules: 3x9000 / 9000x3 (aligned lines, then pointers off alignment),
# 7x5001 / 5001x7 whose odd leading dimensions misalign every line (the
# realigned granules and the dummy regions), 33x5000 / 5000x33 past kmax 16.
# (The long shapes the other way round are as correct, through one tile a K
# column, but emulate 9000 blocks of a mostly idle tile: seconds each, so
# the short ones above cover that path.) Batches are in t0711 and capped
# grids in t0712, with every other kernel. The shapes: tests/lib/emu_shapes.sh.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
# the plain build: the emulator's own code runs under ASan and UBSan in
# t0700-t0702, t0730 and its fuzz target; here it checks kernels
PX=build/ptxpose
need_ptxpose
. tests/lib/emu_shapes.sh
SHAPES=$EMU_SKINNY_SHAPES WIDE=$EMU_SKINNY_WIDE TALL=$EMU_SKINNY_TALL
wide=$(grep -l '^// ptxpose skinny=wide ' ptx/*.ptx)
tall=$(grep -l '^// ptxpose skinny=tall ' ptx/*.ptx)
[ -n "$wide" ] && [ -n "$tall" ] && ok "wide and tall skinny_* kernels in ptx/" ||
	{ nok "no wide or no tall skinny_* kernel in ptx/ (they are committed: regenerate with ninja ptx)"; finish; }
tap_run "wide" $PX check --emulate --shapes "$SHAPES,$WIDE" $wide
tap_run "tall" $PX check --emulate --shapes "$SHAPES,$TALL" $tall
finish
