#!/bin/sh
# `ptxpose run --elem E --rows R --cols C` with no file: the library's
# heuristic plan picks one of its kernels by the cost model (in the emulator:
# for the built-in H100; on the fake GPU: ptxpose_plan_create itself), and
# $PTXPOSE_PTX adds or replaces kernels.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
PX=build/asan/ptxpose
check "bytes at an odd shape: a kernel is picked and passes" 0 $PX run --elem 8 --rows 1001 --cols 1003 --emulate
grep -q 'PASS (emulated)' "$tmp/out" && ok "... it passes" || { nok "... it passes"; diag <"$tmp/out"; }
grep -q '^ptxpose run: picked narrow_b8 by the cost model (.* us predicted on the built-in NVIDIA H100 80GB HBM3; no GPU is asked)$' \
	"$tmp/err" && ok "... the narrow kernel, and the model and its device are named" || { nok "... which kernel"; diag <"$tmp/err"; }
# the two large ones emulate 16M elements: the plain build (a fifth of the
# ASan build's CPU; the emulator runs under ASan on every kernel in t0710)
check "bytes at 4096x4096, aligned" 0 build/ptxpose run --elem 8 --rows 4096 --cols 4096 --emulate
grep -q 'picked fast_[a-z0-9_]*b8 ' "$tmp/err" && ok "... a fast-family kernel (vector paths need the alignment)" || { nok "... aligned"; diag <"$tmp/err"; }
check "bytes at 4096x4096, pointers one element off" 0 build/ptxpose run --elem 8 --rows 4096 --cols 4096 --offset 1 --emulate
grep -q 'picked narrow_b8 ' "$tmp/err" && ok "... the alignment changes the choice" || { nok "... offset"; diag <"$tmp/err"; }

# $PTXPOSE_PTX replaces a kernel of the same name: a broken copy of narrow_b8 is what runs
sed 's/^\([[:space:]]*\)ret;$/\1bogus.u32 %r1;\n&/' ptx/narrow_b8.ptx >"$tmp/narrow_b8.ptx"
PTXPOSE_PTX="$tmp" check "PTXPOSE_PTX: a folder whose narrow_b8 replaces the built-in one" 3 \
	$PX run --elem 8 --rows 1001 --cols 1003 --emulate
grep -q 'narrow_b8: emulator: .*bogus' "$tmp/err" && ok "... its text is the one run" || { nok "... replaced"; diag <"$tmp/err"; }
PTXPOSE_PTX="$tmp/none.ptx" check "an unreadable PTXPOSE_PTX: exit 3" 3 $PX run --elem 32 --rows 10 --cols 10 --emulate
one_line "... one line naming it" "PTXPOSE_PTX: .*none.ptx: cannot read"
check "--elem 48: exit 2" 2 $PX run --elem 48 --rows 10 --cols 10 --emulate
one_line "... one line" "not an element width"
check "neither a file nor --elem: exit 2" 2 $PX run --rows 10 --cols 10

# on the (fake) GPU the library plans for the device it has
. tests/lib/fakecuda.sh
check "the fake GPU: the library's plan" 0 $PX run --elem 32 --rows 100 --cols 96 --no-time
grep -q '^ptxpose run: picked [a-z0-9_]* by the cost model (.* us predicted on Fake CUDA Device 0' "$tmp/err" &&
	grep -q ': PASS  \[Fake CUDA Device 0\]$' "$tmp/out" && ok "... picked on the device, and it passes" ||
	{ nok "... fake GPU"; diag <"$tmp/err"; diag <"$tmp/out"; }
finish
