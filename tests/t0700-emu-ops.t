#!/bin/sh
# The emulator's instructions on hand-written PTX: widths, wrap-around, shifts,
# setp/selp, prmt, bit fields, conversions, vectors, divergent branches.
exec "$(dirname "$0")/lib/unit.sh" emu_ops
