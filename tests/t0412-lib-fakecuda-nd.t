#!/bin/sh
# Kernel ABI v3 through the library on the fake driver (tests/fakecuda, which
# reads the bdims records as the kernels do): N-d descs of several batch
# dims planned with every built-in abi=3 kernel by name and by the heuristic
# plan, executed, and compared with the loops' reference
# (tests/unit/gpu_nd_unit.c --small; on a GPU, t0530 runs it for real).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
[ -x build/tests/gpu_nd_unit ] && [ -e build/fakecuda/libcuda.so.1 ] || { nok "not built: run ninja"; finish; }
PTXPOSE_LIBCUDA=build/fakecuda/libcuda.so.1 exec timeout 60 build/tests/gpu_nd_unit --small
