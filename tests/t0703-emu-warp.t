#!/bin/sh
# The warp-synchronous instructions (shfl.sync, vote.sync, activemask,
# bar.warp.sync, ldmatrix, stmatrix, movmatrix) on hand-written PTX against
# naive references, their checks, and planted bugs (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" emu_warp
