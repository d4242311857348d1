#!/bin/sh
# N-d permutations in the emulator: `check --emulate` runs
# each shape's reduced problem (kernel ABI v2 arguments) on the N-d buffers
# and compares the whole output with rig/nd_ref.h's reference, poison
# included: ranks 1 to 8, extents of 1, 2, 3 and odd, every permutation of
# rank 3 and 4, seeded random permutations of ranks 5 to 8, non-packed
# strides, misaligned pointers, a folded width, a grid capped by
# PTXPOSE_GRID_MAX; and `run --emulate` with the model's pick per width.
# Tiled copies and batches of several dims are skipped on these kernels; the
# pack kernels (kernel ABI v4) run every set too, and with a capped grid
# (the count of cases run is checked, so a skip cannot hide them all).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose

# perms N: every permutation of 0..N-1, one a line
perms() {
	awk -v N="$1" 'function p(pre, d,   i) { if (d == N) { print pre; return }
		for (i = 0; i < N; i++) if (!(i in u)) { u[i] = 1; p(pre (d ? "," : "") i, d + 1); delete u[i] } }
		BEGIN { p("", 0) }'
}
# random SEED: 3 seeded random shapes of each rank 5 to 8, extents 1, 2, 3, 5
random() {
	awk -v S="$1" 'BEGIN { srand(S); split("1 2 3 5", E, " ")
		for (r = 5; r <= 8; r++) for (c = 0; c < 3; c++) {
			s = ""; for (i = 0; i < r; i++) { s = s (i ? "x" : "") E[int(rand() * 4) + 1]; q[i] = i }
			for (i = r - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = q[i]; q[i] = q[j]; q[j] = t }
			s = s ":perm="; for (i = 0; i < r; i++) s = s (i ? "," : "") q[i]; print s } }'
}
list() { tr '\n' ',' | sed 's/,$//'; }

r3=$(perms 3 | sed 's/^/2x3x5:perm=/' | list)
r4=$(perms 4 | sed 's/^/2x3x4x5:perm=/' | list)
rnd=$(random 21 | list)
# ranks 1 to 8 with extents of 1, 2, 3 and odd; strides with padding; offsets; folds
hand="7:perm=0,5x7:perm=1,0,1x7x3:perm=2,1,0,3x1x5x2:perm=3,2,1,0,3x5x1x7x2:perm=4,1,2,0,3"
hand="$hand,1x2x1x3x1x5:perm=5,3,1,4,2,0,2x1x3x1x5x1x7:perm=6,5,4,3,2,1,0,1x1x1x1x1x1x3x5:perm=0,1,2,3,4,5,7,6"
hand="$hand,4x5x6:perm=2,1,0:strides_in=64,12,1:strides_out=40,8,1,3x5x7:perm=0,2,1:strides_in=48,8,1:strides_out=36,5,1"
hand="$hand,5x6x7:perm=2,0,1:offset=1,3x4x5:perm=0,2,1:offset=1,9x11:perm=1,0:strides_in=13,1:offset=1"
hand="$hand,8x16x2:perm=1,0,2:elem=32,4x6x2:perm=1,0,2:elem=16,4x5x6:perm=0,1,2,2x3x4x5:perm=0,2,1,3"
files="ptx/fast_b8.ptx ptx/fast_b16.ptx ptx/fast_b32.ptx ptx/skinny_tall_k2_b32.ptx ptx/fast_b64.ptx"

# tally MIN: the cases of $tmp/out run (ok without SKIP), skipped and wrong:
# ok when none is wrong and at least MIN ran
tally() { run=$(grep -c '^ok [0-9]* - [^#]*$' "$tmp/out"); skip=$(grep -c '# SKIP' "$tmp/out")
	bad=$(grep -c '^not ok' "$tmp/out")
	[ "$bad" -eq 0 ] && [ "$run" -ge "$1" ] && ok "... $run cases run, $skip skipped, none wrong" ||
		{ nok "... $run cases run, $skip skipped, $bad wrong"; grep -A1 '^not ok' "$tmp/out" | head -20 | diag; }; }
# the pack kernels (kernel ABI v4) too: every tile of each reduced problem,
# split or whole, against the reference
pack="ptx/pack_b8.ptx ptx/pack_b16.ptx ptx/pack_b32.ptx ptx/pack_b64.ptx ptx/pack_b128.ptx ptx/pack_s_b32.ptx"
for set in r3 r4 rnd hand; do
	eval "shapes=\$$set"
	check "check --emulate: $set shapes on 5 kernels" 0 $PX check --emulate --seed 7 --shapes "$shapes" $files
	tally 10
	check "check --emulate: $set shapes on the pack kernels" 0 $PX check --emulate --seed 7 --shapes "$shapes" $pack
	tally 6
done
check "check --emulate: tiles walked by a capped grid" 0 env PTXPOSE_GRID_MAX=3x1x1 $PX check --emulate --seed 9 \
	--shapes "$r4,$rnd" $pack
tally 20
for f in $pack; do # each pack kernel, the small one included, ran some
	k=$(basename "$f" .ptx)
	grep -q "^ok [0-9]* - $k [^#]*\$" "$tmp/out" || nok "... $k ran no case"
done
eval "shapes=\$hand"
check "check --emulate: hand shapes again (the last set's output below)" 0 $PX check --emulate --seed 7 --shapes "$shapes" $files
grep -q '^ok .* fast_b64 8x16x2:perm=1,0,2$' "$tmp/out" && grep -q '^ok .* fast_b32 4x6x2:perm=1,0,2$' "$tmp/out" &&
	grep -q 'fast_b32 8x16x2:perm=1,0,2 # SKIP the problem reduces to 8-byte elements' "$tmp/out" &&
	ok "... a folded width runs the wider kernels, and skips the others by name" ||
	{ nok "... a folded width"; grep 'x2:perm=1,0,2' "$tmp/out" | diag; }
grep -A1 'fast_b32 4x5x6:perm=0,1,2$' "$tmp/out" | grep -q '# a copy after reducing: verified as one memcpy' &&
	ok "... a copy is a host memcpy, said so" || nok "... a copy is a host memcpy, said so"
grep -q 'SKIP the problem reduces to a tiled copy, fast_b[0-9]* transposes' "$tmp/out" &&
	ok "... a tiled copy is skipped with its reason" || nok "... a tiled copy is skipped with its reason"

# A grid capped by PTXPOSE_GRID_MAX walks the batch and the tiles
PTXPOSE_GRID_MAX=1x1x2 check "check --emulate under PTXPOSE_GRID_MAX=1x1x2" 0 \
	$PX check --emulate --shapes "6x33x40:perm=0,2,1,70x3x9:perm=2,1,0:offset=1" ptx/fast_b32.ptx ptx/fast_b16.ptx
tally 4

# run --emulate: the model's pick for the reduced problem, per width
for w in 8 16 32 64 128; do
	check "run --emulate --elem $w 3x17x20:perm=2,0,1 (the model's pick)" 0 \
		$PX run --emulate --elem $w --dims 3x17x20 --perm 2,0,1
	grep -q "^[a-z0-9_]*_b$w 3x17x20:perm=2,0,1 elem=$w: PASS (emulated)" "$tmp/out" && ok "... PASS with a b$w kernel" ||
		{ nok "... PASS with a b$w kernel"; cat "$tmp/out" "$tmp/err" | diag; }
done
check "run --emulate a fold: --elem 16 4x6x2:perm=1,0,2 runs a b32 kernel" 0 \
	$PX run --emulate --elem 16 --dims 4x6x2 --perm 1,0,2 --offset 0
grep -q '_b32 4x6x2:perm=1,0,2 elem=16: PASS' "$tmp/out" && grep -q 'reduced: folded 2x2B into 4B' "$tmp/err" &&
	ok "... said and passed" || { nok "... said and passed"; cat "$tmp/out" "$tmp/err" | diag; }
check "run --emulate a copy" 0 $PX run --emulate --elem 32 --dims 4x5x6 --perm 0,1,2
grep -q '^copy 4x5x6:perm=0,1,2 elem=32: PASS' "$tmp/out" && ok "... a host memcpy, verified" || nok "... a host memcpy"
check "run --emulate a tiled copy" 0 $PX run --emulate --elem 32 --dims 2x3x4x64 --perm 0,2,1,3
grep -q '^rowcopy_[a-z_]*b32 2x3x4x64:perm=0,2,1,3 elem=32: PASS (emulated)' "$tmp/out" && ok "... a row copy kernel, PASS" ||
	{ nok "... a row copy kernel, PASS"; cat "$tmp/out" "$tmp/err" | diag; }
check "run --emulate a tiled copy of short runs" 0 $PX run --emulate --elem 32 --dims 2x3x4x5 --perm 0,2,1,3
grep -q '^pack_b32 2x3x4x5:perm=0,2,1,3 elem=32: PASS (emulated)' "$tmp/out" && ok "... a pack kernel, PASS" ||
	{ nok "... a pack kernel, PASS"; cat "$tmp/out" "$tmp/err" | diag; }
finish
