#!/bin/bash
# One call on a lent GPU machine: build here, carry build/ptxpose (and
# build/tune), then run stages there, logging under $OUT.
#
#   bash bench/gpu-session.sh STAGE...
#
# Stages: info, verify (GPU tests + odd shapes, standard and tuning sets),
# sanitize (compute-sanitizer memcheck and racecheck at 4097x4095), shapes-san
# (memcheck of every kernel and racecheck of the small-dimension family,
# one kernel a width and the small-grid tiles, on skinny, batched and misaligned shapes), lib (the
# examples, built by `bash bench/gpu-session.sh stage-examples` here, and
# bench/overhead, each under compute-sanitizer too), std (the
# standard set's benchmark), tune (tuning candidates on the deciding shapes),
# peers (ptx/ side by side with PyTorch, CuPy, cuBLAS, Triton and cuTENSOR:
# bench/peers.py, see bench/README.md), cutensor (puts cuTENSOR's library
# together from its parts and exports $PTXPOSE_CUTENSOR for the stages after
# it: run `cutensor peers`), ncu (bank-conflict counters), pack (the pack
# family: checks, sanitizers, timed against the 2-D reduction), nd (N-d checks, the new
# families under compute-sanitizer, the Python GPU tests), sets (the named
# sets small, tiny, skinny, skinny-mid, large and the holdout with every
# kernel, resumable; judged by bench/judge.py), tinyg-check (the gathering
# flat kernels flat_g*: checks, memcheck and racecheck on tiny odd and
# misaligned batches), pycompile (the Python package in torch.compile,
# autograd, CUDA graphs and JAX jit: tests t1018, t1019, t1035). The experiments' stages are lab/gpu-session.sh's; it
# sources this file for the helpers (sourced, this file runs no stage).
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
# kernels (one a width; every kernel walks batches) and the small-grid and
# grouped byte tiles (fast_s*, fast_v8_g8_b8), and the library's plans (run --elem).
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

# The standard case list: every width at each shape (32768^2 for bytes too).
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
# python3 bench/report.py --out /tmp/report $OUT/peers.json
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

# N-d permutations and the row-copy and flat families (ABI v3, row copies,
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

# ptxpose in compiled programs: the torch operators (t1018: registration, fake implementations;
# t1035: torch.compile, autograd, CUDA graphs, JAX jit/vmap/grad, host overhead) and the JAX
# lowering (t1019, which needs build/libptxpose_xla.so carried), their TAP under $OUT; the
# figures' table last.
stage_pycompile() {
	log Python: torch.compile, autograd, CUDA graphs, JAX
	for t in tests/t1018-python-torch-ops.t tests/t1019-python-jax-jit.t tests/t1035-python-compile-gpu.t; do
		timeout 400 python3 "$t" >"$OUT/$(basename "$t" .t).tap" 2>&1
		echo "$t rc=$? ok=$(grep -c '^ok' "$OUT/$(basename "$t" .t).tap") $(grep '^not ok' "$OUT/$(basename "$t" .t).tap" | head -3)"
	done
	grep -h '^# ' "$OUT/t1035-python-compile-gpu.tap" | tail -7
}

# The named sets (bench/peers_cases.py) that bench/judge.py judges the plan's
# picks on: small, tiny, skinny, skinny-mid and large with every kernel
# ($OUT/targets.json), then the never-fitted holdout set, --quick
# ($OUT/holdout.json); each run resumes where an earlier call on this machine
# stopped (OUT on a kept folder, e.g. OUT=/tmp/sets), within $T_SETS seconds
# a call (default 560); then the judge's table. Run `cutensor` first for the
# cuTENSOR peer.
stage_sets() {
	log "the named sets and the holdout"
	local t0=$SECONDS budget=${T_SETS:-560} left files=
	[ "$budget" -ge 10 ] 2>/dev/null || budget=10 # timeout 0 would mean no limit
	peers_to "$OUT/targets.json" $((budget * 2 / 3)) --set small --set tiny --set skinny --set skinny-mid \
		--set large --ptx 'ptx/*.ptx' --replays 15 --target-ms 0.5
	left=$((budget - (SECONDS - t0)))
	peers_to "$OUT/holdout.json" $left --set holdout --ptx 'ptx/*.ptx' --quick
	for f in targets holdout; do
		[ -f "$OUT/$f.json" ] && python3 -B bench/pick.py --ptxpose $px "$OUT/$f.json" >/dev/null && files="$files $OUT/$f.json"
	done
	[ -n "$files" ] && python3 -B bench/judge.py --pick $files 2>&1 | tail -8
}

# The gathering flat kernels (flat_g*, gen/tp_flat_gather.c: registers
# only, no shared memory): checks on tiny packed batches (odd
# shapes, a partial last chunk, pointers off by one and two elements,
# padded sides: the element path, one matrix past a chunk), with the grid
# capped too (a block walks chunks); memcheck and racecheck over the same.
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

# run_stages STAGE...: each stage in turn (a name's dashes are its function's
# underscores: shapes-san is stage_shapes_san), all logged to $OUT/session.log
run_stages() {
	local s
	for s in "$@"; do
		case "$s" in
		sanitize) stage_sanitize ${SAN_FILES:-ptx/cute_vec_swizzle_b32.ptx ptx/cute_vec_swizzle_b64.ptx} ;;
		*) if declare -F "stage_${s//-/_}" >/dev/null; then "stage_${s//-/_}"; else echo "no stage '$s'"; fi ;;
		esac
	done 2>&1 | tee -a "$OUT/session.log"
}

[ "${BASH_SOURCE[0]}" = "$0" ] && run_stages "$@"
