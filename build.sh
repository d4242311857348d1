#!/bin/sh
# ptxpose on a fresh Debian machine.
#
#   ./build.sh          the main job: install what is missing, build, generate
#                       every variant into ptx/, assemble and summarize them;
#                       on a machine with a CUDA GPU also verify and time them.
#   ./build.sh test     install what is missing, build, run the TAP tests.
#   ./build.sh install  build, then install (build-aux/install.sh) into PREFIX
#                       (default /usr/local), staged under DESTDIR if set:
#                       bin/ptxpose, lib/libptxpose.{a,so*}, include/ptxpose.h,
#                       lib/pkgconfig/ptxpose.pc, lib/cmake/ptxpose/ (the
#                       CMake package), share/doc/ptxpose/.
#   ./build.sh wheel    the Python wheel (python/wheelbuild.py) with
#                       libptxpose.so inside, into build/wheel/: builds the
#                       library alone (ninja lib), not the tools or the tests.
#   ./build.sh fuzz [SECONDS]
#                       install clang and libFuzzer where missing, build the
#                       fuzz targets (fuzz/fuzz_*.c) and run each for SECONDS
#                       (default 20; one a processor at a time) on a copy of
#                       its seed corpus; fails on a
#                       crash, a leak, a sanitizer report or an input that
#                       takes more than 10 s.
#
# Each step is idempotent: run it as often as you like.
set -eu
cd "$(dirname "$0")"

say() { printf '== %s\n' "$*" >&2; }

# apt-get as root, waiting (up to 10 minutes) for the lock another package
# manager may hold rather than failing at once.
apt_get() {
	say "apt-get $1 (waits up to 10 minutes if another package manager holds the apt lock)"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -qq "$@" >/dev/null
}

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Debian packages: Lua 5.4 (static library and headers), ninja, prove, a C
# compiler, a C++ compiler, pkg-config and cmake (the tests build examples/
# against a staged install with both).
deps_apt() {
	missing=""
	[ -f /usr/include/lua5.4/lua.h ] && [ -f /usr/lib/x86_64-linux-gnu/liblua5.4.a ] || missing="$missing liblua5.4-dev"
	command -v ninja >/dev/null 2>&1 || missing="$missing ninja-build"
	command -v prove >/dev/null 2>&1 || missing="$missing perl"
	command -v cc >/dev/null 2>&1 || missing="$missing gcc"
	command -v c++ >/dev/null 2>&1 || missing="$missing g++"
	command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
	command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
	command -v python3 >/dev/null 2>&1 || missing="$missing python3"
	python3 -m pip --version >/dev/null 2>&1 || missing="$missing python3-pip"
	if [ -n "$missing" ]; then
		say "installing:$missing"
		apt_get update
		apt_get install -y $missing
	fi
}

# The CUDA toolkit's ptxas and headers are expected in /usr/local/cuda.
deps_cuda() {
	if [ ! -x /usr/local/cuda/bin/ptxas ] || [ ! -f /usr/local/cuda/include/cuda.h ]; then
		echo "build.sh: the CUDA toolkit (ptxas, cuda.h) is missing from /usr/local/cuda;" \
			"install NVIDIA's cuda-toolkit package" >&2
		exit 1
	fi
}

# cuobjdump (which runs nvdisasm for SASS): the toolkit's if it has them,
# else PyPI's nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm in .deps/.
deps_cuobjdump() {
	if { command -v cuobjdump || [ -x /usr/local/cuda/bin/cuobjdump ]; } >/dev/null 2>&1 &&
		{ command -v nvdisasm || [ -x /usr/local/cuda/bin/nvdisasm ]; } >/dev/null 2>&1; then
		return
	fi
	if ls .deps/nvidia/*/bin/cuobjdump >/dev/null 2>&1 && ls .deps/nvidia/*/bin/nvdisasm >/dev/null 2>&1; then
		return
	fi
	say "installing nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm into .deps/"
	python3 -m pip install -q --disable-pip-version-check --target .deps \
		nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
}

# jax and jaxlib (CPU wheels) in .deps/py: jaxlib's XLA FFI headers build ptxpose.jax's handler
# (build/libptxpose_xla.so), and the tests trace jitted programs with them. Where a jax is
# installed already, only its headers are looked for.
deps_jax() {
	[ -f .deps/py/jaxlib/include/xla/ffi/api/ffi.h ] && return
	command -v python3 >/dev/null 2>&1 || return 0 # deps_apt installs it; without it nothing here runs
	say "installing jax and jaxlib (CPU) into .deps/py"
	python3 -m pip install -q --disable-pip-version-check --target .deps/py jax jaxlib
}

# clang with libFuzzer's runtime (Debian: clang and the libclang-rt-N-dev of
# its version N).
deps_fuzz() {
	if ! command -v clang >/dev/null 2>&1; then
		say "installing: clang"
		apt_get update
		apt_get install -y clang
	fi
	if [ ! -f "$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a)" ]; then
		v=$(clang -dumpversion | cut -d. -f1)
		say "installing: libclang-rt-$v-dev"
		apt_get update
		apt_get install -y "libclang-rt-$v-dev"
	fi
}

# fuzz_one NAME SECONDS: one target on a fresh copy of its corpus; one line.
fuzz_one() {
	name=$1 secs=$2 dir=build/fuzz/run/$1
	rm -rf "$dir"
	mkdir -p "$dir/corpus" "$dir/artifacts"
	[ -d "fuzz/corpus/$name" ] && cp -R "fuzz/corpus/$name/." "$dir/corpus/"
	seeds=$(ls "$dir/corpus" | wc -l)
	PTXPOSE_CACHE=$PWD/build/fuzz/cache ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		"build/fuzz/$name" -max_total_time="$secs" -timeout=10 -detect_leaks=1 -print_final_stats=1 \
		-artifact_prefix="$dir/artifacts/" "$dir/corpus" >"$dir/log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
	if [ "$rc" -eq 0 ] && [ -z "$(ls "$dir/artifacts")" ]; then
		printf 'fuzz %s: ok, %s runs in %s s, corpus %s -> %s inputs\n' "$name" "${runs:-?}" "$secs" "$seeds" \
			"$(ls "$dir/corpus" | wc -l)"
		return 0
	fi
	why=$(grep -m1 -oE '(ERROR: (libFuzzer|[A-Za-z]+Sanitizer)|runtime error): .*' "$dir/log" | cut -c1-72)
	printf 'fuzz %s: FAILED (%s, exit %s): input %s, log %s\n' "$name" "${why:-see the log}" "$rc" \
		"$(ls "$dir/artifacts"/* 2>/dev/null | head -1)" "$dir/log"
	return 1
}

# build TARGET...: what is missing installed, then TARGET built.
build() {
	deps_apt
	deps_cuda
	deps_cuobjdump
	case " $* " in *" all "*) deps_jax ;; esac
	sh build-aux/ninja.sh "$@"
}

# gen_quiet: ptx/ from scripts/variants.lua, the files it wrote named, those
# left alone counted.
gen_quiet() {
	build/ptxpose gen scripts/variants.lua >build/gen.log || { rc=$?; cat build/gen.log; return $rc; }
	grep -v '^unchanged ' build/gen.log || true
	u=$(grep -c '^unchanged ' build/gen.log) || true
	[ "${u:-0}" -eq 0 ] || say "$u files of ptx/ unchanged"
}

# check_summary TAP EXIT: the failures of a check run, then its counts.
check_summary() {
	ok=$(grep -c '^ok ' "$1") || true
	skip=$(grep -c '^ok .*# SKIP' "$1") || true
	bad=$(grep -c '^not ok ' "$1") || true
	if [ "$bad" -gt 0 ] || [ "$2" -ne 0 ]; then
		grep -A3 '^not ok ' "$1" | head -40 >&2
		say "check failed (exit $2): the whole TAP is in $1"
	fi
	printf '%s ok, %s failed' "$((ok - skip))" "$bad"
	[ "$skip" -eq 0 ] || printf ', %s skipped' "$skip"
}

case "${1:-main}" in
main)
	build main
	say "generating ptx/ from scripts/variants.lua"
	gen_quiet
	n=$(ls ptx/*.ptx | wc -l)
	say "assembling and summarizing the $n kernels (ptxas and cuobjdump)"
	build/ptxpose list ptx
	tap=build/check.tap
	if build/ptxpose check --shapes 1x1 ptx/naive_1d_b32.ptx >/dev/null 2>&1; then
		say "CUDA device found: verifying every kernel on the odd shapes (TAP in $tap)"
		rc=0
		build/ptxpose check ptx/*.ptx >"$tap" || rc=$?
		counts=$(check_summary "$tap" "$rc")
		[ "$rc" -eq 0 ] || { echo "$n kernels generated, assembled, verified on the GPU: $counts"; exit "$rc"; }
		say "timing every kernel (ptxpose bench)"
		build/ptxpose bench
		echo "$n kernels generated, assembled, verified and timed on the GPU: $counts"
	else
		say "no CUDA device here: verifying every kernel on small shapes in the emulator (TAP in $tap)"
		rc=0
		build/ptxpose check --emulate ptx/*.ptx >"$tap" || rc=$?
		echo "$n kernels generated, assembled, emulated: $(check_summary "$tap" "$rc");" \
			"no GPU: run on a GPU machine to verify and time them"
		exit "$rc"
	fi
	;;
install)
	build main lib
	sh build-aux/install.sh
	;;
wheel)
	# what the wheel holds: the library (wheelbuild.py builds it), the package
	deps_apt
	deps_cuda
	python3 python/wheelbuild.py --out build/wheel
	;;
test)
	build all
	ninja test
	;;
fuzz)
	secs=${2:-20}
	case "$secs" in '' | *[!0-9]*)
		echo "usage: ./build.sh fuzz [SECONDS]" >&2
		exit 2
		;;
	esac
	build main
	deps_fuzz
	sh build-aux/ninja.sh fuzz
	# as many targets at a time as there are processors, each line printed in
	# the targets' order once its batch ends
	jobs=$(nproc 2>/dev/null || echo 1)
	failed=0 batch=""
	run_batch() {
		for n in $batch; do
			fuzz_one "$n" "$secs" >"build/fuzz/run/$n.line" 2>&1 &
		done
		wait
		for n in $batch; do
			cat "build/fuzz/run/$n.line"
			grep -q ': ok,' "build/fuzz/run/$n.line" || failed=1
		done
		batch=""
	}
	mkdir -p build/fuzz/run
	for f in fuzz/fuzz_*.c; do
		n=${f#fuzz/fuzz_}
		batch="$batch ${n%.c}"
		[ "$(echo $batch | wc -w)" -ge "$jobs" ] && run_batch
	done
	[ -n "$batch" ] && run_batch
	exit $failed
	;;
*)
	echo "usage: ./build.sh [main|test|install|wheel|fuzz [SECONDS]]" >&2
	exit 2
	;;
esac
