#!/bin/sh
# Run a C unit test (tests/unit/NAME.c), plainly and under ASan/UBSan, as two
# TAP lines; its own TAP goes into the diagnostics when it fails.
cd "$(dirname "$0")/../.." || exit 1
echo "1..2"
for b in "build/tests/$1" "build/asan/tests/$1"; do
	if out=$("$b" 2>&1); then
		echo "ok - $b ($(echo "$out" | grep -c '^ok') checks)"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok - $b"
	fi
done
