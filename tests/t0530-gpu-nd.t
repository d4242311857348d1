#!/bin/sh
# On a CUDA GPU: kernel ABI v3 through the loader (tests/unit/gpu_nd_unit.c):
# every committed abi=3 kernel launched with several batch dimensions
# (strides with gaps, permuted between the sides, pointers off alignment,
# capped and full grids, up to 48 matrices of 1000x1008), bit-exact against
# a reference computed by loops; a v2 kernel launched by the same call.
# Without a device: `1..0 # SKIP no CUDA device`.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
PX=${PTXPOSE:-build/ptxpose}
need_ptxpose
need_gpu
# the plain build: ASan's shadow memory and the CUDA driver do not mix
exec timeout 300 build/tests/gpu_nd_unit
