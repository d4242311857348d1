#!/bin/sh
# t0675-tools-cache: with $PTXPOSE_TOOL_CACHE (the test suite's, see
# tests/lib/tap.sh) ptxas's and cuobjdump's results are kept by the hash of
# the tool and what it reads: the same JSON as without, one entry a tool, an
# entry is what a second run uses, a torn entry is a miss, a failure is not
# kept; the key is the PTX, not its path (a copy hits), and ptxas's output
# that names the path (a warning) is not kept.
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

# the same PTX under another name: ptxas's and cuobjdump's entries serve it
cp "$f" "$tmp/copy.ptx"
check "a copy of $f under another name" 0 env PTXPOSE_TOOL_CACHE="$tc" "$PX" sass --json "$tmp/copy.ptx"
[ "$(ls "$tc" | wc -l)" -eq 2 ] && ok "... uses their entries (still two)" || { nok "... uses their entries"; ls -la "$tc" | diag; }
sed "s|\"file\":\"$tmp/copy.ptx\"|\"file\":\"$f\"|" "$tmp/out" | cmp -s - "$tmp/want" && ok "... the same JSON but the name" ||
	{ nok "... the same JSON but the name"; diag <"$tmp/out"; }
# ptxas warns, naming the file: its output is not kept (cuobjdump's listing is)
printf '.version 6.3\n.target sm_75\n.address_size 64\n.visible .entry k() { .reg .pred p; vote.any.pred p, 1; ret; }\n' >"$tmp/warn.ptx"
check "PTX that ptxas warns about, naming it" 0 env PTXPOSE_TOOL_CACHE="$tc" "$PX" sass -v "$tmp/warn.ptx"
grep -q "warn.ptx, line 4; warning" "$tmp/err" && ok "... -v shows the warning" || { nok "... -v shows the warning"; diag <"$tmp/err"; }
! grep -q "warn.ptx" "$tc"/* && [ "$(ls "$tc" | wc -l)" -eq 3 ] && ok "... no ptxas entry for it (one of cuobjdump)" ||
	{ nok "... no ptxas entry for it"; ls -la "$tc" | diag; }
finish
