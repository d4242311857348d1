#!/bin/sh
# The checked-in build.ninja is what ./configure.py writes for this tree: a
# clean clone builds every source file. Every test that tests/slow-first
# (the order of `ninja test` on a fresh clone) names exists.
cd "$(dirname "$0")/.." || exit 1
echo "1..2"
if out=$(python3 configure.py --check 2>&1); then
	echo "ok 1 - build.ninja is current"
else
	echo "# $out"
	echo "not ok 1 - build.ninja is stale (run ./configure.py and commit it)"
fi
missing=$(sed '/^#/d' tests/slow-first | while read -r t; do [ -f "$t" ] || echo "$t"; done)
if [ -z "$missing" ]; then
	echo "ok 2 - tests/slow-first names only tests that exist"
else
	echo "$missing" | sed 's/^/# missing: /'
	echo "not ok 2 - tests/slow-first names only tests that exist"
fi
