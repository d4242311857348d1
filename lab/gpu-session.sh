#!/bin/bash
# The lab's GPU stages (experiments: candidates beside the committed kernels,
# lab/README.md), run as bench/gpu-session.sh's are, in one call on a lent
# GPU machine from the repository root, logging under $OUT:
#
#   bash lab/gpu-session.sh STAGE...
#
# Stages: warp-study (the warp-collective study kernels and candidates:
# checks, sanitizers, timing), small-grids (small-grid and large-byte tile
# candidates: checked, timed beside the committed kernels and Triton, ncu
# counters, Triton's SASS; one page), skinny-granules (the skinny _g and
# packed kernels, with SK14_CAND=1 their candidates too: checked, sanitized,
# timed against the older ones and the peers), skinny-register (the register
# skinny kernels skinny_*_reg_*, with REG_CAND=1 their candidates too: the
# same checks, timed beside every skinny kernel), flat-gather (the tiny set
# timed with every flat kernel and naive_1d_*, no peers, resumable); and
# every stage of bench/gpu-session.sh, whose helpers this file uses.
. "$(dirname "${BASH_SOURCE[0]}")/../bench/gpu-session.sh"

# The warp-collective study kernels (study=1: ptx/study_*, and the round-13
# candidates, built on the machine from lab/candidates/2026-11-26-warp-collective.lua):
# checked on the default, odd, skinny, batched and misaligned shapes, under
# memcheck (and racecheck for the ones with shared memory) on small shapes,
# then timed beside the fast and narrow kernels of their width on large,
# 2048^2-ish, odd and skinny shapes. About 5 minutes on an H100.
# STUDY_CHECK, STUDY_SAN and STUDY_TIME replace the shape lists.
study_d=1000x999,4096x4096,4096x4096:ld_in=4104:ld_out=4112:offset=8,4096x4096:offset=1,3x100003,100003x3,64x20000,20000x64
STUDY_CHECK=${STUDY_CHECK:-$study_d,64x128:batch=100:stride_in=8200:stride_out=8200,33x31:batch=3:stride_in=1100:stride_out=1200:offset=1}
STUDY_SAN=${STUDY_SAN:-1000x999,512x512,512x512:ld_in=520:offset=8,3x5003,64x128:batch=5:stride_in=8200:stride_out=8200}
study_d=16384x16384,8192x8192,4096x4096,2048x2048,2048x2048:offset=8,1080x1920,8191x8193,64x128:batch=4096
STUDY_TIME=${STUDY_TIME:-$study_d,1000000x64,64x1000000,30000x8,8x30000}
stage_warp_study() {
	log study kernels: verify
	rm -rf build/study && $px gen --out build/study lab/candidates/2026-11-26-warp-collective.lua >/dev/null || return 1
	local study
	study=$(grep -l '^// ptxpose family=[a-z]* study=1' ptx/*.ptx build/study/*.ptx)
	$px check $study >"$OUT/study-check.tap"; echo "check, default shapes: rc=$?"
	$px check --shapes "$STUDY_CHECK" $study >>"$OUT/study-check.tap"; echo "check, study shapes: rc=$?"
	echo "$(grep -c '^ok' "$OUT/study-check.tap") ok, $(grep -c '^not ok' "$OUT/study-check.tap") not ok"
	grep -A3 '^not ok' "$OUT/study-check.tap" | head -20
	log study kernels: compute-sanitizer
	local smem
	smem=$(grep -l '^// ptxpose .* smem=swizzle' $study)
	compute-sanitizer --tool memcheck --error-exitcode 9 $px check --shapes "$STUDY_SAN" $study \
		>"$OUT/study-memcheck.log" 2>&1
	echo "memcheck: rc=$? $(grep 'ERROR SUMMARY' "$OUT/study-memcheck.log" | tail -1)"
	compute-sanitizer --tool racecheck --error-exitcode 9 $px check --shapes "$STUDY_SAN" $smem \
		>"$OUT/study-racecheck.log" 2>&1
	echo "racecheck: rc=$? $(grep 'RACECHECK SUMMARY' "$OUT/study-racecheck.log" | tail -1)"
	log study kernels: timing
	$px bench --iters 30 --no-cublas --elem 16 --shapes "$STUDY_TIME" --out-dir "$OUT/study-b16" $study \
		ptx/fast_b16.ptx ptx/fast_v8_b16.ptx ptx/fast_v4_b16.ptx ptx/narrow_b16.ptx ptx/narrow_tall_b16.ptx \
		ptx/narrow_shear_b16.ptx ptx/skinny_*_k64_b16.ptx 2>"$OUT/study-b16.err" >/dev/null
	echo "bench b16: rc=$?"; tail -2 "$OUT/study-b16.err"
	$px bench --iters 30 --elem 32 --shapes "$STUDY_TIME" --out-dir "$OUT/study-b32" $study \
		ptx/fast_b32.ptx ptx/fast_t64x128_b32.ptx ptx/narrow_b32.ptx ptx/cute_vec_swizzle_b32.ptx \
		ptx/skinny_*_k64_b32.ptx 2>"$OUT/study-b32.err" >/dev/null
	echo "bench b32: rc=$?"; tail -2 "$OUT/study-b32.err"
	cat "$OUT/study-b16/bench.md" "$OUT/study-b32/bench.md"
}

# Small grids and large bytes (lab/TUNING.md, "Round 14"): the
# candidates of lab/candidates/2026-11-27-small-grids-large-bytes.lua, generated here into build/round14,
# (a) checked on odd, skinny, batched and misaligned shapes; (b) timed by
# bench/peers.py (graph-timed, the same run's copy): the r14s_ ones beside
# every committed kernel of their width and the peers on the set `small` and
# 2048^2 halves, the r14l_ ones beside the committed byte kernels on large
# bytes (no peers); (c) ncu's DRAM, L2, warp and instruction counters on
# 16384^2 for fast_b8, fast_v8_b8, fast_b16 and the three fastest r14l_
# candidates; (d) Triton's SASS at 2048^2 f32 and f16 (bench/peer_sass.py)
# beside our fastest kernel's. Each part keeps its files in $R14_WORK
# (default /tmp/ptxpose-r14-COMMIT, the carried binary's: on a warm machine a
# second call with the same build skips the parts done and resumes a timing
# run cut short) and stops within its seconds
# (R14_CHECK_S, R14_SMALL_S, R14_LARGE_S, R14_NCU_S, R14_SASS_S); then, from
# whatever exists, $OUT/r14-summary.md (lab/candidates_page.py), r14-small.json,
# r14-large.json and r14-raw.tgz (every file of the parts). About 5 minutes.
R14_CHECK=${R14_CHECK:-1x1,1x37,37x1,31x33,31x33:offset=1,1000x999,67x129:ld_in=132:ld_out=72,\
2048x2048:ld_in=2056:ld_out=2064:offset=8,2049x2047:offset=1,181x1448,\
1448x181:offset=3,3x100003,100003x3,64x20000,20000x64,64x128:batch=100:stride_in=8200:stride_out=8200,\
33x31:batch=3:stride_in=1100:stride_out=1200:offset=1,513x1031:batch=2}
R14_LARGE=${R14_LARGE:-8192x8192:u8 16384x16384:u8 32768x8192:u8 8192x32768:u8 16384x16384:f16}
R14_NCU_METRICS=dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_write.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,\
smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,\
launch__registers_per_thread,gpu__time_duration.sum
R14_NCU_CORE=dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_write.sum,smsp__inst_executed.sum,gpu__time_duration.sum
r14_file() { for d in ptx build/round14; do [ -f "$d/$1.ptx" ] && echo "$d/$1.ptx" && return; done; }
r14_peers() { # NAME SECONDS ARGS...: one bench/peers.py run into $w/NAME.json, resumed, marked done when whole
	local name=$1 secs=$2
	shift 2
	[ -f "$w/$name.done" ] && { echo "$name: done in an earlier call"; return; }
	peers_to "$w/$name.json" "$secs" "$@" --replays 15 --target-ms 0.5 && touch "$w/$name.done"
}
stage_small_grids() {
	local w=${R14_WORK:-/tmp/ptxpose-r14-$(built_commit)} t0 left rc k f m spec cfg best cand arch bits
	mkdir -p "$w/ncu" "$w/sass"
	# the package's library: the build folder's, or the carried file where its link was not carried
	[ -e build/libptxpose.so.0.3 ] || export PTXPOSE_LIB=$PWD/build/libptxpose.so.0.3.0
	log round 14: candidates
	rm -rf build/round14 && $px gen --out build/round14 lab/candidates/2026-11-27-small-grids-large-bytes.lua >/dev/null || return 1
	local small=(build/round14/r14s_*.ptx) large=(build/round14/r14l_*.ptx)
	echo "${#small[@]} small-grid, ${#large[@]} large-byte candidates"

	log round 14: check
	if [ -f "$w/check.done" ]; then echo "check: done in an earlier call"; else
		timeout "${R14_CHECK_S:-90}" $px check --shapes "$R14_CHECK" build/round14/*.ptx >"$w/check.tap" 2>&1
		rc=$?
		echo "check: rc=$rc, $(grep -c '^ok' "$w/check.tap") ok, $(grep -c '^not ok' "$w/check.tap") not ok"
		[ $rc = 0 ] && touch "$w/check.done"
		grep -A2 '^not ok' "$w/check.tap" | head -12
	fi

	log round 14: small set with the peers, every committed kernel
	r14_peers small "${R14_SMALL_S:-150}" --set small 2048x2048:f16 --ptx 'ptx/*.ptx' --ptx 'build/round14/r14s_*.ptx'
	log round 14: large bytes, no peers
	# shellcheck disable=SC2086 # R14_LARGE is a list of cases
	r14_peers large "${R14_LARGE_S:-130}" --no-peers $R14_LARGE --ptx 'build/round14/r14l_*.ptx' \
		--ptx ptx/fast_b8.ptx --ptx ptx/fast_v8_b8.ptx --ptx ptx/fast_t256x256_b8.ptx --ptx ptx/narrow_tall_b8.ptx \
		--ptx ptx/fast_b16.ptx --ptx ptx/fast_v8_b16.ptx

	log round 14: ncu on 16384^2
	local ncu top
	ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
	top=$(python3 -B lab/candidates_page.py --top 3 --case 16384x16384:u8 --prefix r14l_ "$w/large.json" 2>/dev/null)
	[ -n "$top" ] || top="r14l_b8_t128x256_v8_512_s_g8_r64 r14l_b8_t256x128_v8_512_s_g8_r64 r14l_b8_t128x256_v16_128_s_g8_r144"
	t0=$SECONDS
	for k in fast_b8 fast_v8_b8 $top fast_b16; do
		f=$(r14_file "$k")
		spec=16384x16384:u8
		case $k in *_b16) spec=16384x16384:f16 ;; esac
		[ -s "$w/ncu/$k@$spec.csv" ] && continue
		left=$((${R14_NCU_S:-90} - (SECONDS - t0)))
		[ $left -gt 5 ] || { echo "ncu: out of time before $k"; break; }
		for m in "$R14_NCU_METRICS" "$R14_NCU_CORE"; do # the core set where a metric is unknown
			timeout $left "$ncu" --clock-control none --print-units base --csv --metrics "$m" -k "$k" -c 1 \
				$px run "$f" --rows 16384 --cols 16384 --no-time >"$w/ncu/$k.out" 2>&1
			rc=$?
			grep -q '"dram__sectors_read.sum"' "$w/ncu/$k.out" && mv "$w/ncu/$k.out" "$w/ncu/$k@$spec.csv" && break
			[ $rc = 124 ] && break
			left=$((${R14_NCU_S:-90} - (SECONDS - t0)))
		done
		echo "ncu $k: rc=$rc"
	done

	log round 14: Triton\'s SASS at 2048^2 beside ours
	t0=$SECONDS
	for spec in 2048x2048:f32 2048x2048:f16; do
		[ -s "$w/sass/summary-triton-$spec.txt" ] && continue
		left=$((${R14_SASS_S:-60} - (SECONDS - t0)))
		[ $left -gt 5 ] || { echo "sass: out of time before $spec"; break; }
		cfg=$(python3 -B lab/candidates_page.py --triton-config "$spec" "$w/small.json" 2>/dev/null)
		best=$(python3 -B lab/candidates_page.py --top 1 --case "$spec" "$w/small.json" 2>/dev/null)
		bits=32
		case $spec in *f16) bits=16 ;; esac
		: "${cfg:=64x64/w8}" "${best:=fast_b$bits}"
		timeout $left python3 -B bench/peer_sass.py --case "$spec" --config "$cfg" --out "$w/sass" >>"$w/sass/peer_sass.log" 2>&1
		echo "peer_sass $spec $cfg: rc=$?"
		f="$w/sass/triton-${spec%%:*}-${spec##*:}-${cfg%%/*}w${cfg##*/w}.ptx"
		if [ -s "$f" ]; then
			arch=$(sed -n 's/^\.target[ \t]*\(sm_[0-9a-z]*\).*/\1/p' "$f" | head -1)
			$px sass --summary --arch "${arch:-sm_90}" --tile "${cfg%%/*}" --elem $bits --threads $((32 * ${cfg##*/w})) \
				"$f" >"$w/sass/summary-triton-$spec.txt" 2>&1
		fi
		# our fastest kernel there, and the fastest candidate where it is another
		cand=$(python3 -B lab/candidates_page.py --top 1 --case "$spec" --prefix r14s_ "$w/small.json" 2>/dev/null)
		for k in "$best" "$cand"; do
			f=$(r14_file "$k")
			[ -n "$f" ] || continue
			$px sass "$f" >"$w/sass/ours-$k.sass" 2>&1
			$px sass --summary "$f" >"$w/sass/summary-ours-$spec-$k.txt" 2>&1
			echo "sass: Triton $cfg beside $k: rc=$?"
			[ "$cand" = "$best" ] && break
		done
	done

	log round 14: summary
	local args=()
	[ -f "$w/check.tap" ] && args+=(--check "$w/check.tap")
	for f in "$w"/ncu/*.csv; do [ -f "$f" ] && args+=(--ncu "$f"); done
	for f in "$w"/sass/summary-*.txt; do [ -f "$f" ] && args+=(--text "$f"); done
	for f in small large; do [ -f "$w/$f.json" ] && args+=("$w/$f.json") && cp "$w/$f.json" "$OUT/r14-$f.json"; done
	for k in fast_b8 fast_v8_b8 fast_t256x256_b8 narrow_tall_b8 fast_b16 fast_v8_b16; do args+=(--show "$k"); done
	python3 -B lab/candidates_page.py --title "Round 14 (issue 22 items 1 and 4)" --prefix r14s_ --prefix r14l_ \
		"${args[@]}" --out "$OUT/r14-summary.md"
	echo "summary: rc=$? $OUT/r14-summary.md"
	tar -C "$w" --exclude='*.json' --exclude='*.cubin' -czf "$OUT/r14-raw.tgz" .
}

# Issue 22 item 3 (skinny 1- and 2-byte elements, K 9 to 64): the kernels
# it added (scripts/variants.lua: the _g<granules> ones the plans rank and
# the tall packed study ones; SK14_CAND=1 adds the candidates of
# lab/candidates/2026-11-27-skinny-granules.lua, built on the machine): GPU checks on
# skinny, odd, batched and misaligned shapes (and with the grid capped; the
# default shapes too), memcheck and racecheck of them all, then the skinny
# and skinny-mid sets' 1- and 2-byte cases with K 9 to 64, the direction's
# kmax 8 to 64 skinny kernels, the narrow or fast kernels that won some of
# them, and the peers timed by name ($OUT/skinny-granules.json, resumable within
# $T14 seconds, default 120; the table: lab/skinny_table.py). About 3 minutes.
SK14_CHECK="24x1048576,1048576x24,17x1048576:offset=1,1048576x17:offset=3,48x65536:ld_in=65552:ld_out=49,\
65536x48:ld_in=49:ld_out=65552,24x4096:batch=5,4096x24:batch=5:offset=2,33x100001:ld_in=100003,100001x33:ld_out=100003,\
12x30000:offset=1,30000x12,64x20000,20000x64,9x5001:ld_in=5003:ld_out=11:offset=2,5001x9:ld_in=11:ld_out=5003"
# (a leading dimension of 16 bytes' multiple with K a multiple of 4 takes the
# packed path: 24x4096, 36x2048, 4096x24:offset=3; 17, 33 and ld 20003 do not)
SK14_CAP="24x4096,4096x24:offset=3,17x20001:offset=1,20001x17:ld_in=19:ld_out=20003:offset=3,36x2048:batch=3,\
2048x36:batch=3:offset=2,33x3000:ld_in=3003:ld_out=35,3000x33,24x20000:offset=1,20000x24"
SK14_SAN="24x4096,4096x24:offset=3,17x5001:offset=1,5001x17,36x512:batch=3,512x36:batch=3:offset=2"
# sk_checks TAG NEW CAND: GPU checks of NEW (default shapes) and NEW CAND
# (the skinny, capped-grid shapes), memcheck of them all and racecheck of
# NEW, logged as $OUT/TAG-*
sk_checks() {
	local tag=$1 new=$2 cand=$3
	log "$tag: GPU checks ($(echo $new | wc -w) new kernels, $(echo $cand | wc -w) candidates)"
	$px check $new >"$OUT/$tag-check.tap"; echo "default shapes, the new kernels: rc=$?"
	$px check --shapes "$SK14_CHECK" $new $cand >>"$OUT/$tag-check.tap"; echo "skinny shapes: rc=$?"
	PTXPOSE_GRID_MAX=7x1x1 $px check --shapes "$SK14_CAP" $new $cand >>"$OUT/$tag-check.tap"; echo "capped grid: rc=$?"
	echo "$(grep -c '^ok' "$OUT/$tag-check.tap") ok, $(grep -c '^not ok' "$OUT/$tag-check.tap") not ok"
	grep -A3 '^not ok' "$OUT/$tag-check.tap" | head -20
	log "$tag: compute-sanitizer"
	compute-sanitizer --tool memcheck --error-exitcode 9 $px check --shapes "$SK14_SAN" $new $cand \
		>"$OUT/$tag-memcheck.log" 2>&1
	echo "memcheck: rc=$? $(grep 'ERROR SUMMARY' "$OUT/$tag-memcheck.log" | tail -1)"
	compute-sanitizer --tool racecheck --error-exitcode 9 $px check --shapes "$SK14_SAN" $new \
		>"$OUT/$tag-racecheck.log" 2>&1
	echo "racecheck: rc=$? $(grep 'RACECHECK SUMMARY' "$OUT/$tag-racecheck.log" | tail -1)"
}

# sk_time OUT.json SECONDS [PTX-GLOB...]: the skinny and skinny-mid sets'
# 1- and 2-byte cases with K 9 to 64, each direction with its own kmax 8 to
# 64 skinny kernels (the register ones, *_reg_*, included), the narrow or
# fast kernels that won some of them, the extra globs (whose names hold
# `DIR`, replaced by wide or tall) and the peers, timed by name, resumable;
# then lab/skinny_table.py's table
sk_time() {
	local out=$1 secs=$2 cases dir other k g ptx
	shift 2
	for dir in wide tall; do # each direction's cases with its own kernels (the others crawl there)
		cases=$(python3 -B -c "import sys; sys.path.insert(0, 'bench'); import peers_cases as pc
ks = [(c, [int(x) for x in c.split(':')[0].split('x')]) for s in ('skinny', 'skinny-mid') for c in pc.SETS[s]]
print(' '.join(c for c, (r, n) in ks if c.split(':')[1] in ('u8', 'f16') and 9 <= min(r, n) <= 64
               and (r < n) == ('$dir' == 'wide')))")
		ptx=() # globs for peers.py
		for g in "$@"; do ptx+=(--ptx "${g//DIR/$dir}"); done
		for k in 8 16 32 64; do ptx+=(--ptx "ptx/skinny_${dir}_k${k}_*"); done
		[ "$dir" = wide ] && other="fast_b8 fast_v8_b8 fast_v4_b16" || other="narrow_tall_b8 narrow_tall_b16 narrow_b8 narrow_b16"
		for k in $other; do ptx+=(--ptx "ptx/$k.ptx"); done
		# shellcheck disable=SC2086 # the cases are words
		echo "timing, $dir ($(echo $cases | wc -w) cases):"
		peers_to "$out" $(((secs + 1) / 2)) "${ptx[@]}" --replays 15 --target-ms 0.5 $cases
	done
	[ -f "$out" ] && python3 -B lab/skinny_table.py "$out" | tee "${out%.json}.md" | tail -6
}

# sk_round TAG NEW CAND PREFIX SECONDS LUA: a skinny run, the committed
# kernels NEW and (CAND=1) the candidates of LUA,
# built on the machine (named PREFIX_<dir>_...): sk_checks, then sk_time's
# cases into $OUT/TAG.json within SECONDS
sk_round() {
	local tag=$1 new=$2 want=$3 prefix=$4 secs=$5 lua=$6 cand= t0=$SECONDS
	if [ "$want" = 1 ]; then
		rm -rf "build/$tag" && $px gen --out "build/$tag" "$lua" >/dev/null || return 1
		cand=$(ls "build/$tag"/*.ptx)
	fi
	sk_checks "$tag" "$new" "$cand"
	log "$tag: timing ($((SECONDS - t0)) s so far)"
	if [ -n "$cand" ]; then sk_time "$OUT/$tag.json" "$secs" "build/$tag/${prefix}_DIR_*"
	else sk_time "$OUT/$tag.json" "$secs"; fi
}

stage_skinny_granules() {
	sk_round skinny-granules "$(ls ptx/skinny_*_g[0-9]*_b*.ptx ptx/skinny_*_pack_b*.ptx)" "${SK14_CAND:-0}" c14 "${T14:-120}" \
		lab/candidates/2026-11-27-skinny-granules.lua
}

# Issue 22 item 3's register kernels (skinny_*_reg_*, gen/tp_skinny_reg.c:
# no shared memory; REG_CAND=1 adds the candidates of
# lab/candidates/2026-11-27-skinny-register.lua): the checks of skinny-granules on them (the
# racecheck too, though they share nothing), then sk_time's cases beside
# every committed skinny kernel and the peers ($OUT/skinny-register.json,
# resumable within $TREG seconds, default 120; the table's reg columns).
# About 3 minutes.
stage_skinny_register() {
	sk_round skinny-register "$(ls ptx/skinny_*_reg_b*.ptx)" "${REG_CAND:-0}" creg "${TREG:-120}" \
		lab/candidates/2026-11-27-skinny-register.lua
}

# flat-gather: the tiny set timed with every flat kernel and naive_1d_* and no
# peers ($OUT/tiny-gather.json, resumable: OUT on a kept folder, within
# $TTINY seconds a call, default 150: the 83 cases took 16 s at 7f16a53),
# as tiny-flat.json was, then lab/flat_gather_table.py's per-width summary
# ($OUT/tiny-gather.md; lab/TUNING.md, issue 22 item 2).
stage_flat_gather() {
	log "the tiny set: flat_*, flat_s_*, flat_g*, naive_1d_*"
	peers_to "$OUT/tiny-gather.json" "${TTINY:-150}" --set tiny --ptx 'ptx/flat*.ptx' --ptx 'ptx/naive_1d*.ptx' \
		--no-peers --replays 15 --target-ms 0.5
	[ -f "$OUT/tiny-gather.json" ] && python3 -B lab/flat_gather_table.py "$OUT/tiny-gather.json" >"$OUT/tiny-gather.md" &&
		cat "$OUT/tiny-gather.md"
}

run_stages "$@"
