#!/bin/sh
# On a CUDA GPU: N-d permutations through the library
# (ptxpose_plan_create + ptxpose_execute of the N-d desc), bit-exact over
# the whole output: every committed kernel on the shapes whose reduced
# problem has its width (others SKIP), then `run --dims` with the library's
# own pick: NCHW <-> NHWC, K transposed per head, a 3-D reversal, a fold, strides,
# misaligned pointers, over 2^31 elements, and a grid capped by
# PTXPOSE_GRID_MAX. Without a device: `1..0 # SKIP no CUDA device`.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
PX=${PTXPOSE:-build/ptxpose}
need_ptxpose
need_gpu
need_ptx ptx/*.ptx

SHAPES="32x64x56x56:perm=0,2,3,1,32x56x56x64:perm=0,3,1,2,256x256x256:perm=2,1,0,64x33x17:perm=2,0,1:offset=1"
SHAPES="$SHAPES,1024x1024x2:perm=1,0,2:elem=32,40x50x60:perm=2,1,0:strides_in=3100,61,1:strides_out=2600,52,1"
SHAPES="$SHAPES,7x9x11:perm=1,2,0:offset=3,4096x4096x3:perm=1,0,2:elem=8"
$PX check --shapes "$SHAPES" ptx/*.ptx >"$tmp/tap" 2>"$tmp/err"
rc=$?
passthrough "$tmp/tap"
[ $rc -eq 0 ] && ok "check: N-d shapes on every kernel, exit 0" || { nok "check: exit $rc"; diag <"$tmp/err"; }

for a in "--elem 16 --dims 32x64x56x56 --perm 0,2,3,1" "--elem 16 --dims 8x16x2048x64 --perm 0,1,3,2" \
	"--elem 32 --dims 256x256x256 --perm 2,1,0" "--elem 8 --dims 2x46341x23171 --perm 0,2,1" \
	"--elem 32 --dims 64x33x17 --perm 2,0,1 --offset 1" "--elem 32 --dims 4x5x6 --perm 0,1,2"; do
	check "run $a" 0 $PX run $a --iters 20
	grep -q ': PASS' "$tmp/out" && ok "... PASS" || { nok "... PASS"; cat "$tmp/out" "$tmp/err" | diag; }
done
check "run of a tiled copy (attention heads)" 0 $PX run --elem 16 --dims 8x128x16x64 --perm 0,2,1,3 --iters 20
grep -q '^rowcopy_[a-z_]*b16 .*: PASS' "$tmp/out" && ok "... a row copy kernel, PASS" ||
	{ nok "... a row copy kernel, PASS"; cat "$tmp/out" "$tmp/err" | diag; }

PTXPOSE_GRID_MAX=7x5x3 $PX check --shapes "256x256x256:perm=2,1,0,64x33x17:perm=2,0,1:offset=1" ptx/*.ptx \
	>"$tmp/tap" 2>"$tmp/err"
rc=$?
passthrough "$tmp/tap"
[ $rc -eq 0 ] && ok "check N-d on a grid capped at 7x5x3: exit 0" || { nok "check capped: exit $rc"; diag <"$tmp/err"; }
finish
