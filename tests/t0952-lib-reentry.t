#!/bin/sh
# The library called back from its log callback (the same handle planned,
# executed and destroyed there, from one thread and several), handles and
# plans used after destroy whatever came between, and pointer spans that wrap
# the address space (tests/unit/api_reentry.c, the fake driver): plainly,
# under ASan/UBSan and under ThreadSanitizer. A deadlock is a failure: the
# whole run has 120 s.
unset PTXPOSE_LIBCUDA PTXPOSE_PTX FAKECUDA_FAIL
exec timeout 120 "$(dirname "$0")/lib/unit.sh" api_reentry tsan
