#!/bin/bash
# One call on a lent GPU machine: build here, carry build/ptxpose (and
# build/tune), then run stages there, logging under $OUT.
#
#   bash bench/gpu-session.sh STAGE...
#
# Stages: info, verify (GPU tests + odd shapes, standard and tuning sets),
# sanitize (compute-sanitizer memcheck and racecheck at 4097x4095), shapes-san
# (memcheck of every kernel and racecheck of the small-dimension family,
# one kernel a width and round 14's, on skinny, batched and misaligned shapes), lib (the
# examples, built by `bash bench/gpu-session.sh stage-examples` here, and
# bench/overhead, each under compute-sanitizer too), std (the
# standard set's benchmark), tune (tuning candidates on the deciding shapes),
# peers (ptx/ side by side with PyTorch, CuPy, cuBLAS, Triton and cuTENSOR:
# bench/peers.py, see bench/README.md), cutensor (puts cuTENSOR's library
# together from its parts and exports $PTXPOSE_CUTENSOR for the stages after
# it: run `cutensor peers`), ncu (bank-conflict counters), pack (the pack
# family: checks, sanitizers, timed against the 2-D reduction), nd (N-d checks, the new
# families under compute-sanitizer, the Python GPU tests), issue22 (issue 22's
# target sets and the holdout, resumable; bench/targets.py), round14 (tuning
# round 14: small-grid and large-byte candidates checked, timed beside the
# committed kernels and Triton, ncu counters, Triton's SASS; one summary),
# skinny14 (issue 22 item 3: the skinny kernels it added, with
# SK14_CAND=1 the candidates too, checked, sanitized and timed against the
# older ones and the peers), skinnyreg (the register skinny kernels,
# skinny_*_reg_*, with REG_CAND=1 their candidates too: the same checks,
# timed beside every skinny kernel),
# tinyg-check (the gathering flat kernels flat_g*: checks, memcheck
# and racecheck on tiny odd and misaligned batches), tinyg (the tiny set
# timed with every flat kernel and naive_1d_*, no peers, resumable).
set -u
OUT=${OUT:-/tmp/ptxpose-out}
mkdir -p "$OUT"
px=build/ptxpose
log() { printf '\n== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }
# the commit the carried binary was built from (a lent machine's copy of the tree
# may hold a stale git checkout)
built_commit() { $px --version 2>/dev/null | sed -n 's/.*(commit \([0-9a-f]*\(-dirty\)\{0,1\}\)).*/\1/p'; }
# peers_to OUT.json SECONDS ARGS...: bench/peers.py ARGS resumed into OUT.json (its log
# OUT.log), stopped after SECONDS, measuring the carried binary's commit; says its exit
# status and the cases measured in all, and returns that status
peers_to() {
	local out=$1 secs=$2 rc
	shift 2
	[ "$secs" -ge 1 ] 2>/dev/null || secs=1 # timeout 0 would mean no limit
	PTXPOSE_COMMIT=${PTXPOSE_COMMIT:-$(built_commit)} PYTHONUNBUFFERED=1 timeout "$secs" python3 -B bench/peers.py \
		"$@" --resume --out "$out" >>"${out%.json}.log" 2>&1
	rc=$?
	echo "$(basename "$out" .json): rc=$rc, $(grep -c ' copy ' "${out%.json}.log") cases measured in all"
	return $rc
}

stage_info() {
	log info
	nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
	$px run ptx/naive_1d_b32.ptx --rows 1 --cols 1 --no-time -v
}

stage_verify() {
	log verify standard set
	$px check ptx/*.ptx >"$OUT/check-std.tap"; echo "rc=$?"
	grep -v '^ok' "$OUT/check-std.tap" | head -20; grep -c '^ok' "$OUT/check-std.tap"
	if [ -d build/tune ]; then
		log verify tuning set
		$px check build/tune/*.ptx >"$OUT/check-tune.tap"; echo "rc=$?"
		grep -v '^ok' "$OUT/check-tune.tap" | head -20; grep -c '^ok' "$OUT/check-tune.tap"
	fi
	log GPU tests
	for t in tests/t05*.t; do echo "# $t"; sh "$t"; done >"$OUT/gpu-tests.tap" 2>&1
	grep -v '^ok' "$OUT/gpu-tests.tap" | head -20; grep -c '^ok' "$OUT/gpu-tests.tap"
}

stage_sanitize() {
	log compute-sanitizer
	for f in "$@"; do
		for tool in memcheck racecheck; do
			compute-sanitizer --tool $tool --error-exitcode 9 $px run "$f" --rows 4097 --cols 4095 --no-time \
				>"$OUT/san-$tool-$(basename "$f" .ptx).log" 2>&1
			echo "$tool $(basename "$f"): rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool-$(basename "$f" .ptx).log" | head -1)"
		done
	done
}

# Skinny, batched, misaligned and odd shapes through check (one process a
# tool: every file and shape), memcheck over every kernel, racecheck over the
# small-dimension family's kmax 8 and 64 and _g<granules> ones, the narrow
# kernels (one a width; every kernel walks batches) and round 14's kernels
# (fast_s*, fast_v8_g8_b8), and the library's plans (run --elem).
SAN_SHAPES=4097x4095,3x100003,100003x3,64x20000,20000x64,1x5000,33x31:batch=3:stride_in=1100:stride_out=1200:offset=1,1000x999:ld_in=1003:offset=1
RACE_SHAPES=1000x999,3x20003,20003x3,64x5000,33x31:batch=3:stride_in=1100:stride_out=1200:offset=1,1000x999:ld_in=1003:offset=1
stage_shapes_san() {
	log compute-sanitizer: shapes
	compute-sanitizer --tool memcheck --error-exitcode 9 $px check --shapes "$SAN_SHAPES" ptx/*.ptx \
		>"$OUT/san-memcheck-all.log" 2>&1
	echo "memcheck, every kernel: rc=$? $(grep -c '^ok' "$OUT/san-memcheck-all.log") ok, $(grep -c '^not ok' "$OUT/san-memcheck-all.log") not ok; $(grep 'ERROR SUMMARY' "$OUT/san-memcheck-all.log" | tail -1)"
	compute-sanitizer --tool racecheck --error-exitcode 9 $px check --shapes "$RACE_SHAPES" \
		ptx/skinny_*_k8_*.ptx ptx/skinny_*_k64_*.ptx ptx/skinny_*_k1_b8.ptx ptx/skinny_*_g[0-9]*_b*.ptx ptx/narrow_*.ptx \
		ptx/fast_s*.ptx ptx/fast_v8_g8_b8.ptx >"$OUT/san-racecheck.log" 2>&1
	echo "racecheck: rc=$? $(grep -c '^ok' "$OUT/san-racecheck.log") ok, $(grep -c '^not ok' "$OUT/san-racecheck.log") not ok; $(grep 'RACECHECK SUMMARY' "$OUT/san-racecheck.log" | tail -1)"
	for e in 8 16 32 64 128; do
		compute-sanitizer --tool memcheck --error-exitcode 9 $px run --elem $e --rows 4097 --cols 4095 --offset 1 --no-time \
			>>"$OUT/san-plans.log" 2>&1
		echo "memcheck run --elem $e 4097x4095 offset 1: rc=$?"
	done
}

# The examples, built here against a staged install (pkg-config), carried in
# .carry/examples; then bench/overhead (the library's host time).
stage_stage_examples() {
	local st=$PWD/.carry/stage
	rm -rf "$st" .carry/examples && mkdir -p .carry/examples
	DESTDIR=$st PREFIX=/usr/local ninja install >/dev/null || return 1
	export PKG_CONFIG_PATH=$st/usr/local/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$st
	cc -std=c11 -O2 examples/transpose.c -I/usr/local/cuda/include $(pkg-config --cflags ptxpose) \
		"$st/usr/local/lib/libptxpose.a" $(pkg-config --static --libs-only-l ptxpose | sed 's/-lptxpose//') \
		-o .carry/examples/transpose_c || return 1
	c++ -O2 examples/transpose.cpp -I/usr/local/cuda/include $(pkg-config --cflags ptxpose) \
		"$st/usr/local/lib/libptxpose.a" $(pkg-config --static --libs-only-l ptxpose | sed 's/-lptxpose//') \
		-o .carry/examples/transpose_cpp || return 1
	cp build/bench/overhead .carry/examples/overhead
	rm -rf "$st"
	ls -l .carry/examples
}
stage_lib() {
	log library: examples and overhead
	for x in transpose_c transpose_cpp; do
		.carry/examples/$x >"$OUT/ex-$x.log" 2>&1; echo "$x: rc=$? $(tail -1 "$OUT/ex-$x.log")"
		for tool in memcheck racecheck; do
			compute-sanitizer --tool $tool --error-exitcode 9 .carry/examples/$x >"$OUT/san-$tool-$x.log" 2>&1
			echo "  $tool: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool-$x.log" | tail -1)"
		done
	done
	PTXPOSE_CACHE=$OUT/cache .carry/examples/overhead >"$OUT/overhead.txt" 2>&1; echo "overhead: rc=$?"
	cat "$OUT/overhead.txt"
	for s in "--elem 8 --rows 4097 --cols 4095 --offset 1" "--elem 16 --rows 2048 --cols 2048" \
		"--elem 128 --rows 8191 --cols 8193" "--elem 8 --rows 3 --cols 1000003"; do
		PTXPOSE_CACHE=$OUT/cache $px plan --measure $s >>"$OUT/measure.txt" 2>&1; echo "plan --measure $s: rc=$?"
	done
	tail -40 "$OUT/measure.txt"
	rm -rf "$OUT/cache"
}

# The issue's case list: every width at each shape (32768^2 for bytes too).
CASES=16384x16384,32768x32768:elem=8,8192x8192,8191x8193,12345x6789,4096x4096,2048x2048,65536x4096,4096x65536,30000x7,7x30000

stage_std() {
	log benchmark: standard set
	$px bench --iters 60 --shapes "${STD_SHAPES:-$CASES}" --out-dir "$OUT/std" ptx/*.ptx 2>"$OUT/bench-std.err" | tail -3
	tail -2 "$OUT/bench-std.err"
}

stage_tune() {
	log benchmark: tuning candidates
	$px bench --iters 60 --no-cublas --shapes "${TUNE_SHAPES:-16384x16384,8191x8193,4096x4096,2048x2048}" \
		--out-dir "$OUT/tune" build/tune/*.ptx 2>"$OUT/bench-tune.err" | tail -5
	tail -3 "$OUT/bench-tune.err"
}

# san_runs "ARGS"...: each `ptxpose ARGS --no-time` under compute-sanitizer
# memcheck, then racecheck, a line each with the summary.
san_runs() {
	local run tool
	for run; do
		for tool in memcheck racecheck; do
			# shellcheck disable=SC2086 # ARGS are words
			compute-sanitizer --tool $tool --error-exitcode 9 $px $run --no-time >"$OUT/san.log" 2>&1
			echo "$tool $run: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san.log" | head -1)"
		done
	done
}

# The pack family (kernel ABI v4, gen/tp_pack.c): GPU checks of the N-d
# sets and hand-made split, odd and misaligned shapes over every pack kernel
# (and with the grid capped), the library's plans over 2^31 elements,
# memcheck and racecheck, then every pack kernel and the 2-D reduction's
# kernels timed by name on the tensor-network, random and 3-D sets (the
# pack tile against the reduction to 2-D, one process, graph-timed).
PACK_SHAPES="1024x1024x8:perm=2,1,0:elem=f32,8x1024x1024:perm=2,1,0:elem=f16,100x3x8:perm=2,1,0:elem=u8,\
3x5x7x11x13x17:perm=5,3,1,0,2,4:elem=u8:offset=1,33x4097x65:perm=0,2,1:elem=f16:offset=1,\
40x50x60:perm=2,1,0:strides_in=3100,61,1:strides_out=2600,52,1:elem=c128,2x3x4x5x6x7x8:perm=6,4,2,0,1,3,5:elem=f64"
stage_pack() {
	local nd; nd=$(python3 bench/nd_shapes.py permute-tn permute-random permute-3d permute-odd)
	log pack kernels: GPU checks
	$px check --shapes "$PACK_SHAPES,$nd" ptx/pack_*.ptx >"$OUT/check-pack.tap"; echo "rc=$?"
	PTXPOSE_GRID_MAX=7x1x1 $px check --shapes "$PACK_SHAPES" ptx/pack_*.ptx >>"$OUT/check-pack.tap"; echo "capped rc=$?"
	grep -v '^ok' "$OUT/check-pack.tap" | grep -v SKIP | head -10; grep -c '^ok' "$OUT/check-pack.tap"
	log the library\'s plans: pack tiles, one over 2^31 elements
	for a in "--elem 8 --dims 46341x23171x2 --perm 2,1,0" "--elem 32 --dims 1024x1024x8 --perm 2,1,0" \
		"--elem 128 --dims 29x10x36x2x4x5 --perm 2,0,5,4,1,3"; do
		$px run $a 2>&1 | tail -1
	done
	log sanitizers on the pack family
	san_runs "run ptx/pack_b32.ptx --dims 100x3x8 --perm 2,1,0 --offset 1" \
		"run ptx/pack_b8.ptx --dims 3x5x7x11x13x17 --perm 5,3,1,0,2,4 --offset 1" \
		"run ptx/pack_b128.ptx --dims 29x10x36x2x4x5 --perm 2,0,5,4,1,3" \
		"run ptx/pack_b16.ptx --dims 64x33x17x3 --perm 3,1,0,2 --offset 1"
	log timing: the pack tile against the reduction to 2-D, every kernel by name
	$px bench --shapes "$nd" --out-dir "$OUT/bench-pack" ptx/pack_*.ptx ptx/fast_nd_*.ptx ptx/narrow_nd_*.ptx \
		ptx/fast_b*.ptx ptx/narrow_b*.ptx ptx/rowcopy_*.ptx >"$OUT/bench-pack.log" 2>&1
	echo "bench rc=$?"; tail -3 "$OUT/bench-pack.log"
}

# Every kernel of ptx/ and the peers, graph-timed in one process, into
# $OUT/peers.json (a case already there is kept, so a second call with the
# same $OUT goes on where a first one stopped), then the plan's pick added by
# bench/pick.py (no GPU; it runs the carried build/ptxpose). PEER_SETS names
# the case sets (default: peers.py's, mixed extremes small-elements); PEER_ARGS adds
# options (--replays 20 --target-ms 0.5, or --quick). Then, anywhere:
# python3 bench/report.py --out bench/results $OUT/peers.json
stage_peers() {
	log peers
	local sets=""
	for s in ${PEER_SETS:-}; do sets="$sets --set $s"; done
	# the commit measured: the carried binary's (built from the tree carried with it);
	# a lent machine's copy of the tree may hold a stale git checkout
	local c
	c=$(built_commit)
	PTXPOSE_COMMIT=${PTXPOSE_COMMIT:-$c} PYTHONUNBUFFERED=1 python3 -B bench/peers.py $sets --ptx 'ptx/*.ptx' --resume --out "$OUT/peers.json" \
		${PEER_ARGS:-} >>"$OUT/peers.log" 2>&1
	echo "peers: rc=$?"
	grep '^peers' "$OUT/peers.log" | tail -20
	python3 -B bench/pick.py --ptxpose $px "$OUT/peers.json" >>"$OUT/peers.log" 2>&1
	echo "pick: rc=$?"
	grep '^pick' "$OUT/peers.log" | tail -3
}

# cuTENSOR for the peers stage: the cutensor-cu13 wheel's libcutensor.so.2,
# carried as xz parts $CT_DIR/ct.part.00..03 (default /tmp/ct; with
# libcutensor.so.2.md5 beside them where the packer wrote one), put together
# once, checked, and exported as $PTXPOSE_CUTENSOR for the stages after this
# one; then a probe: a handle made and its version printed.
stage_cutensor() {
	log cutensor
	local d=${CT_DIR:-/tmp/ct} lib
	lib=$d/libcutensor.so.2
	if [ ! -s "$lib" ]; then
		ls "$d"/ct.part.0* >/dev/null 2>&1 || { echo "cutensor: no parts $d/ct.part.0*"; return 1; }
		cat "$d"/ct.part.0* | xz -d -T16 >"$lib.tmp" && mv "$lib.tmp" "$lib" ||
			{ rm -f "$lib.tmp"; echo "cutensor: the parts in $d do not decompress"; return 1; }
	fi
	if [ -f "$d/libcutensor.so.2.md5" ] && [ "$(md5sum <"$lib" | cut -d' ' -f1)" != "$(cat "$d/libcutensor.so.2.md5")" ]; then
		echo "cutensor: $lib does not match libcutensor.so.2.md5"; rm -f "$lib"; return 1
	fi
	export PTXPOSE_CUTENSOR=$lib
	python3 -B -c 'import sys; sys.path.insert(0, "bench"); import peers_cutensor as c
try:
    h = c.Handle(c.load_library())
except (OSError, c.CutensorError) as e:
    sys.exit(f"cutensor: {e}")
print("cutensor: libcutensor", h.version, "at", c.library_candidates()[0]); h.close()'
	echo "cutensor: rc=$?"
}

# The warp-collective study kernels (study=1: ptx/study_*, and the round-13
# candidates, built on the machine from bench/results/tuning/round13.lua):
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
stage_study() {
	log study kernels: verify
	rm -rf build/study && $px gen --out build/study bench/results/tuning/round13.lua >/dev/null || return 1
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

# Shared-memory bank conflicts, counted by the hardware, for every kernel
# with a shared stage, at 4096x4096 (every tile interior).
stage_ncu() {
	log ncu bank conflicts
	local m=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
	m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
	m=$m,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
	: >"$OUT/ncu.csv"
	for f in $(grep -l 'smem=plain\|smem=padded\|smem=swizzle' ptx/*.ptx); do
		k=$(basename "$f" .ptx)
		ncu --clock-control none --csv --metrics "$m" -k "$k" \
			$px run "$f" --rows 4096 --cols 4096 --no-time >"$OUT/ncu-$k.txt" 2>&1
		grep '"l1tex\|"smsp' "$OUT/ncu-$k.txt" >>"$OUT/ncu.csv"; echo "$k rc=$?"
	done
	tar -C "$OUT" -czf "$OUT/ncu-raw.tgz" $(cd "$OUT" && ls ncu-*.txt) && rm -f "$OUT"/ncu-*.txt
}

# N-d permutations and the kernels of issues 21 and 22 (ABI v3, row copies,
# flat batches): GPU checks of N-d shapes over every kernel, the library's
# plans of DL permutations and one over 2^31 elements, memcheck and
# racecheck of each new family, and the Python package's GPU tests.
ND_SHAPES="32x64x56x56:perm=0,2,3,1,256x256x256:perm=2,1,0,64x33x17:perm=2,0,1:offset=1,1024x1024x2:perm=1,0,2:elem=32,\
40x50x60:perm=2,1,0:strides_in=3100,61,1:strides_out=2600,52,1,8x512x16x64:perm=0,2,1,3,6x7x8x9x10:perm=4,2,0,3,1,\
3x5x7x2x3:perm=1,3,0,4,2:offset=1"
FLAT_SHAPES="3x3:batch=100000,8x8:batch=10000,16x16:batch=10000,32x32:batch=1000,64x64:batch=100,1x7:batch=1000,\
31x33:batch=5,3x3:batch=1000:offset=1,5x7:batch=40:offset=3"
stage_nd() {
	log N-d checks over every kernel
	$px check --shapes "$ND_SHAPES" ptx/*.ptx >"$OUT/check-nd.tap"; echo "rc=$?"
	grep -v '^ok' "$OUT/check-nd.tap" | head -10; grep -c '^ok' "$OUT/check-nd.tap"
	log flat kernels on tiny batches
	$px check --shapes "$FLAT_SHAPES" ptx/flat_*.ptx >"$OUT/check-flat.tap"; echo "rc=$?"
	PTXPOSE_GRID_MAX=7x1x1 $px check --shapes "$FLAT_SHAPES" ptx/flat_*.ptx >>"$OUT/check-flat.tap"; echo "capped rc=$?"
	grep -v '^ok' "$OUT/check-flat.tap" | head -10; grep -c '^ok' "$OUT/check-flat.tap"
	log the library\'s N-d plans
	for a in "--elem 16 --dims 32x64x56x56 --perm 0,2,3,1" "--elem 16 --dims 8x2048x16x128 --perm 0,2,1,3" \
		"--elem 32 --dims 256x256x256 --perm 2,1,0" "--elem 8 --dims 2x46341x23171 --perm 0,2,1" \
		"--elem 32 --dims 16x16x16x16x16 --perm 4,3,2,1,0"; do
		$px run $a 2>&1 | tail -1
	done
	log sanitizers on the new families
	san_runs "run ptx/flat_b32.ptx --rows 3 --cols 3 --batch 100000 --offset 1" "run ptx/flat_b8.ptx --rows 16 --cols 16 --batch 1000" \
		"run --elem 32 --dims 64x33x17x3 --perm 3,1,0,2 --offset 1" "run --elem 16 --dims 8x64x16x32 --perm 0,2,1,3" \
		"run ptx/rowcopy_nd_b32.ptx --dims 4x9x5x33 --perm 1,0,2,3 --offset 1"
	if [ -x build/tests/gpu_nd_unit ]; then
		compute-sanitizer --tool memcheck --error-exitcode 9 build/tests/gpu_nd_unit --small >"$OUT/san.log" 2>&1
		echo "memcheck gpu_nd_unit: rc=$? $(grep 'ERROR SUMMARY' "$OUT/san.log")"
	fi
	for tool in memcheck racecheck; do # the pack kernels (kernel ABI v4), through the loader
		[ -x build/tests/gpu_pack_unit ] || break
		compute-sanitizer --tool $tool --error-exitcode 9 build/tests/gpu_pack_unit >"$OUT/san.log" 2>&1
		echo "$tool gpu_pack_unit: rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san.log" | head -1)"
	done
	log Python on the GPU
	for t in tests/t1030-python-gpu.t tests/t1031-python-permute-gpu.t tests/t1040-python-overhead.t; do
		timeout 300 python3 "$t" >"$OUT/$(basename "$t" .t).tap" 2>&1
		echo "$t rc=$? ok=$(grep -c '^ok' "$OUT/$(basename "$t" .t).tap") $(grep -v '^ok' "$OUT/$(basename "$t" .t).tap" | grep -v '^#' | head -3)"
	done
	grep -h '^# ptxpose.transpose(x) \|^# torch: x.t().contiguous\|^# C: execute ' "$OUT/t1040-python-overhead.tap"
}

# Issue 22's targets (bench/targets.py): the sets small, tiny, skinny,
# skinny-mid and large with every kernel ($OUT/targets.json), then the
# never-fitted holdout set, --quick ($OUT/holdout.json); each run resumes
# where an earlier call on this machine stopped (OUT on a kept folder, e.g.
# OUT=/tmp/p22), within $T22 seconds a call (default 560); then the targets.
# Run `cutensor` first for the cuTENSOR peer.
stage_issue22() {
	log "issue 22's targets"
	local t0=$SECONDS budget=${T22:-560} left files=
	[ "$budget" -ge 10 ] 2>/dev/null || budget=10 # timeout 0 would mean no limit
	peers_to "$OUT/targets.json" $((budget * 2 / 3)) --set small --set tiny --set skinny --set skinny-mid \
		--set large --ptx 'ptx/*.ptx' --replays 15 --target-ms 0.5
	left=$((budget - (SECONDS - t0)))
	peers_to "$OUT/holdout.json" $left --set holdout --ptx 'ptx/*.ptx' --quick
	for f in targets holdout; do
		[ -f "$OUT/$f.json" ] && python3 -B bench/pick.py --ptxpose $px "$OUT/$f.json" >/dev/null && files="$files $OUT/$f.json"
	done
	[ -n "$files" ] && python3 -B bench/targets.py --pick $files 2>&1 | tail -8
}

# Tuning round 14 (issue 22 items 1 and 4; bench/TUNING.md, "Round 14"): the
# candidates of results/tuning/round14.lua, generated here into build/round14,
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
# whatever exists, $OUT/r14-summary.md (bench/round_summary.py), r14-small.json,
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
stage_round14() {
	local w=${R14_WORK:-/tmp/ptxpose-r14-$(built_commit)} t0 left rc k f m spec cfg best cand arch bits
	mkdir -p "$w/ncu" "$w/sass"
	# the package's library: the build folder's, or the carried file where its link was not carried
	[ -e build/libptxpose.so.0.3 ] || export PTXPOSE_LIB=$PWD/build/libptxpose.so.0.3.0
	log round 14: candidates
	rm -rf build/round14 && $px gen --out build/round14 bench/results/tuning/round14.lua >/dev/null || return 1
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
	top=$(python3 -B bench/round_summary.py --top 3 --case 16384x16384:u8 --prefix r14l_ "$w/large.json" 2>/dev/null)
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
		cfg=$(python3 -B bench/round_summary.py --triton-config "$spec" "$w/small.json" 2>/dev/null)
		best=$(python3 -B bench/round_summary.py --top 1 --case "$spec" "$w/small.json" 2>/dev/null)
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
		cand=$(python3 -B bench/round_summary.py --top 1 --case "$spec" --prefix r14s_ "$w/small.json" 2>/dev/null)
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
	python3 -B bench/round_summary.py --title "Round 14 (issue 22 items 1 and 4)" --prefix r14s_ --prefix r14l_ \
		"${args[@]}" --out "$OUT/r14-summary.md"
	echo "summary: rc=$? $OUT/r14-summary.md"
	tar -C "$w" --exclude='*.json' --exclude='*.cubin' -czf "$OUT/r14-raw.tgz" .
}

# Issue 22 item 3 (skinny 1- and 2-byte elements, K 9 to 64): the kernels
# it added (scripts/variants.lua: the _g<granules> ones the plans rank and
# the tall packed study ones; SK14_CAND=1 adds the candidates of
# bench/results/tuning/skinny14.lua, built on the machine): GPU checks on
# skinny, odd, batched and misaligned shapes (and with the grid capped; the
# default shapes too), memcheck and racecheck of them all, then the skinny
# and skinny-mid sets' 1- and 2-byte cases with K 9 to 64, the direction's
# kmax 8 to 64 skinny kernels, the narrow or fast kernels that won some of
# them, and the peers timed by name ($OUT/skinny14.json, resumable within
# $T14 seconds, default 120; the table: bench/skinny14.py). About 3 minutes.
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
# then bench/skinny14.py's table
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
	[ -f "$out" ] && python3 -B bench/skinny14.py "$out" | tee "${out%.json}.md" | tail -6
}

# sk_round TAG NEW CAND PREFIX SECONDS: a skinny round, the committed
# kernels NEW and (CAND=1) the candidates of bench/results/tuning/TAG.lua,
# built on the machine (named PREFIX_<dir>_...): sk_checks, then sk_time's
# cases into $OUT/TAG.json within SECONDS
sk_round() {
	local tag=$1 new=$2 want=$3 prefix=$4 secs=$5 cand= t0=$SECONDS
	if [ "$want" = 1 ]; then
		rm -rf "build/$tag" && $px gen --out "build/$tag" "bench/results/tuning/$tag.lua" >/dev/null || return 1
		cand=$(ls "build/$tag"/*.ptx)
	fi
	sk_checks "$tag" "$new" "$cand"
	log "$tag: timing ($((SECONDS - t0)) s so far)"
	if [ -n "$cand" ]; then sk_time "$OUT/$tag.json" "$secs" "build/$tag/${prefix}_DIR_*"
	else sk_time "$OUT/$tag.json" "$secs"; fi
}

stage_skinny14() {
	sk_round skinny14 "$(ls ptx/skinny_*_g[0-9]*_b*.ptx ptx/skinny_*_pack_b*.ptx)" "${SK14_CAND:-0}" c14 "${T14:-120}"
}

# Issue 22 item 3's register kernels (skinny_*_reg_*, gen/tp_skinny_reg.c:
# no shared memory; REG_CAND=1 adds the candidates of
# bench/results/tuning/skinnyreg.lua): the checks of skinny14 on them (the
# racecheck too, though they share nothing), then sk_time's cases beside
# every committed skinny kernel and the peers ($OUT/skinnyreg.json,
# resumable within $TREG seconds, default 120; the table's reg columns).
# About 3 minutes.
stage_skinnyreg() {
	sk_round skinnyreg "$(ls ptx/skinny_*_reg_b*.ptx)" "${REG_CAND:-0}" creg "${TREG:-120}"
}

# The gathering flat kernels (flat_g*, gen/tp_flat_gather.c: registers
# only, no shared memory). tinyg-check: checks on tiny packed batches (odd
# shapes, a partial last chunk, pointers off by one and two elements,
# padded sides: the element path, one matrix past a chunk), with the grid
# capped too (a block walks chunks); memcheck and racecheck over the same.
# tinyg: the tiny set timed with every flat kernel and naive_1d_* and no
# peers ($OUT/tiny-gather.json, resumable: OUT on a kept folder, within
# $TTINY seconds a call, default 150: the 83 cases took 16 s at 7f16a53),
# as tiny-flat.json was, then bench/tiny_gather.py's per-width summary
# ($OUT/tiny-gather.md; bench/TUNING.md, issue 22 item 2).
TINYG_SHAPES="3x3:batch=1000,8x8:batch=10000,16x16:batch=3001,7x5:batch=333,3x3:batch=1000:offset=1,\
5x7:batch=77:offset=2,1x7:batch=1000,32x32:batch=100:offset=3,8x8:batch=20:ld_in=9:stride_in=80,\
8x8:batch=20:ld_out=10:stride_out=90,31x33:batch=5,1x1,1x1:batch=3000"
stage_tinyg_check() {
	local tool
	log "gathering flat kernels: checks"
	$px check --shapes "$TINYG_SHAPES" ptx/flat_g*.ptx >"$OUT/check-flat-g.tap"; echo "rc=$?"
	PTXPOSE_GRID_MAX=7x1x1 $px check --shapes "$TINYG_SHAPES" ptx/flat_g*.ptx >>"$OUT/check-flat-g.tap"
	echo "capped rc=$?"
	grep -v '^ok' "$OUT/check-flat-g.tap" | head -10; grep -c '^ok' "$OUT/check-flat-g.tap"
	log "gathering flat kernels: compute-sanitizer"
	for tool in memcheck racecheck; do
		compute-sanitizer --tool $tool --error-exitcode 9 $px check --shapes "$TINYG_SHAPES" ptx/flat_g*.ptx \
			>"$OUT/san-$tool-flat-g.log" 2>&1
		echo "$tool flat_g*: rc=$? ok=$(grep -c '^ok' "$OUT/san-$tool-flat-g.log")" \
			"$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$tool-flat-g.log" | head -1)"
	done
}

stage_tinyg() {
	log "the tiny set: flat_*, flat_s_*, flat_g*, naive_1d_*"
	peers_to "$OUT/tiny-gather.json" "${TTINY:-150}" --set tiny --ptx 'ptx/flat*.ptx' --ptx 'ptx/naive_1d*.ptx' \
		--no-peers --replays 15 --target-ms 0.5
	[ -f "$OUT/tiny-gather.json" ] && python3 -B bench/tiny_gather.py "$OUT/tiny-gather.json" >"$OUT/tiny-gather.md" &&
		cat "$OUT/tiny-gather.md"
}

for s in "$@"; do
	case "$s" in
	shapes-san) stage_shapes_san ;;
	tinyg-check) stage_tinyg_check ;;
	stage-examples) stage_stage_examples ;;
	sanitize) stage_sanitize ${SAN_FILES:-ptx/cute_vec_swizzle_b32.ptx ptx/cute_vec_swizzle_b64.ptx} ;;
	*) "stage_$s" ;;
	esac
done 2>&1 | tee -a "$OUT/session.log"
