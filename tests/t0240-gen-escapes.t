#!/bin/sh
# gen's time limit holds whatever the script does: each
# reproducer ends within a few seconds of a 1 s limit, exit 6, one line at
# the script's line, no output folder. Whatever the sandbox's own bounds
# miss, the child process the script runs in is killed at the limit.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
dst=$tmp/dst

# esc DESC PATTERN SCRIPT-TEXT: exit 6 under `timeout 20` in at most 8 s (a loaded
# machine; an escape takes far longer)
esc() {
	printf '%b' "$3" >"$tmp/s.lua"
	t0=$(date +%s%N)
	check "$1: exit 6" 6 timeout 20 "$PX" gen --time-limit 1 --out "$dst" "$tmp/s.lua"
	ms=$((($(date +%s%N) - t0) / 1000000))
	[ "$ms" -le 8000 ] && ok "... within 8 s ($ms ms)" || nok "... took $ms ms"
	one_line "... one line at the script's line" "$2"
	[ ! -e "$dst" ] || { nok "... $dst was made"; rm -rf "$dst"; }
}

T='time limit of 1 s reached (an endless loop?)$'
esc "xpcall(error, endless handler)" "s.lua:1: $T" 'xpcall(error, function() while true do end end)\n'
esc "an endless handler of an endless function" "s.lua:1: $T" \
	'xpcall(function() while true do end end, function() while true do end end)\n'
esc "string.rep('', maxinteger) returns at once" "s.lua:2: done$" \
	'local s = string.rep("", math.maxinteger)\nerror("done")\n'
esc "%b() over 1e6 bytes" 's.lua:1: string.find: this pattern over 1000000 bytes could backtrack' \
	'local x = ("("):rep(1e6):find("%b()")\n'
esc "a plain find of a 1e6-byte needle is quick" "s.lua:3: done$" \
	'local a = ("a"):rep(2e6)\nassert(not a:find(("a"):rep(1e6) .. "b", 1, true))\nerror("done")\n'
esc "a 2e5-byte set" 's.lua:1: string.find: this pattern over 100000 bytes' \
	'local x = ("b"):rep(1e5):find("[" .. ("a"):rep(2e5) .. "]")\n'
esc "a 1e6-byte literal pattern" 's.lua:1: string.match: this pattern over 2000000 bytes' \
	'local x = ("a"):rep(2e6):match(("a"):rep(1e6) .. "b")\n'
esc "table.sort of 1.5e6 numbers (1.5e7 reach the memory limit)" 's.lua:3: table.sort: more than 419' \
	'local t = {}\nfor i = 1, 1.5e6 do t[i] = -i end\ntable.sort(t)\n'
esc "a loop of table.concat, which no bound looks at" "s.lua:[12]: $T" \
	'local t = {}\nfor i = 1, 1e6 do t[i] = "x" end while true do local s = table.concat(t) end\n'
# one instruction that takes long: the hook looks at the clock too late, a
# timer at the limit makes it look at the next instruction (the line), and
# the kill of the script's process ends it in any case (an ASan build's
# concatenations may be too slow for the line)
esc "a loop of 128 MiB concatenations" "s.lua:\(2:\)\{0,1\} $T" \
	'local s = ("x"):rep(2^26)\nwhile true do local t = s .. s end\n'
# every error names the script's line
esc "setmetatable('', {})" "s.lua:1: bad argument #1 to 'setmetatable' (table expected, got string)$" \
	'setmetatable("", {})\n'
finish
