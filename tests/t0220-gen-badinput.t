#!/bin/sh
# gen on hostile scripts: one line naming what
# was wrong, the documented exit code, and the output folder as it was.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
dst=$tmp/dst

# gen_err DESC CODE PATTERN SCRIPT-TEXT [FLAGS]: gen exits CODE within 60 s
# with one line matching PATTERN, and leaves no folder $dst
gen_err() {
	what=$1 code=$2 pat=$3
	printf '%b' "$4" >"$tmp/s.lua"
	shift 4
	check "$what: exit $code" "$code" timeout 60 "$PX" gen --out "$dst" "$@" "$tmp/s.lua"
	one_line "$what: one line" "$pat"
	[ ! -e "$dst" ] && ok "$what: no output folder" || { nok "$what: $dst was made"; rm -rf "$dst"; }
}

A='ptx.write("a.ptx", ptx.transpose{name="a"})\n'

# text only
printf '\033LuaT\000\031\223\r\n\032\n\004\010\010xV\000\000' >"$tmp/bin.lua"
check "a precompiled chunk: exit 6" 6 "$PX" gen --out "$dst" "$tmp/bin.lua"
one_line "... named as such" 'bin.lua: a precompiled chunk; scripts are loaded as text only$'
printf '#!/usr/bin/env lua\n\033LuaT\000\031\223\r\n' >"$tmp/bin.lua"
check "a precompiled chunk after a #! line: exit 6" 6 "$PX" gen --out "$dst" "$tmp/bin.lua"
gen_err "load() of a binary chunk" 6 's.lua:1: no binary' \
	'local f, e = load(string.dump(function() end)); error(f and "loaded" or "no binary")'

# names checked at the call, one transaction, no folder before the commit
gen_err "a subfolder name" 6 "s.lua:2: write: 'sub/b.ptx' is not a plain file name: it has a '/'" \
	"${A}ptx.write(\"sub/b.ptx\", \"x\")\n"
gen_err "an absolute name" 6 "s.lua:1: write: '/b.ptx' is not a plain file name" 'ptx.write("/b.ptx", "x")\n'
gen_err "a name with a NUL" 6 "s.lua:1: write: 'a\\\\0b.ptx' is not a plain file name: it has a NUL byte" \
	'ptx.write("a\\0b.ptx", "x")\n'
gen_err "a.ptx and ./a.ptx" 6 "s.lua:2: write: .*/dst/a.ptx is written twice" "${A}ptx.write(\"./a.ptx\", \"x\")\n"
gen_err "a name with a newline" 6 "s.lua:1: write: 'a\\\\nb.ptx' is not a plain file name: it has a control character" \
	'ptx.write("a\\nb.ptx", "x")\n'
gen_err "a script that fails after writing" 6 's.lua:2: late' "${A}error('late')\n"
printf '%b' "${A}ptx.write(\"./b.ptx\", ptx.transpose{name=\"b\"})\n" >"$tmp/ok.lua"
check "./b.ptx is b.ptx; the folder is made at the end" 0 "$PX" gen --out "$dst" "$tmp/ok.lua"
[ "$(ls "$dst" | tr '\n' ' ')" = "a.ptx b.ptx " ] && ok "... holding a.ptx and b.ptx" || nok "... holding $(ls -a "$dst")"
cp "$dst/a.ptx" "$tmp/a.before"
printf '%b' 'ptx.write("a.ptx", ptx.transpose{name="a", elem=64})\nptx.write("z.ptx", string.rep("z", 400000))\n' >"$tmp/big.lua"
(trap '' XFSZ; ulimit -f 256; exec "$PX" gen --out "$dst" "$tmp/big.lua") >"$tmp/out" 2>"$tmp/err"
[ $? -eq 3 ] && ok "a write that fails at the commit (file size limit): exit 3" || nok "a write that fails at the commit: exit $?"
one_line "... naming the file" 'cannot write .*/dst/z.ptx: File too large$'
cmp -s "$dst/a.ptx" "$tmp/a.before" && [ "$(ls -a "$dst" | tr '\n' ' ')" = ". .. a.ptx b.ptx " ] \
	&& ok "... and a.ptx, written before it, keeps its old bytes; no z.ptx, no temporary" \
	|| nok "... the folder changed: $(ls -a "$dst" | tr '\n' ' ')"
rm -rf "$dst"

# the sandbox
gen_err "os.exit(42)" 6 "s.lua:1: attempt to index a nil value (global 'os')" 'os.exit(42)\n'
gen_err "ptx.write, then os.exit(true)" 6 "s.lua:2: attempt to index a nil value (global 'os')" "${A}os.exit(true)\n"
gen_err "io.open" 6 "s.lua:1: attempt to index a nil value (global 'io')" 'io.open("x", "w")\n'
gen_err "require" 6 "s.lua:1: attempt to call a nil value (global 'require')" 'require("os")\n'
gen_err "dofile" 6 "s.lua:1: attempt to call a nil value (global 'dofile')" 'dofile("x.lua")\n'
gen_err "package.loadlib" 6 "s.lua:1: attempt to index a nil value (global 'package')" 'package.loadlib("x", "y")\n'
gen_err "while true do end" 6 's.lua:2: time limit of 1 s reached (an endless loop?)$' '\nwhile true do end\n' --time-limit 1
gen_err "an endless loop of pcalls" 6 's.lua:1: time limit of 1 s reached' \
	'while true do pcall(function() while true do end end) end\n' --time-limit 1
gen_err "s = s..s" 6 's.lua:3: memory limit of 16 MiB reached$' 'local s = "x"\nfor i = 1, 40 do\n  s = s .. s\nend\n' --mem-limit 16
gen_err "a finalizer" 6 "s.lua:1: setmetatable: __gc metamethods are not available" \
	'setmetatable({}, {__gc = function() while true do end end})\n'
gen_err "a pattern that backtracks for hours" 6 "s.lua:1: string.find: this pattern over 100000 bytes could backtrack" \
	'print(string.rep("a", 100000):find(".-.-.-b"))\n'
gen_err "table.move of 10^12 nils" 6 "s.lua:1: table.move: more than 16777216 elements" 'table.move({}, 1, 1e12, 1)\n'

# names and messages
gen_err "a kernel name of 64 characters" 6 "s.lua:1: transpose: name is longer than 63 characters (the metadata's limit)" \
	'ptx.transpose{name=string.rep("k", 64)}\n'
printf 'ptx.write("k.ptx", ptx.transpose{name=string.rep("k", 63)})\n' >"$tmp/k63.lua"
"$PX" gen --out "$tmp/k63" "$tmp/k63.lua" >/dev/null 2>&1
check "a kernel name of 63 characters: generated, and its metadata reads back" 0 \
	"$PX" run --emulate "$tmp/k63/k.ptx" --rows 3 --cols 5
gen_err "a kernel name with a NUL" 6 "s.lua:1: transpose: name has a NUL byte" 'ptx.transpose{name="a\\0b"}\n'
gen_err "elem=4294967328" 6 "s.lua:1: transpose: elem = 4294967328 is outside 1..1024" \
	'ptx.transpose{name="a", elem=4294967328}\n'
gen_err "error({})" 6 's.lua:2: error object is a table, not a message$' '\nlocal function f() error({}) end\nf()\n'
gen_err "an error message with a newline" 6 's.lua:1: one\\ntwo$' 'error("one\\ntwo")\n'
mkdir "$tmp/dir.lua"
check "gen on a folder: exit 3" 3 "$PX" gen --out "$dst" "$tmp/dir.lua"
one_line "... one line" 'dir.lua: not a regular file (a directory)$'
# the script goes through the one reader of input files (fs_read_input): a
# FIFO, a device or a file over 16 MiB is refused at once, before Lua runs
mkfifo "$tmp/fifo.lua"
check "gen on a FIFO: exit 3, no wait" 3 timeout 10 "$PX" gen --out "$dst" "$tmp/fifo.lua"
one_line "... one line" 'fifo.lua: not a regular file (a FIFO)$'
check "gen on /dev/zero: exit 3, no wait" 3 timeout 10 "$PX" gen --out "$dst" /dev/zero
one_line "... one line" '^ptxpose gen: /dev/zero: not a regular file (a character device)$'
head -c 16777217 /dev/zero | tr '\0' ' ' >"$tmp/big.lua"
check "gen on a script over 16 MiB: exit 3" 3 "$PX" gen --out "$dst" "$tmp/big.lua"
one_line "... one line" 'big.lua: larger than 16 MiB, the most an input file may hold$'
check "gen on a missing script with a newline in its name: exit 3" 3 "$PX" gen --out "$dst" "$tmp/no
such.lua"
one_line "... one line" 'no\\nsuch.lua: cannot read: No such file or directory$'
finish
