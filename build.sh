#!/bin/sh
# ptxpose on a fresh Debian machine.
#
#   ./build.sh          the main job: install what is missing, build, generate
#                       every variant into ptx/, assemble and summarize them;
#                       on a machine with a CUDA GPU also verify and time them.
#   ./build.sh test     install what is missing, build, run the TAP tests.
#
# Each step is idempotent: run it as often as you like.
set -eu
cd "$(dirname "$0")"

say() { printf '== %s\n' "$*" >&2; }

as_root() {
	if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Debian packages: Lua 5.4 (static library and headers), ninja, prove, a C compiler.
deps_apt() {
	missing=""
	[ -f /usr/include/lua5.4/lua.h ] && [ -f /usr/lib/x86_64-linux-gnu/liblua5.4.a ] || missing="$missing liblua5.4-dev"
	command -v ninja >/dev/null 2>&1 || missing="$missing ninja-build"
	command -v prove >/dev/null 2>&1 || missing="$missing perl"
	command -v cc >/dev/null 2>&1 || missing="$missing gcc"
	command -v python3 >/dev/null 2>&1 || missing="$missing python3"
	python3 -m pip --version >/dev/null 2>&1 || missing="$missing python3-pip"
	if [ -n "$missing" ]; then
		say "installing:$missing"
		as_root apt-get update -qq
		DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq $missing >/dev/null
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

build() {
	deps_apt
	deps_cuda
	deps_cuobjdump
	ninja
}

case "${1:-main}" in
main)
	build
	say "generating ptx/ from scripts/variants.lua"
	build/ptxpose gen scripts/variants.lua
	say "assembling and summarizing every variant"
	build/ptxpose list ptx
	if build/ptxpose check --shapes 1x1 ptx/naive_1d_b32.ptx >/dev/null 2>&1; then
		say "CUDA device found: verifying every variant on the odd shapes, then timing"
		build/ptxpose check ptx/*.ptx
		build/ptxpose bench
	else
		say "no CUDA device here: verifying every variant on small shapes in the emulator"
		build/ptxpose check --emulate ptx/*.ptx
	fi
	;;
test)
	build
	# in parallel, the slowest first once build/prove-state has their times
	prove -j"$(nproc)" --state=slow,save --statefile=build/prove-state tests/
	;;
*)
	echo "usage: ./build.sh [main|test]" >&2
	exit 2
	;;
esac
