#!/bin/sh
# Messages that name what is wrong. A NUL in a --cases file,
# a FIFO or a folder given to --cases or --params, batch= out of range at
# either end, plan's "fitted from" line in full.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
k=tests/data/linear_b32.ptx
to() { timeout 20 "$@"; }   # a FIFO must never block: fails the test (124) instead of hanging it

printf -- '--elem 32 --rows 4\000 --cols 5\n' >"$tmp/nul.txt"
check "plan --cases with a NUL: exit 3" 3 to $PX plan --cases "$tmp/nul.txt"
one_line "... says so, not 'needs --cols C'" "ptxpose plan: --cases $tmp/nul.txt: line 1 holds a NUL byte: not a text file"
printf -- '--elem 32 --rows 4 --cols 5\n--elem 32 \000--rows 4 --cols 5\n' >"$tmp/nul2.txt"
check "... on line 2: exit 3" 3 to $PX plan --cases "$tmp/nul2.txt"
one_line "... naming the line" "nul2.txt: line 2 holds a NUL byte"
check "plan --params with a NUL: exit 3" 3 to $PX plan --elem 32 --rows 4 --cols 4 --params "$tmp/nul.txt"
one_line "... says so" "ptxpose plan: --params $tmp/nul.txt: line 1 holds a NUL byte"
mkfifo "$tmp/fifo"
check "plan --cases FIFO: exit 3, no hang" 3 to $PX plan --cases "$tmp/fifo"
one_line "... the reason" "ptxpose plan: --cases $tmp/fifo: not a regular file (a FIFO)"
check "plan --params FIFO: exit 3, no hang" 3 to $PX plan --elem 32 --rows 4 --cols 4 --params "$tmp/fifo"
one_line "... the reason" "ptxpose plan: --params $tmp/fifo: not a regular file (a FIFO)"
check "plan --cases DIR: exit 3" 3 to $PX plan --cases "$tmp"
one_line "... the reason" "not a regular file (a directory)"
check "plan --cases MISSING: exit 3" 3 to $PX plan --cases "$tmp/none"
one_line "... the reason" "cannot read: No such file or directory"

# batch=: one range, said the same way at either end
for b in 0 2147483648; do
	check "check --shapes 3x3:batch=$b: exit 2" 2 $PX check --emulate --shapes "3x3:batch=$b" $k
	one_line "... the range is 1 to 2147483647" "batch $b is out of range (1 to 2147483647)"
done

# plan's "fitted from" line: the header of lib/model_params.tsv, all of it
fitted=$(sed -n 's/^# fitted from: //p' lib/model_params.tsv)
check "plan --elem 32" 0 $PX plan --elem 32 --rows 64 --cols 64
got=$(sed -n 's/^model: .*, fitted from: //p' "$tmp/out")
[ -n "$fitted" ] && [ "$got" = "$fitted" ] && ok "... its 'fitted from' line whole (${#fitted} characters)" ||
	{ nok "... its 'fitted from' line, cut?"; echo "got ${#got}, fitted ${#fitted}" | diag; }
finish
