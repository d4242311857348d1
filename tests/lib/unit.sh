#!/bin/sh
# Run a C unit test (tests/unit/NAME.c), plainly and under ASan/UBSan (and,
# with `unit.sh NAME tsan`, under ThreadSanitizer: build/tsan/), a TAP line
# each; its own TAP goes into the diagnostics when it fails.
cd "$(dirname "$0")/../.." || exit 1
set -- "$1" "build/tests/$1" "build/asan/tests/$1" ${2:+"build/tsan/tests/$1"}
echo "1..$(($# - 1))"
shift
for b; do
	if out=$(TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$b" 2>&1); then
		echo "ok - $b ($(echo "$out" | grep -c '^ok') checks)"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok - $b"
	fi
done
