#!/bin/sh
# Kernel ABI v2's grid: meta_grid_dims at 65535/65536 tile rows and matrices
# and 2^31-1, PTXPOSE_GRID_MAX; generated kernels emulated on grids smaller
# and larger than their tiles (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" grid_unit
