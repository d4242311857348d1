#!/bin/sh
# Instructions per byte (inspect/ipb.c): the figure from counts and a tile,
# the tile of a kernel's metadata (tile, linear, small-dimension), the flags'
# tile for PTX without metadata, and the closing BRA to itself left out.
exec "$(dirname "$0")/lib/unit.sh" ins_ipb
