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
check "bytes at 4096x4096, aligned" 0 $PX run --elem 8 --rows 4096 --cols 4096 --emulate
grep -Eq 'picked fast_(v8_)?b8 ' "$tmp/err" && ok "... a fast kernel" || { nok "... aligned"; diag <"$tmp/err"; }
check "bytes at 4096x4096, pointers one element off" 0 $PX run --elem 8 --rows 4096 --cols 4096 --offset 1 --emulate
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
check "the fake GPU: one row is a copy" 0 $PX run --elem 32 --rows 1 --cols 5000
grep -q '^ptxpose run: planned a copy: the transpose of this shape is the identity on memory, so the plan is one cuMemcpyDtoDAsync' "$tmp/err" &&
	grep -q '^copy 1x5000 elem=32: PASS  [0-9.]* us  .*% of copy' "$tmp/out" && ok "... verified and timed like any plan" ||
	{ nok "... copy"; diag <"$tmp/err"; diag <"$tmp/out"; }
check "the fake GPU: a batch of columns with gaps is no copy" 0 $PX run --elem 16 --rows 500 --cols 1 --batch 3 --stride-out 501 --no-time
grep -q '^ptxpose run: picked ' "$tmp/err" && grep -q ': PASS  \[Fake CUDA Device 0\]$' "$tmp/out" &&
	ok "... a kernel, and it passes (the gaps keep their poison)" || { nok "... gaps"; diag <"$tmp/err"; diag <"$tmp/out"; }
check "--emulate: one row" 0 $PX run --elem 8 --rows 1 --cols 1000 --emulate
grep -q 'on a GPU the plan is a copy (one row and ld_out 1' "$tmp/err" && ok "... the model's best kernel is emulated, and a note says a GPU copies" ||
	{ nok "... emulate copy"; diag <"$tmp/err"; }
finish
