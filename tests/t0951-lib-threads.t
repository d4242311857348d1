#!/bin/sh
# The library under threads (tests/unit/api_threads.c, the fake driver):
# plans, executions of one plan from every thread on their own streams,
# ptxpose_transpose's cache and registrations at once; plainly, under
# ASan/UBSan and under ThreadSanitizer (build/tsan/, its own build line).
unset PTXPOSE_LIBCUDA PTXPOSE_PTX FAKECUDA_FAIL
exec "$(dirname "$0")/lib/unit.sh" api_threads tsan
