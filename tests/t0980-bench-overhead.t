#!/bin/sh
# bench/overhead (the library's host time through its public API, linked
# with build/libptxpose.a) against the fake driver: it runs, reports every
# figure, and the library's own overhead stays within the targets of the
# issue, ptxpose_execute <= 5 us a call with a ready plan and
# ptxpose_transpose <= 10 us on a warm plan cache (the fake's launch
# included, which leaves a wide margin: the figures are about 0.3 us).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
[ -x build/bench/overhead ] || { nok "build/bench/overhead is not built: run ninja"; finish; }
. tests/lib/fakecuda.sh
check "overhead on the fake driver" 0 build/bench/overhead --runs 15 --batch 100
for f in plan_create_cold plan_create_warm execute transpose_warm; do
	grep -Eq "^$f [0-9]+\.[0-9]+ us$" "$tmp/out" && ok "... $f: $(sed -n "s/^$f //p" "$tmp/out")" ||
		{ nok "... $f"; diag <"$tmp/out"; }
done
grep -qx 'target execute <= 5 us: ok' "$tmp/out" && grep -qx 'target transpose_warm <= 10 us: ok' "$tmp/out" &&
	ok "... both targets met" || { nok "... targets"; diag <"$tmp/out"; }
check "overhead --rows 0: exit 2" 2 build/bench/overhead --rows 0
PTXPOSE_LIBCUDA=/nonexistent/libcuda.so.1 check "overhead without a driver: exit 4" 4 build/bench/overhead
finish
