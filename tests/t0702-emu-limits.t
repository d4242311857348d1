#!/bin/sh
# The emulator on hostile input: the launch's instruction and barrier budget,
# immediates out of range, and the limits on a program's size, reached in
# linear time (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" emu_limits
