#!/bin/sh
# One table of shape flags (cli/opts_shape.c) with one help
# text, shared by run, check, bench and plan; each command takes its subset;
# the element-width rule written once (common/elem.h).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
k=tests/data/linear_b32.ptx

# The help lines of the flags every one of the four takes, the same text in each
for c in run check bench plan; do
	$PX $c --help >"$tmp/$c.help" 2>&1
	sed -n '/^  --rows R, --cols C/,/^  --elem W/p' "$tmp/$c.help" >"$tmp/$c.shape"
done
[ -s "$tmp/run.shape" ] && grep -q -- '--stride-in S, --stride-out S' "$tmp/run.shape" &&
	ok "run --help: the shape flags' lines" || { nok "run --help: the shape flags' lines"; diag <"$tmp/run.help"; }
for c in check bench plan; do
	diff -u "$tmp/run.shape" "$tmp/$c.shape" >"$tmp/diff" && ok "$c --help: the same shape text as run's" ||
		{ nok "$c --help: the same shape text as run's"; diag <"$tmp/diff"; }
done
grep -q -- '--offset N' "$tmp/run.help" && grep -q -- '--align-in/--align-out' "$tmp/plan.help" &&
	! grep -q -- '--align-in' "$tmp/run.help" && ! grep -q -- '--offset N' "$tmp/check.help" &&
	ok "... each its subset: --offset for run and plan, --align-in for plan" || nok "... each its subset"

# Each command takes its subset, and no more
check "check --offset 1: exit 2" 2 $PX check --emulate --rows 3 --cols 3 --offset 1 $k
one_line "... an unknown flag there" "ptxpose check: unknown flag '--offset'"
check "run --align-in 4: exit 2" 2 $PX run $k --rows 3 --cols 3 --align-in 4 --emulate
one_line "... an unknown flag there" "ptxpose run: unknown flag '--align-in'"
check "bench --offset=1: exit 2" 2 $PX bench --rows 3 --cols 3 --offset=1 $k
one_line "... an unknown flag there" "ptxpose bench: unknown flag '--offset=1'"

# Both forms, and a shape flag given twice in any form, as for every flag
check "run --rows=3 --cols 5 --ld-in=6 --batch=2: exit 0" 0 $PX run $k --rows=3 --cols 5 --ld-in=6 --batch=2 --emulate
grep -q '3x5 ld_in=6 batch=2 .*PASS' "$tmp/out" && ok "... the shape read from both forms" ||
	{ nok "... the shape read from both forms"; diag <"$tmp/out"; }
for c in "run $k --emulate" "check --emulate $k" "plan --elem 32"; do
	check "${c%% *}: --cols 3 --cols=4: exit 2" 2 $PX $c --rows 3 --cols 3 --cols=4
	one_line "... given twice" "ptxpose ${c%% *}: --cols given twice"
done

# plan takes numbers of any size and lets the problem's check name them;
# run checks its flags' ranges itself (the messages before the one table)
check "plan --rows 0: exit 2" 2 $PX plan --elem 32 --rows 0 --cols 4
one_line "... the problem's check" "ptxpose plan: rows 0 is out of range (1 to 2147483647)"
check "run --rows 0: exit 2" 2 $PX run $k --rows 0 --cols 4 --emulate
one_line "... the flag's range" "ptxpose run: --rows: expected an integer from 1 to 2147483647, got '0'"
check "plan --offset 3 --elem 16: exit 0" 0 $PX plan --elem 16 --rows 64 --cols 64 --offset 3
grep -q 'pointers aligned to 2 and 2 bytes' "$tmp/out" && ok "... the offset's alignment" ||
	{ nok "... the offset's alignment"; diag <"$tmp/out"; }

# The width rule: written in common/elem.{c,h} alone, its lists in messages
# too (gen/'s vec, a vector's elements, is another fact; inspect/ counts SASS access widths,
# another fact; rig/cublas.c's geam types are geam's)
grep -rnE -e '"[^"]*(8, 16, 32, 64 or 128|1, 2, 4, 8 or 16)' -e '[!=]= 8 (\|\||&&) [a-z_>.()-]* [!=]= 16' \
	-e '[!=]= 1 (\|\||&&) [a-z_>.()-]* [!=]= 2 ' --include='*.c' --include='*.h' cli common lib loader rig inspect emu gen |
	grep -v -e '^common/elem\.[ch]:' -e '^gen/tp\.c:.*vec' >"$tmp/rule"
[ ! -s "$tmp/rule" ] && ok "the width rule only in common/elem.{c,h}" ||
	{ nok "the width rule only in common/elem.{c,h}"; diag <"$tmp/rule"; }
finish
