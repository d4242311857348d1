#!/bin/sh
# Every committed kernel, emulated on `check --emulate`'s default shapes (the
# one list of them, EMU_SHAPES in cli/cmd_check.c, printed by
# `ptxpose check --help`) and bit-exact, in the ASan/UBSan build so the
# emulator itself is checked too.
cd "$(dirname "$0")/.." || exit 1
exec tests/lib/emu_check.sh build/asan/ptxpose
