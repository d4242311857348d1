#!/bin/sh
# The cache under concurrent writer and reader threads: plainly, under
# ASan/UBSan and under ThreadSanitizer (build/tsan/, its own build line).
cd "$(dirname "$0")/.." || exit 1
echo "1..3"
for b in build/tests/cache_threads build/asan/tests/cache_threads build/tsan/tests/cache_threads; do
	if out=$(TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$b" 2>&1); then
		echo "ok - $b ($(echo "$out" | grep -c '^ok') checks)"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok - $b"
	fi
done
