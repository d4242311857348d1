#!/bin/sh
# t0310-list: `ptxpose list`, the main job's summary table: one row per PTX
# file, CSV, --no-sass, and the failures (a file ptxas rejects, a file
# without metadata, a missing, empty or NUL-holding file, ptxas missing, a bad
# --arch, an empty folder), cuobjdump missing (a note, the table as
# --no-sass); the progress (cli/progress.h, off elsewhere in the suite): on a
# terminal, a line rewritten as files end, cleared; in a pipe, lines once the
# phase has run past 2 s (a ptxas that sleeps 1 s a file, one at a time),
# the table on stdout the same.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh

need_ptxpose
set -- ptx/*.ptx
need_ptx "$1"
nfiles=$#

check "list --no-sass runs on ptx/" 0 "$PX" list --no-sass
[ -s "$tmp/err" ] && { nok "... nothing on stderr (PTXPOSE_PROGRESS=0)"; diag <"$tmp/err"; } || ok "... nothing on stderr (PTXPOSE_PROGRESS=0)"
rows=$(($(wc -l <"$tmp/out") - 1))
if [ "$rows" -eq "$nfiles" ]; then ok "one row per file ($rows)"; else nok "one row per file ($rows rows, $nfiles files)"; diag <"$tmp/out"; fi
if head -1 "$tmp/out" | grep -q '^name  *elem  *tile  *block  *vec  *smem  *regs  *smem B  *spill/stack  *LDG128  *STG128  *bank W/I$'; then
	ok "header names every column"
else
	nok "header names every column"; head -1 "$tmp/out" | diag
fi
# aligned: every row has its 'regs' column where the header has it
col=$(head -1 "$tmp/out" | awk '{ print index($0, "regs") }')
bad=$(awk -v c="$col" 'NR > 1 && substr($0, c - 2, 2) != "  " { print }' "$tmp/out")
if [ -z "$bad" ]; then ok "columns are aligned"; else nok "columns are aligned"; echo "$bad" | diag; fi
if awk 'NR > 1 && ($10 != "-" || $11 != "-") { bad = 1 } END { exit bad }' "$tmp/out"; then
	ok "--no-sass leaves LDG128/STG128 as -"
else
	nok "--no-sass leaves LDG128/STG128 as -"; diag <"$tmp/out"
fi

check "list --no-sass: a tile in dynamic shared memory" 0 "$PX" list --no-sass ptx/fast_t256x256_b8.ptx
if awk 'NR == 2 && $8 == 65536 { found = 1 } END { exit !found }' "$tmp/out"; then
	ok "... smem B counts the dynamic bytes (65536)"
else
	nok "... smem B counts the dynamic bytes"; diag <"$tmp/out"
fi
check "list --no-sass --csv FILE FILE" 0 "$PX" list --no-sass --csv "$1" "$2"
if [ "$(wc -l <"$tmp/out")" -eq 3 ] && head -1 "$tmp/out" | grep -q '^file,name,kernel,elem,tile,' &&
   [ "$(awk -F, '{ print NF }' "$tmp/out" | sort -u)" = 24 ]; then
	ok "CSV: a header and one row per file, 24 fields each"
else
	nok "CSV: a header and one row per file, 24 fields each"; diag <"$tmp/out"
fi

# a folder with a good file, a name with a space, a broken file, a file without metadata
mkdir "$tmp/d"
cp "$1" "$tmp/d/good one.ptx"
sed "s/\bret;/bogus.instruction;/" "$1" >"$tmp/d/broken.ptx"
grep -v '^// ptxpose' "$1" >"$tmp/d/nometa.ptx"
check "list --no-sass on a folder with a file ptxas rejects exits 5" 5 "$PX" list --no-sass "$tmp/d"
if grep -q '^good one ' "$tmp/out" && grep -q '^nometa ' "$tmp/out" && grep -q '^broken .*error: ptxas .*broken.ptx, line [0-9]*; error' "$tmp/out"; then
	ok "the rejected file is a row with its error, the others are listed"
else
	nok "the rejected file is a row with its error, the others are listed"; diag <"$tmp/out"
fi
if grep -q '^ptxpose list: ptxas rejected .*broken.ptx for sm_90:$' "$tmp/err" && grep -q 'ptxas .*error' "$tmp/err"; then
	ok "ptxas's error text follows the table"
else
	nok "ptxas's error text follows the table"; diag <"$tmp/err"
fi
check "a file without ptxpose metadata exits 3" 3 "$PX" list --no-sass "$tmp/d/nometa.ptx" "$tmp/d/good one.ptx"
grep -q 'no ptxpose metadata' "$tmp/err" && ok "... and says why" || { nok "... and says why"; diag <"$tmp/err"; }

mkdir "$tmp/empty"
check "a folder without .ptx files exits 3" 3 "$PX" list --no-sass "$tmp/empty"
check "a missing file exits 3" 3 "$PX" list --no-sass "$tmp/nothere.ptx"
one_line "... one line, the path once, no table" "^ptxpose list: $tmp/nothere.ptx: cannot read: No such file or directory$"
[ -s "$tmp/out" ] && { nok "... nothing on stdout"; diag <"$tmp/out"; } || ok "... nothing on stdout"
: >"$tmp/empty.ptx"
printf '.version 8.0\0\n' >"$tmp/nul.ptx"
check "an empty file exits 3" 3 "$PX" list --no-sass "$tmp/empty.ptx"
one_line "... one line" "^ptxpose list: $tmp/empty.ptx: an empty file: no PTX in it$"
check "a file with a NUL byte exits 3" 3 "$PX" list --no-sass "$tmp/nul.ptx"
one_line "... one line" "^ptxpose list: $tmp/nul.ptx: a NUL byte at offset 12: not PTX text$"
check "a missing file among good ones exits 3" 3 "$PX" list --no-sass "$tmp/nothere.ptx" "$1"
[ "$(wc -l <"$tmp/out")" -eq 3 ] && grep -q '^nothere .*error: .*nothere.ptx: cannot read' "$tmp/out" &&
	grep -qx "ptxpose list: $tmp/nothere.ptx: cannot read: No such file or directory" "$tmp/err" &&
	ok "... the table, with the error in its row and after it" || { nok "... the table and the error"; diag <"$tmp/out"; diag <"$tmp/err"; }
check "--arch sm9 exits 2" 2 "$PX" list --arch sm9
check "--arch sm_99 (unknown to ptxas) exits 2" 2 "$PX" list --no-sass --arch sm_99 "$1"
check "an unknown flag exits 2" 2 "$PX" list --frobnicate
check "ptxas missing exits 7" 7 env PTXPOSE_PTXAS=/nonexistent/ptxas "$PX" list --no-sass
if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'PTXPOSE_PTXAS' "$tmp/err"; then ok "... with one line"
else nok "... with one line"; diag <"$tmp/err"; fi
# no cuobjdump: the table as --no-sass, one note, exit 0
check "list without cuobjdump: exit 0" 0 env PTXPOSE_CUOBJDUMP="$tmp/nothere" "$PX" list "$1" "$2"
one_line "... one note saying what is left out" "^ptxpose list: note: PTXPOSE_CUOBJDUMP=.* is not an executable.*; LDG128 and STG128 are left as - (--no-sass)$"
awk 'NR > 1 && $10 == "-" && $11 == "-" { n++ } END { exit n != 2 }' "$tmp/out" && ok "... the table, LDG128 and STG128 as -" ||
	{ nok "... the table, LDG128 and STG128 as -"; diag <"$tmp/out"; }
# progress: on a terminal (script(1) gives stderr one; stdout to a file)
if command -v script >/dev/null 2>&1; then
	env -u PTXPOSE_PROGRESS script -qec "\"$PX\" list --no-sass \"$1\" \"$2\" 2>&1 >\"$tmp/tty.out\"" /dev/null >"$tmp/tty" 2>&1
	printf '\rptxpose list: 2 of 2 files assembled\033[K\r\033[K' >"$tmp/tty.end"
	tail -c "$(wc -c <"$tmp/tty.end")" "$tmp/tty" | cmp -s - "$tmp/tty.end" && [ "$(wc -l <"$tmp/tty.out")" -eq 3 ] &&
		! grep -q 'assembled' "$tmp/tty.out" && ok "on a terminal: 2 of 2 files assembled, then the line cleared; stdout the table" ||
		{ nok "on a terminal: the progress line"; od -c "$tmp/tty" | diag; }
else
	ok "# SKIP script(1) missing: no terminal to show a progress line on"
fi
# in a pipe: a long phase (three files, one at a time, 1 s each) says so
ptxas=$("$PX" list -v --no-sass "$1" 2>&1 >/dev/null | sed -n 's/^ptxas: //p')
printf '#!/bin/sh\nsleep 1\nexec "%s" "$@"\n' "$ptxas" >"$tmp/slow"
chmod +x "$tmp/slow"
"$PX" list --no-sass "$1" "$2" "$3" >"$tmp/fast" 2>/dev/null
check "in a pipe, a ptxas of 1 s a file, --jobs 1: exit 0" 0 env -u PTXPOSE_PROGRESS -u PTXPOSE_TOOL_CACHE PTXPOSE_PTXAS="$tmp/slow" \
	"$PX" list --no-sass --jobs 1 "$1" "$2" "$3"
grep -q '^ptxpose list: [23] of 3 files assembled ([0-9]* s)$' "$tmp/err" && grep -q '^ptxpose list: done in [0-9]* s$' "$tmp/err" &&
	! grep -qv '^ptxpose list: ' "$tmp/err" && ok "... past 2 s, a line on stderr, then one at the end" || { nok "... the progress lines"; diag <"$tmp/err"; }
cmp -s "$tmp/out" "$tmp/fast" && ok "... stdout: the table, as without progress" || { nok "... stdout differs"; diff "$tmp/fast" "$tmp/out" | diag; }
# --no-ptxas: the metadata's columns, no tool run (none needed)
check "list --no-ptxas, ptxas missing: exit 0" 0 env PTXPOSE_PTXAS=/nonexistent PTXPOSE_CUOBJDUMP=/nonexistent "$PX" list --no-ptxas "$1" "$2"
[ ! -s "$tmp/err" ] && [ "$(wc -l <"$tmp/out")" -eq 3 ] &&
	awk 'NR > 1 && $2 != "-" && $7 == "-" && $8 == "-" && $9 == "-" && $10 == "-" && $11 == "-" { n++ } END { exit n != 2 }' "$tmp/out" &&
	ok "... the metadata's columns, regs to STG128 as -" || { nok "... the metadata's columns, regs to STG128 as -"; diag <"$tmp/out"; diag <"$tmp/err"; }
check "list --no-ptxas --csv" 0 "$PX" list --no-ptxas --csv "$1"
awk -F, 'NR == 2 && $10 == "" && $11 == "" && $23 == "ok" { found = 1 } END { exit !found }' "$tmp/out" &&
	ok "... registers and smem_bytes empty, status ok" || { nok "... CSV"; diag <"$tmp/out"; }
check "list --help" 0 "$PX" list --help
missing=
for field in name elem tile block vec smem regs 'smem B' spill/stack LDG128 STG128 'bank W/I'; do
	grep -q "^  $field " "$tmp/out" || missing="$missing '$field'"
done
if [ -z "$missing" ]; then ok "--help documents every column"; else nok "--help documents every column: not$missing"; fi
finish
