#!/bin/sh
# Kernel ABI v3's batch records (loader/abi.h): the multiply-and-shift decode
# exact for every matrix index below 2^31 (exhaustively on small extents,
# at the edges up to 2^31-1), abi_bdims_fill's records and refusals, the
# parameter lists as PTX and as text (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" abi_unit
