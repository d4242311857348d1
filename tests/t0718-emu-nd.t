#!/bin/sh
# Kernel ABI v3 in the emulator: every committed abi=3 kernel and v3 kernels
# of the other families on the walk (skinny, study, registers-only tile),
# with 2 to 6 batch dimensions of extents 1, 2, 3 and 5, strides with gaps in
# different orders on the two sides, pointers off alignment and capped grids,
# bit-exact against a reference computed by loops; a v2 kernel refuses
# several dimensions, the linear family abi=3 (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" emu_nd_unit
