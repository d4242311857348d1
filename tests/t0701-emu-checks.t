#!/bin/sh
# The emulator's checks on planted bugs (out of bounds, misalignment, races,
# barrier divergence, endless loops) and its refusal of PTX outside the subset.
exec "$(dirname "$0")/lib/unit.sh" emu_checks
