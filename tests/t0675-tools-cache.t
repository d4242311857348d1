#!/bin/sh
# t0675-tools-cache: with $PTXPOSE_TOOL_CACHE (the test suite's, see
# tests/lib/tap.sh) ptxas's and cuobjdump's results are kept by the hash of
# the tool and what it reads: the same JSON as without, one entry a tool, an
# entry is what a second run uses, a torn entry is a miss, a failure is not
# kept.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
f=ptx/fast_b32.ptx
need_sass_tools "$f"
tc=$tmp/tc

check "sass --json, no cache" 0 env PTXPOSE_TOOL_CACHE= "$PX" sass --json "$f"
cp "$tmp/out" "$tmp/want"
check "sass --json, an empty cache" 0 env PTXPOSE_TOOL_CACHE="$tc" "$PX" sass --json "$f"
cmp -s "$tmp/out" "$tmp/want" && ok "... the same JSON" || { nok "... the same JSON"; diag <"$tmp/out"; }
[ "$(ls "$tc" | wc -l)" -eq 2 ] && ok "... two entries: ptxas's and cuobjdump's" || { nok "... two entries"; ls -la "$tc" | diag; }
check "sass --json again, from the cache" 0 env PTXPOSE_TOOL_CACHE="$tc" "$PX" sass --json "$f"
cmp -s "$tmp/out" "$tmp/want" && ok "... the same JSON" || { nok "... the same JSON"; diag <"$tmp/out"; }

# the ptxas entry (it holds 'Used N registers') says 99 registers: a hit reads it
p=$(grep -l 'Used [0-9][0-9] registers' "$tc"/*)
sed -i 's/Used [0-9][0-9] registers/Used 99 registers/' "$p"
check "an entry changed by hand" 0 env PTXPOSE_TOOL_CACHE="$tc" "$PX" sass --json "$f"
grep -q '"registers":99,' "$tmp/out" && ok "... is what the run reports (99 registers)" || { nok "... is what the run reports"; diag <"$tmp/out"; }
# torn (one byte short): a miss, ptxas runs and the entry is written anew
head -c -1 "$p" >"$tmp/torn" && cat "$tmp/torn" >"$p"
check "a torn entry" 0 env PTXPOSE_TOOL_CACHE="$tc" "$PX" sass --json "$f"
cmp -s "$tmp/out" "$tmp/want" && ok "... is a miss: the same JSON as without" || { nok "... is a miss"; diag <"$tmp/out"; }

printf '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus; }\n' >"$tmp/broken.ptx"
check "PTX that ptxas rejects: exit 5" 5 env PTXPOSE_TOOL_CACHE="$tc" "$PX" sass "$tmp/broken.ptx"
check "... again: exit 5" 5 env PTXPOSE_TOOL_CACHE="$tc" "$PX" sass "$tmp/broken.ptx"
[ "$(ls "$tc" | wc -l)" -eq 2 ] && ok "... and no entry for it" || { nok "... and no entry for it"; ls -la "$tc" | diag; }
finish
