#!/bin/sh
# On a CUDA GPU: kernel ABI v4 through the loader (tests/unit/gpu_pack_unit.c):
# every committed pack kernel (ptx/pack_*) launched on hand-worked N-d
# permutations (1 to 6 tile dims, 0 to 2 split dims with partial last tiles,
# a tile at the kernel's capacity, pointers off alignment, capped grids),
# bit-exact against a reference computed by loops, poison included.
# Without a device: `1..0 # SKIP no CUDA device`.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
PX=${PTXPOSE:-build/ptxpose}
need_ptxpose
need_gpu
# the plain build: ASan's shadow memory and the CUDA driver do not mix
exec timeout 300 build/tests/gpu_pack_unit
