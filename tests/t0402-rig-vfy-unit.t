#!/bin/sh
# Verification on the host: the random stream, the poison, the reference
# transpose, the bit-exact comparison and its report (C unit tests); the
# threaded fill and compare (common/pool.c) also under ThreadSanitizer.
exec "$(dirname "$0")/lib/unit.sh" vfy_unit tsan
