#!/bin/sh
# A gen killed in the middle of writing its files: the
# next gen into the folder finishes that commit first (its journal names the
# new files, written before it) and removes what a killed run left beside
# the files; a commit killed before its journal leaves the old files. The
# kill at each step is fstx_unit's (t0120); here, the folder a kill leaves.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
dst=$tmp/dst

printf 'ptx.write("a.ptx", ptx.transpose{name="a"})\nptx.write("b.ptx", ptx.transpose{name="b"})\n' >"$tmp/ab.lua"
printf 'ptx.write("a.ptx", ptx.transpose{name="a", elem=64})\nptx.write("b.ptx", ptx.transpose{name="b", elem=64})\n' \
	>"$tmp/ab64.lua"
printf 'ptx.write("c.ptx", ptx.transpose{name="c"})\n' >"$tmp/c.lua"
check "gen a.ptx and b.ptx" 0 "$PX" gen --out "$dst" "$tmp/ab.lua"
check "... and the 64-bit ones elsewhere" 0 "$PX" gen --out "$tmp/new" "$tmp/ab64.lua"

# killed after its journal and one rename: a.ptx new, b.ptx's new copy beside it
cp "$tmp/new/a.ptx" "$dst/a.ptx"
cp "$tmp/new/b.ptx" "$dst/.b.ptx.ptxpose-new"
cp "$dst/b.ptx" "$dst/.b.ptx.ptxpose-old"
printf 'ptxpose fstx journal 1 commit\n1 a.ptx\n1 b.ptx\nend\n' >"$dst/.ptxpose-journal"
printf 'x' >"$dst/..ptxpose-journal.tmp.AbC123"
printf 'x' >"$dst/.c.ptx.tmp.AbC123"
check "the next gen, of another file: exit 0" 0 "$PX" gen --out "$dst" "$tmp/c.lua"
cmp -s "$dst/a.ptx" "$tmp/new/a.ptx" && cmp -s "$dst/b.ptx" "$tmp/new/b.ptx" &&
	ok "... finishes the killed commit first: a.ptx and b.ptx both new" || nok "... a.ptx and b.ptx not both new"
[ "$(ls -A "$dst" | tr '\n' ' ')" = "a.ptx b.ptx c.ptx " ] && ok "... and leaves nothing beside the files" ||
	{ nok "... left: $(ls -A "$dst" | tr '\n' ' ')"; }

# killed before its journal: the new copies are removed, the old files stay
cp "$dst/a.ptx" "$tmp/a.before"
printf 'half' >"$dst/.a.ptx.ptxpose-new"
ln "$dst/a.ptx" "$dst/.a.ptx.ptxpose-old"
check "after a kill before the journal, a gen with nothing to change: exit 0" 0 "$PX" gen --out "$dst" "$tmp/c.lua"
cmp -s "$dst/a.ptx" "$tmp/a.before" && [ "$(ls -A "$dst" | tr '\n' ' ')" = "a.ptx b.ptx c.ptx " ] &&
	ok "... a.ptx keeps its bytes, the copies are gone" || nok "... left: $(ls -A "$dst" | tr '\n' ' ')"

printf 'ptxpose fstx journal 1 commit\n1 ../a.ptx\nend\n' >"$dst/.ptxpose-journal"
check "a damaged journal: exit 3" 3 "$PX" gen --out "$dst" "$tmp/c.lua"
one_line "... one line saying what to do" "cannot read .*/dst/.ptxpose-journal: it is damaged (an unfinished commit; remove it to give up on it)$"
rm "$dst/.ptxpose-journal"
printf 'ptx.write(".ptxpose-journal", "x")\n' >"$tmp/j.lua"
check "a script that writes the journal's name: exit 6" 6 "$PX" gen --out "$dst" "$tmp/j.lua"
one_line "... one line" "s*j.lua:1: write: '.ptxpose-journal' is not a plain file name: fstx keeps names like it"
finish
