#!/bin/sh
# On a CUDA GPU: measured plans (ptxpose plan --measure) on a square, a
# skinny, a misaligned and a batched problem: exit 0, the winner's measured
# time no more than any other timed candidate's, a second call taken from the
# on-disk cache (a fresh folder, $PTXPOSE_CACHE) with the same choice, and
# `run --measure` executing that plan, verified bit-exactly. A shape whose
# transpose is a copy: the copy plan, verified. Without a device:
# `1..0 # SKIP no CUDA device`.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
# The plain build: ASan's shadow memory and the CUDA driver do not mix.
PX=${PTXPOSE:-build/ptxpose}
need_ptxpose
need_gpu
export PTXPOSE_CACHE="$tmp/cache"

# The choice line's kernel and time, and every timed candidate's time.
winner() { sed -n 's/^choice: \([a-z0-9_]*\)  \([0-9.]*\) us measured .*/\1 \2/p' "$tmp/out"; }
least() { # exit 0 when the winner's time ($1) is at most every timed row's
	awk -v w="$1" '$1 ~ /^[0-9]+$/ && $4 ~ /^[0-9.]+$/ { n++; if (w > $4 + 0.005) bad = 1 }
		END { exit (n >= 1 && !bad) ? 0 : 1 }' "$tmp/out"
}

for shape in "--elem 32 --rows 4096 --cols 4096" "--elem 16 --rows 1000000 --cols 64" \
	"--elem 8 --rows 4097 --cols 4095 --offset 1" "--elem 64 --rows 64 --cols 96 --batch 512"; do
	check "plan --measure $shape: exit 0" 0 $PX plan --measure $shape
	set -- $(winner)
	k=$1 us=$2
	if [ -n "$k" ] && least "$us"; then
		ok "... $k at $us us, no slower than any timed candidate ($(grep -c '^ *[0-9][0-9]*  [a-z]' "$tmp/out") candidates)"
	else
		nok "... the winner's time"
	fi
	diag <"$tmp/out"
	check "... again: exit 0" 0 $PX plan --measure $shape
	grep -q '^measured: from the cache' "$tmp/out" && [ "$(winner | cut -d' ' -f1)" = "$k" ] &&
		ok "... from the cache, $k again" || { nok "... from the cache"; diag <"$tmp/out"; }
	check "run --measure $shape: exit 0" 0 $PX run $shape --measure --no-time
	grep -q "^ptxpose run: picked $k by measuring: .* before (from the cache)\$" "$tmp/err" &&
		grep -q "^$k .*: PASS  \\[" "$tmp/out" && ok "... that plan, verified bit-exactly" ||
		{ nok "... run"; diag <"$tmp/err"; diag <"$tmp/out"; }
done

check "run --elem 32 --rows 1 --cols 1000000 (the identity on memory)" 0 $PX run --elem 32 --rows 1 --cols 1000000
grep -q '^copy 1x1000000 elem=32: PASS  [0-9.]* us ' "$tmp/out" && ok "... the copy plan, verified and timed" ||
	{ nok "... copy"; diag <"$tmp/err"; diag <"$tmp/out"; }
diag <"$tmp/out"
finish
