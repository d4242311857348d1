#!/bin/sh
# Regenerate ptx/ into a scratch folder and diff it against the committed
# files: every generator change shows up as a PTX diff in review.
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
n=$(ls ptx/*.ptx | wc -l)
echo "1..$((n + 4))"
if build/asan/ptxpose gen --out "$tmp" scripts/variants.lua >"$tmp.log" 2>&1; then
	echo "ok 1 - gen scripts/variants.lua (ASan/UBSan build)"
else
	sed 's/^/# /' "$tmp.log"; echo "not ok 1 - gen scripts/variants.lua"
fi
rm -f "$tmp.log"
i=1
# one diff -rq names the files that differ or lack (a diff a file cost more
# CPU than the comparing); each of those is diffed again for its lines
differ=" $(diff -rq ptx "$tmp" 2>&1 | sed -n 's|^Files ptx/\([^ ]*\.ptx\) and .* differ$|\1|p; s|^Only in ptx: \(.*\.ptx\)$|\1|p' | tr '\n' ' ')"
for f in ptx/*.ptx; do
	i=$((i + 1))
	case $differ in
	*" ${f#ptx/} "*)
		diff -u "$f" "$tmp/${f#ptx/}" 2>&1 | head -40 | sed 's/^/# /'
		echo "not ok $i - $f differs from the generator's output (run: ninja ptx)" ;;
	*) echo "ok $i - $f is what the generator writes" ;;
	esac
done
extra=$(for f in "$tmp"/*.ptx; do [ -e "ptx/${f##*/}" ] || echo "${f##*/}"; done)
[ -z "$extra" ] && echo "ok $((i + 1)) - no generated file is missing from ptx/" \
	|| echo "not ok $((i + 1)) - generated but not committed: $extra"
old=$(grep -L '^// ptxpose kernel=[A-Za-z0-9_]* abi=[234] ' ptx/*.ptx)
[ -z "$old" ] && echo "ok $((i + 2)) - every file is kernel ABI v2, v3 or v4 (abi=2, 3, 4)" ||
	echo "not ok $((i + 2)) - without abi=2, 3 or 4: $old"
i=$((i + 1))
build/ptxpose gen --out "$tmp/again" scripts/variants.lua >/dev/null 2>&1
if [ -z "$(diff -rq "$tmp/again" "$tmp" 2>&1 | grep -v 'Only in')" ]; then
	echo "ok $((i + 2)) - two runs give the same bytes"
else
	echo "not ok $((i + 2)) - two runs differ"
fi
