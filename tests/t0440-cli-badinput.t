#!/bin/sh
# Bad input never hangs, crashes, lies or destroys. check fails a
# case it refuses, emulated or on the (fake) GPU (2), bench checks every
# input before it writes and never replaces its tables with nothing (3), the
# shape parser stays inside its entry (5), numbers are never wrapped, flags
# and shape keys are never given twice, user-given strings cannot break a
# line of TAP (10), input files are regular and bounded (11), and host
# buffers are weighed before they are allocated (12). Runs anywhere: the
# emulator and the fake driver stand in for the GPU.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
need_ptx ptx/fast_b32.ptx
export ASAN_OPTIONS=detect_leaks=1
k=tests/data/linear_b32.ptx   # grid=linear, one thread an element
t=ptx/fast_b32.ptx            # grid=tile, 64x64 tiles

# The command's stdout is empty: it stopped before anything ran.
quiet() { [ ! -s "$tmp/out" ] && ok "... before anything ran" || { nok "... before anything ran"; diag <"$tmp/out"; }; }
# A TAP line (and the diagnostics after it) in $tmp/out.
has_line() { grep -qx -- "$2" "$tmp/out" && ok "$1" || { nok "$1"; diag <"$tmp/out"; }; }
has_diag() { grep -q -- "^# $2" "$tmp/out" && ok "$1" || { nok "$1"; diag <"$tmp/out"; }; }

# --- a case check refuses is a failure, with its cause's exit code
check "check: a case too large for this machine: exit 2, not 0" 2 $PX check --emulate --shapes 2147483647x1 $t
has_line "... not ok, with the shape" "not ok 1 - fast_b32 2147483647x1"
has_diag "... the reason" "too large: the input and output: .* of host memory needed"
check "check: a refused case after one that passes: exit 2" 2 \
	$PX check --emulate --shapes 2x2,2147483647x1 "$t"
check "check: --rows 5 --cols 10 --ld-in 4: exit 2" 2 $PX check --emulate --rows 5 --cols 10 --ld-in 4 $k
one_line "... one line naming ld-in" "ptxpose check: ld_in 4 is less than cols 10"
quiet
check "check --elem 24: exit 2, not every case skipped" 2 $PX check --emulate --elem 24 $k
one_line "... one line: not a width, and what is" "ptxpose check: --elem '24' is not an element width: give bits (8, 16, 32, 64, 128), bytes with a unit"
quiet
check "check --help says how a refused case is reported" 0 $PX check --help
grep -q 'is refused: `not ok`, the reason in a # line, exit 2' "$tmp/out" && ok "... documented" || nok "... documented"

# --- an entry without an x
check "check --shapes 5 (ASan build): exit 2, never read past the entry" 2 build/asan/ptxpose check --emulate --shapes 5 $k
one_line "... one line naming the entry" "ptxpose check: bad shape '5': expected ROWSxCOLS"
check "check --shapes 5,6: exit 2, not read as 5x6" 2 $PX check --emulate --shapes 5,6 $k
one_line "... one line naming the entry" "ptxpose check: bad shape '5': "
check "check --shapes 4x4,: an empty entry: exit 2" 2 $PX check --emulate --shapes 4x4, $k
one_line "... one line" "shape list '4x4,': entry 2 is empty"

# --- numbers, widths, help, duplicates, --emulate and timing, escaping
check "check --shapes 3x3:elem=4294967328: exit 2" 2 $PX check --emulate --shapes 3x3:elem=4294967328 $k
one_line "... the number as given, not 32" "elem '4294967328' is not an element width"
sed 's/elem=32/elem=4294967328/' tests/data/linear_b32.ptx >"$tmp/big.ptx"
PTXPOSE_PTX="$tmp/big.ptx" check "a \$PTXPOSE_PTX kernel of elem=4294967328: exit 3, not a 32-bit kernel" 3 \
	$PX run --elem 32 --rows 4 --cols 4 --emulate
one_line "... one line naming the file" "PTXPOSE_PTX: .*big.ptx: metadata: elem must be 8, 16, 32, 64 or 128, got '4294967328'"
check "run FILE --elem 24: exit 2" 2 $PX run $k --elem 24 --rows 4 --cols 4 --emulate
one_line "... not a width, rather than 'does not match'" "ptxpose run: --elem '24' is not an element width"
check "bench --elem 24: exit 2" 2 $PX bench --elem 24 --out-dir "$tmp/never" $k
one_line "... one line" "ptxpose bench: --elem '24' is not an element width"
check "list FILE --help: exit 0" 0 $PX list $k --help
grep -q '^usage: ptxpose list' "$tmp/out" && ok "... the usage" || nok "... the usage"
check "help help: exit 0" 0 $PX help help
grep -q '^usage: ptxpose COMMAND' "$tmp/out" && ok "... the usage" || nok "... the usage"
for dup in "run $k --rows 3 --cols 3 --rows 4 --emulate|--rows given twice" \
	"run $k --rows 3 --cols 3 --cols=3 --emulate|--cols given twice" \
	"run $k --rows 3 --cols 3 -v --verbose --emulate|--verbose given twice" \
	"check --emulate --emulate $k|--emulate given twice" \
	"check --emulate --shapes 1x1 --shapes=2x2 $k|--shapes given twice" \
	"bench --iters 5 --iters 6 $k|--iters given twice"; do
	check "${dup%%|*}: exit 2" 2 $PX ${dup%%|*}
	one_line "... one line: ${dup#*|}" "${dup#*|}"
done
check "a shape key given twice, spelt two ways: exit 2" 2 $PX check --emulate --shapes 3x3:ld_in=5:ld-in=6 $k
one_line "... one line naming the key" "bad shape '3x3:ld_in=5:ld-in=6': ld-in given twice"
for flag in --iters=5 --no-time --flush-l2; do
	check "run --emulate $flag: exit 2, not ignored" 2 $PX run $k --rows 3 --cols 3 --emulate $flag
	one_line "... one line" "ptxpose run: ${flag%%=*}: --emulate verifies and never times"
done
nl='
'
cp $k "$tmp/a${nl}ok 99 - injected.ptx"
check "check: a file name with a newline" 0 $PX check --emulate --shapes 2x2 "$tmp/a${nl}ok 99 - injected.ptx"
grep -q '^ok 99' "$tmp/out" && { nok "... injects no TAP line"; diag <"$tmp/out"; } || ok "... injects no TAP line"
printf '.version 8.0\n' >"$tmp/b # SKIP c.ptx"
check "check: a file named '... # SKIP ...' without metadata: exit 3" 3 $PX check --emulate --shapes 2x2 "$tmp/b # SKIP c.ptx"
grep -q '^not ok 1 - .*/b \\# SKIP c.ptx 2x2$' "$tmp/out" && ! grep -q '^\(not \)\{0,1\}ok .* # SKIP' "$tmp/out" &&
	ok "... is not ok, its '#' escaped: no skip" || { nok "... no skip"; diag <"$tmp/out"; }
printf '.version 8.0\n' >"$tmp/d${nl}ok 7.ptx"
check "check: a name with a newline that cannot be read: exit 3" 3 $PX check --emulate --shapes 2x2 "$tmp/d${nl}ok 7.ptx"
[ "$(grep -c '' "$tmp/out")" -eq 3 ] && grep -q '^# .*/d\\nok 7.ptx: no ptxpose metadata' "$tmp/out" &&
	ok "... plan, not ok and one # line: the name escaped" || { nok "... escaped"; diag <"$tmp/out"; }
check "run: the same name: exit 3" 3 $PX run "$tmp/d${nl}ok 7.ptx" --rows 2 --cols 2 --emulate
one_line "... one line on stderr, the newline escaped" 'd\\nok 7.ptx: no ptxpose metadata'
check "an unknown flag with an escape sequence: exit 2" 2 $PX run "--$(printf '\033')[2J"
one_line "... one line, the escape shown" "unknown flag '--\\\\x1b\\[2J'"
sed 's/kernel=linear_b32/kernel=linear_b32\x07/' $k >"$tmp/bell.ptx"
check "metadata with a control character: exit 3" 3 $PX run "$tmp/bell.ptx" --rows 2 --cols 2 --emulate
one_line "... one line" "metadata token with a control character (0x07)"

# --- only regular files, of bounded size
mkfifo "$tmp/fifo.ptx"
for c in "run $tmp/fifo.ptx --rows 2 --cols 2 --emulate" "check --emulate $tmp/fifo.ptx" "list --no-sass $tmp/fifo.ptx" \
	"sass $tmp/fifo.ptx"; do
	check "${c%% *} on a FIFO: exit 3 at once" 3 timeout 20 $PX $c
	grep -q 'fifo.ptx: not a regular file (a FIFO)' "$tmp/err" "$tmp/out" && ok "... saying so" ||
		{ nok "... saying so"; diag <"$tmp/err"; }
done
PTXPOSE_PTX="$tmp/fifo.ptx" check "a FIFO in \$PTXPOSE_PTX: exit 3 at once" 3 timeout 20 $PX run --elem 32 --rows 2 --cols 2 --emulate
one_line "... one line" "PTXPOSE_PTX: .*fifo.ptx: not a regular file (a FIFO)"
check "run /dev/zero: exit 3 at once" 3 timeout 20 $PX run /dev/zero --rows 2 --cols 2 --emulate
one_line "... one line" "ptxpose run: /dev/zero: not a regular file (a character device)"
check "run on a folder: exit 3" 3 $PX run tests --rows 2 --cols 2 --emulate
one_line "... one line" "ptxpose run: tests: not a regular file (a directory)"
truncate -s 65M "$tmp/big.ptx"
check "run on a PTX file of 65 MiB: exit 3 at once" 3 timeout 20 $PX run "$tmp/big.ptx" --rows 2 --cols 2 --emulate
one_line "... one line naming the limit" "big.ptx: larger than 64 MiB, the most an input file may hold"

# --- host buffers weighed before they are allocated (the plain
# build: ASan's shadow memory does not live under ulimit -v)
wide=2x2:ld_in=2147483647:ld_out=2147483647
(ulimit -v 4000000 && exec build/ptxpose check --emulate --shapes $wide $k) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && ok "check: 2x2 with leading dimensions of 2^31-1 under ulimit -v 4 GB: exit 2" ||
	{ nok "check: 2x2 with leading dimensions of 2^31-1 under ulimit -v 4 GB: exit 2"; diag <"$tmp/out"; }
has_diag "... refused before allocating, naming the bytes and the bound" \
	"too large: the input and output: 16.0 GiB of host memory needed, more than half of the .* the address-space limit (ulimit -v) leaves"
(ulimit -v 4000000 && exec build/ptxpose run $k --rows 2 --cols 2 --ld-in 2147483647 --ld-out 2147483647 --emulate) \
	>"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && ok "run --emulate: the same: exit 2" || { nok "run --emulate: the same: exit 2"; diag <"$tmp/err"; }
one_line "... one line" "16.0 GiB of host memory needed, more than half of"
(ulimit -v 4000000 && exec build/ptxpose check --emulate --shapes 100000x100000 $k) >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && ok "check: 100000x100000: exit 2" || { nok "check: 100000x100000: exit 2"; diag <"$tmp/out"; }

# --- bench checks every input first and never replaces its tables with nothing
. tests/lib/fakecuda.sh
mkptx() { # FILE ELEM: metadata and an entry, all the fake driver reads
	printf '// Generated by ptxpose (test)\n// ptxpose kernel=k abi=2 elem=%s grid=tile tile=32x32 block=32x8\n' "$2" >"$1"
	printf '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(\n)\n{\n\tret;\n}\n' >>"$1"
}
mkptx "$tmp/k32.ptx" 32
printf '.version 8.0\n' >"$tmp/plain.ptx"
check "check on the (fake) GPU: a case too large: exit 2, not 0" 2 $PX check --shapes 4x4,2147483647x1 "$tmp/k32.ptx"
grep -qx 'ok 1 - k 4x4' "$tmp/out" && grep -qx 'not ok 2 - k 2147483647x1' "$tmp/out" &&
	ok "... the good case ok, the refused one not" || { nok "... TAP"; diag <"$tmp/out"; }
FAKECUDA_MEM=100000000 check "check on the (fake) GPU: too large for the device: exit 2" 2 $PX check --rows 8000 --cols 8000 "$tmp/k32.ptx"
has_diag "... the reason" "too large for the device: 8000x8000 elem=32 needs"
res="$tmp/res"
mkdir "$res"
printf 'the committed bench.md\n' >"$res/bench.md"
printf 'the committed bench.csv\n' >"$res/bench.csv"
untouched() {
	[ "$(cat "$res/bench.md")" = "the committed bench.md" ] && [ "$(cat "$res/bench.csv")" = "the committed bench.csv" ] &&
		[ "$(ls -a "$res" | wc -l)" -eq 4 ] && ok "... bench.md and bench.csv untouched, nothing else there" ||
		{ nok "... bench.md and bench.csv untouched"; ls -a "$res" | diag; }
}
bench() { # DESC CODE ARGS...: bench into $res with the fake driver
	desc=$1 want=$2
	shift 2
	check "bench $desc: exit $want" "$want" timeout 60 $PX bench --iters 2 --no-cublas --out-dir "$res" "$@"
	untouched
}
bench "--elem 24" 2 --elem 24 "$tmp/k32.ptx"
bench "a shape no buffer can hold" 2 --shapes 64x64,2147483647x2147483647 "$tmp/k32.ptx"
one_line "... one line" "2147483647x2147483647 elem=32: too large: the input needs"
bench "a malformed shape" 2 --shapes 64x64,5 "$tmp/k32.ptx"
bench "ld_in < cols" 2 --rows 5 --cols 10 --ld-in 4 "$tmp/k32.ptx"
bench "a file without metadata among good ones" 3 "$tmp/k32.ptx" "$tmp/plain.ptx"
one_line "... one line naming it" "plain.ptx: no ptxpose metadata"
bench "a missing file among good ones" 3 "$tmp/k32.ptx" "$tmp/missing.ptx"
bench "a FIFO among good ones" 3 "$tmp/k32.ptx" "$tmp/fifo.ptx"
bench "no file of the width asked for" 3 --elem 64 "$tmp/k32.ptx"
FAKECUDA_MEM=1000000 bench "where every case is too large for the device" 2 --shapes 4096x4096 "$tmp/k32.ptx"
grep -q "nothing was timed (every case was skipped or failed); .*/bench.md and bench.csv are left as they were" "$tmp/err" &&
	ok "... says the tables are left as they were" || { nok "... says so"; diag <"$tmp/err"; }
check "bench --out-dir '': exit 3" 3 $PX bench --iters 2 --out-dir '' "$tmp/k32.ptx"
one_line "... one line, before anything ran" "cannot write bench.md and bench.csv into '': the folder's name is empty"
check "bench --out-dir on a file: exit 3" 3 $PX bench --iters 2 --out-dir "$res/bench.md/x" "$tmp/k32.ptx"
one_line "... one line, before anything ran" "cannot write bench.md and bench.csv into .*: .*bench.md is not a folder"
untouched
rm "$res/bench.csv" && mkdir "$res/bench.csv"
check "bench where bench.csv cannot be replaced: exit 3" 3 $PX bench --iters 2 --no-cublas --out-dir "$res" --rows 64 --cols 64 "$tmp/k32.ptx"
grep -q "cannot write .*/bench.csv: .* (neither file changed)" "$tmp/err" && ok "... says neither file changed" ||
	{ nok "... says so"; diag <"$tmp/err"; }
grep -q "rows in .*bench.md and bench.csv" "$tmp/err" && { nok "... and does not claim it wrote them"; diag <"$tmp/err"; } ||
	ok "... and does not claim it wrote them"
[ "$(cat "$res/bench.md")" = "the committed bench.md" ] && [ "$(ls -a "$res" | wc -l)" -eq 4 ] &&
	ok "... bench.md keeps its old contents: both or neither" || { nok "... both or neither"; ls -a "$res" | diag; }
rmdir "$res/bench.csv"
check "bench with good inputs: exit 0" 0 $PX bench --iters 2 --no-cublas --out-dir "$res" --rows 64 --cols 64 "$tmp/k32.ptx"
grep -q '^| k | 32 | 64x64 | ' "$res/bench.md" && grep -q '^k,32,64,64,' "$res/bench.csv" &&
	ok "... writes both tables" || { nok "... writes both"; diag <"$tmp/err"; }
finish
