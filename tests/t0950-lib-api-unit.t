#!/bin/sh
# The library's public API (include/ptxpose.h) against the fake driver, and
# without any driver: tests/unit/api_unit.c, plainly and under ASan/UBSan.
cd "$(dirname "$0")/.." || exit 1
echo "1..4"
unset PTXPOSE_LIBCUDA PTXPOSE_PTX FAKECUDA_FAIL
for b in build/tests/api_unit build/asan/tests/api_unit; do
	for mode in fake nodriver; do
		if [ $mode = fake ]; then
			out=$("$b" 2>&1)
		else
			out=$(PTXPOSE_LIBCUDA=/nonexistent/libcuda.so.1 "$b" nodriver 2>&1)
		fi
		if [ $? -eq 0 ]; then
			echo "ok - $b $mode ($(echo "$out" | grep -c '^ok') checks)"
		else
			echo "$out" | sed 's/^/# /'
			echo "not ok - $b $mode"
		fi
	done
done
