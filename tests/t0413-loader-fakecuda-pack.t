#!/bin/sh
# Kernel ABI v4 launches against the fake driver (tests/fakecuda moves the
# tiles per tdims as the pack kernels do, each element's range checked):
# every committed pack kernel JIT-loaded and launched through the loader on
# tests/unit/pack_case.h's cases, compared with the loops' reference
# (tests/unit/gpu_pack_unit.c; on a GPU, t0531 runs it for real).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
[ -x build/tests/gpu_pack_unit ] && [ -e build/fakecuda/libcuda.so.1 ] || { nok "not built: run ninja"; finish; }
PTXPOSE_LIBCUDA=build/fakecuda/libcuda.so.1 exec timeout 60 build/tests/gpu_pack_unit
