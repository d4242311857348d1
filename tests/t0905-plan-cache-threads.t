#!/bin/sh
# The cache under concurrent writer and reader threads: plainly, under
# ASan/UBSan and under ThreadSanitizer (build/tsan/, its own build line).
exec "$(dirname "$0")/lib/unit.sh" cache_threads tsan
