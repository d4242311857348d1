#!/bin/sh
# `ptxpose run --elem E --rows R --cols C` with no file: the selection table
# picks the kernel (checked here in the emulator, so it runs without a GPU).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
PX=build/asan/ptxpose
check "bytes at an odd shape: a kernel is picked and passes" 0 $PX run --elem 8 --rows 1001 --cols 1003 --emulate
grep -q 'PASS (emulated)' "$tmp/out" && ok "... it passes" || { nok "... it passes"; diag <"$tmp/out"; }
grep -q '^ptxpose run: picked narrow_b8 from .*select.tsv (measured on ' "$tmp/err" &&
	ok "... the narrow kernel, and the table and its device are named" || { nok "... which kernel"; diag <"$tmp/err"; }
printf '# measured on a test\n32 64 64 naive_2d_b32 50\n32 63 65 naive_1d_b32 40\n' >"$tmp/sel.tsv"
PTXPOSE_SELECT="$tmp/sel.tsv" check "PTXPOSE_SELECT: an aligned pitch" 0 $PX run --elem 32 --rows 100 --cols 96 --emulate
grep -q 'picked naive_2d_b32' "$tmp/err" && ok "... picks the aligned measurement" || { nok "... aligned"; diag <"$tmp/err"; }
PTXPOSE_SELECT="$tmp/sel.tsv" check "PTXPOSE_SELECT: a pitch of 97 elements" 0 $PX run --elem 32 --rows 100 --cols 96 --ld-in 97 --emulate
grep -q 'picked naive_1d_b32' "$tmp/err" && ok "... picks the misaligned measurement" || { nok "... misaligned"; diag <"$tmp/err"; }
PTXPOSE_SELECT="$tmp/sel.tsv" check "PTXPOSE_SELECT: pointers one element off alignment" 0 $PX run --elem 32 --rows 100 --cols 96 --offset 1 --emulate
grep -q 'picked naive_1d_b32' "$tmp/err" && ok "... picks the misaligned measurement" || { nok "... offset"; diag <"$tmp/err"; }
PTXPOSE_SELECT="$tmp/sel.tsv" check "no row for the width: exit 3" 3 $PX run --elem 64 --rows 10 --cols 10 --emulate
one_line "... one line naming the width" "no kernel for 64-bit elements"
PTXPOSE_SELECT="$tmp/none.tsv" check "an unreadable table: exit 3" 3 $PX run --elem 32 --rows 10 --cols 10 --emulate
one_line "... one line naming it" "cannot read the selection table"
check "--elem 48: exit 2" 2 $PX run --elem 48 --rows 10 --cols 10 --emulate
one_line "... one line" "not an element width"
check "neither a file nor --elem: exit 2" 2 $PX run --rows 10 --cols 10
finish
