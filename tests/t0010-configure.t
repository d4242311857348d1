#!/bin/sh
# The checked-in build.ninja is what ./configure.py writes for this tree: a
# clean clone builds every source file.
cd "$(dirname "$0")/.." || exit 1
echo "1..1"
if out=$(python3 configure.py --check 2>&1); then
	echo "ok 1 - build.ninja is current"
else
	echo "# $out"
	echo "not ok 1 - build.ninja is stale (run ./configure.py and commit it)"
fi
