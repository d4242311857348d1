#!/bin/sh
# The PTX builder, the generator's validation and the bank model, in C,
# built plainly and under ASan/UBSan.
cd "$(dirname "$0")/.." || exit 1
echo "1..2"
for b in build/tests/gen_unit build/asan/tests/gen_unit; do
	if out=$("$b" 2>&1); then
		echo "ok - $b ($(echo "$out" | grep -c '^ok') checks)"
	else
		echo "$out" | sed 's/^/# /'
		echo "not ok - $b"
	fi
done
