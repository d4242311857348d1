#!/bin/sh
# The flat batched kernels (grid=flat, gen/tp_flat.c) emulated on the
# batches they are for: packed batches of 3x3, 8x8, 16x16, 32x32, 64x64 and
# 1x7 matrices (chunks of many matrices, the vectors' partial ends), 31x33
# and 64x128 (one matrix a chunk, or past a chunk: the element path),
# pointers one and three elements off, padded leading dimensions and strides
# (the element paths of either side); then on 1x1x1 and 2x2x2 grids
# (PTXPOSE_GRID_MAX), so that a block walks several chunks through the
# barrier before the shared stage is reused. Then the plan: it ranks them
# for packed batches of which two matrices or more fit a chunk, and only
# there (64x64 floats: one a chunk).
# The gathering ones (flat_g_*) too: 7x1 and 2x5 (a column's and a matrix's
# wraps that square shapes hide) are for their steps.
# Bit-exact, in the ASan/UBSan build.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
set -- ptx/flat_*.ptx
need_ptx "$1"
SHAPES="3x3:batch=1000,8x8:batch=77,16x16:batch=33,32x32:batch=9,64x64:batch=3,1x7:batch=100,31x33:batch=5"
SHAPES="$SHAPES,64x128:batch=2,3x3:batch=50:offset=1,5x7:batch=40:offset=3,8x8:batch=20:ld_in=9:stride_in=80"
SHAPES="$SHAPES,8x8:batch=20:ld_out=10:stride_out=90,1x1,1x1:batch=3000,7x1:batch=300,2x5:batch=500:offset=2"
tap_run "the flat kernels on $SHAPES" $PX check --emulate --shapes "$SHAPES" "$@"
for g in 1x1x1 2x2x2; do
	PTXPOSE_GRID_MAX=$g tap_run "... and on a $g grid" $PX check --emulate \
		--shapes "3x3:batch=3000:offset=1,16x16:batch=100,8x8:batch=50:ld_in=9:stride_in=80,31x33:batch=5" "$@"
done

# the plan: candidates for packed batches that fit a chunk, else not
cands() { $PX plan --json "$@" 2>/dev/null | python3 -c '
import json, sys
print(" ".join(c["kernel"] for c in json.loads(sys.stdin.readline())["cases"][0]["candidates"]))'; }
for e in 8 16 32 64 128; do
	c=$(cands --elem $e --rows 3 --cols 3 --batch 1000)
	for k in flat_b$e flat_g_b$e; do
		case " $c " in *" $k "*) ok "plan: $k ranked for 1000 packed 3x3" ;;
		*) nok "plan: $k ranked for 1000 packed 3x3"; echo "$c" | diag ;; esac
	done
done
c=$(cands --elem 32 --rows 32 --cols 32 --batch 10)
case " $c " in *" flat_b32 "*) ok "plan: flat_b32 ranked for 10 packed 32x32 (4 a chunk)" ;;
*) nok "plan: flat_b32 ranked for 10 packed 32x32 (4 a chunk)"; echo "$c" | diag ;; esac
for args in "--rows 3 --cols 3 --batch 1000 --stride-in 10" "--rows 3 --cols 3 --batch 1000 --ld-out 4 --stride-out 12" \
	"--rows 64 --cols 64 --batch 10" "--rows 100 --cols 100 --batch 10"; do
	c=$(cands --elem 32 $args)
	case " $c " in *" flat_b32 "* | *" flat_g_b32 "*) nok "plan: flat_b32, flat_g_b32 not ranked for $args"; echo "$c" | diag ;;
	"  ") nok "plan: no candidates for $args" ;;
	*) ok "plan: flat_b32, flat_g_b32 not ranked for $args" ;; esac
done
check "run: the plan's kernel for 10000 packed 3x3 floats passes" 0 $PX run --elem 32 --rows 3 --cols 3 --batch 10000 --emulate
grep -q 'picked flat_\([sg]_\)\{0,1\}b32 ' "$tmp/err" && ok "... it is a flat kernel" || { nok "... it is a flat kernel"; diag <"$tmp/err"; }
finish
