#!/bin/sh
# A library kernel's name wherever a command takes a FILE.ptx (cli/kernel_arg.c,
# one resolver for every command), run from a folder with no ptx/: check
# --emulate, run --emulate, bench on the fake driver and list take fast_b32
# and do what they do with ptx/fast_b32.ptx (sass: t0610); a kernel of
# $PTXPOSE_PTX is taken by its name too; a file of that name in the folder
# is read as the file it is (a path wins); a name that is neither gets one
# line naming it and pointing to `ptxpose list`, exit 3, from every command.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
need_ptx ptx/fast_b32.ptx
px=$PWD/$PX
root=$PWD
fake=$PWD/build/fakecuda/libcuda.so.1
mkdir "$tmp/away"
# away CMD...: ptxpose in a folder without ptx/
away() { (cd "$tmp/away" && "$px" "$@"); }
fakeaway() { (cd "$tmp/away" && PTXPOSE_LIBCUDA="$fake" "$px" "$@"); }

check "check --emulate fast_b32: exit 0" 0 away check --emulate --shapes 67x129,1x33 fast_b32
cp "$tmp/out" "$tmp/by-name"
(cd "$root" && "$px" check --emulate --shapes 67x129,1x33 ptx/fast_b32.ptx) | sed 's| ptx/fast_b32\.ptx | fast_b32 |' >"$tmp/by-path"
grep -q '^ok 2 - fast_b32 1x33$' "$tmp/by-name" && cmp -s "$tmp/by-name" "$tmp/by-path" &&
	ok "... the TAP of ptx/fast_b32.ptx, under the name given" || { nok "... the TAP differs"; diff "$tmp/by-path" "$tmp/by-name" | diag; }
check "run fast_b32 --emulate: exit 0" 0 away run fast_b32 --rows 67 --cols 129 --emulate
grep -q '^fast_b32 67x129 elem=32: PASS (emulated)$' "$tmp/out" && ok "... PASS" || { nok "... run's line"; diag <"$tmp/out"; }
check "bench fast_b32 on the fake driver: exit 0" 0 fakeaway bench --shapes 64x64 fast_b32
grep -q '^| fast_b32 | 32 | 64x64 |' "$tmp/out" && ok "... its row" || { nok "... no fast_b32 row"; diag <"$tmp/out"; }
check "list --no-sass fast_b32 skinny_wide_k8_b8: exit 0" 0 away list --no-sass fast_b32 skinny_wide_k8_b8
[ "$(awk 'NR > 1 {print $1}' "$tmp/out" | tr '\n' ' ')" = "fast_b32 skinny_wide_k8_b8 " ] &&
	ok "... their two rows" || { nok "... the rows"; diag <"$tmp/out"; }

# $PTXPOSE_PTX's kernels, by name
cp tests/data/linear_b32.ptx "$tmp/extra_linear_b32.ptx"
sed -i 's/\blinear_b32\b/extra_linear_b32/g' "$tmp/extra_linear_b32.ptx"
PTXPOSE_PTX=$tmp/extra_linear_b32.ptx check "run of a \$PTXPOSE_PTX kernel by name: exit 0" 0 away run extra_linear_b32 --rows 5 --cols 7 --emulate
grep -q '^extra_linear_b32 5x7 elem=32: PASS (emulated)$' "$tmp/out" && ok "... PASS" || { nok "... run's line"; diag <"$tmp/out"; diag <"$tmp/err"; }

# a file named as a kernel is read as the file it is
echo 'not PTX' >"$tmp/away/fast_b32"
check "a file named fast_b32 in the folder: read as that file (exit 3)" 3 away run fast_b32 --rows 3 --cols 3 --emulate
grep -q "^ptxpose run: fast_b32: " "$tmp/err" && ! grep -q 'no kernel of that name' "$tmp/err" &&
	ok "... the file's error: $(head -1 "$tmp/err")" || { nok "... not the file's error"; diag <"$tmp/err"; }
rm "$tmp/away/fast_b32"

# a name that is neither
why="fast_b33: no such file, and no kernel of that name among the library's (built in, \$PTXPOSE_PTX; see ptxpose list)"
check "run fast_b33: exit 3" 3 away run fast_b33 --rows 3 --cols 3 --emulate
one_line "... one line" "^ptxpose run: $why$"
check "bench fast_b33: exit 3" 3 fakeaway bench --shapes 64x64 fast_b33
one_line "... one line" "^ptxpose bench: $why$"
check "list fast_b32 fast_b33: exit 3, before anything is assembled" 3 away list fast_b32 fast_b33
one_line "... one line" "^ptxpose list: $why$"
check "sass fast_b33: exit 3" 3 away sass fast_b33
one_line "... one line" "^ptxpose sass: $why$"
check "check --emulate fast_b33: exit 3" 3 away check --emulate --shapes 1x1 fast_b33
grep -qx "not ok 1 - fast_b33 1x1" "$tmp/out" && grep -qx "# $why" "$tmp/out" &&
	ok "... not ok, the reason as a # line" || { nok "... check's TAP"; diag <"$tmp/out"; }
finish
