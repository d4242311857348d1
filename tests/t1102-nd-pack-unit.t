#!/bin/sh
# The pack kernels' tile of an N-d transpose (lib/nd_pack.h): hand-worked
# tiles, the refusals, and the tiles' walk as kernel ABI v4 states it against
# a naive permutation (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" pack_unit
