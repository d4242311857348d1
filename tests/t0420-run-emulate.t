#!/bin/sh
# run --emulate and check --emulate: exact-size buffers, the same fill,
# poison and bit-exact comparison as on the GPU, and the emulator's verdicts
# turned into exit codes (wrong 1, cannot run it 3, fault 8). The kernel is
# tests/data/linear_b32.ptx, written by hand, and mutants of it.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
export ASAN_OPTIONS=detect_leaks=1
k=tests/data/linear_b32.ptx
sed 's/st.global.b32           \[%addr\], %val;/st.global.b32           [%addr], %idx;/' $k >"$tmp/wrong.ptx"
sed 's/@%past bra              DONE;//' $k >"$tmp/oob.ptx"
sed 's/shl.b64                 %addr, %addr, 2;/shl.b64                 %addr, %addr, 3;/' $k >"$tmp/stride.ptx"
sed 's/ret;/bogus.u32 %val, %val;\n\tret;/' $k >"$tmp/unsupported.ptx"
for f in wrong oob stride unsupported; do
	cmp -s $k "$tmp/$f.ptx" && { nok "the $f mutant differs from the kernel"; finish; }
done

check "run --emulate: passes" 0 $PX run $k --rows 67 --cols 129 --ld-in 131 --ld-out 70 --emulate
grep -qx 'linear_b32 67x129 ld_in=131 ld_out=70 elem=32: PASS (emulated)' "$tmp/out" && ok "... the PASS line" || nok "... the PASS line"
check "run --emulate: a wrong value: exit 1" 1 $PX run "$tmp/wrong.ptx" --rows 31 --cols 33 --emulate
grep -q '^linear_b32 31x33 elem=32: FAIL out\[j=0\]\[i=0\]: got 0x00000000, want 0x[0-9a-f]* (1023 of 1023 elements wrong) (seed 1)$' "$tmp/out" &&
	ok "... the first wrong element, got and want" || { nok "... the FAIL line"; diag <"$tmp/out"; }
check "run --emulate: an out-of-bounds read: exit 8" 8 $PX run "$tmp/oob.ptx" --rows 31 --cols 33 --emulate
one_line "... the emulator's one line, naming the file" "ptxpose run: .*oob.ptx: emulator: "
check "run --emulate: elements 8 bytes apart: exit 8 (the store leaves out)" 8 $PX run "$tmp/stride.ptx" --rows 31 --cols 33 --emulate
check "run --emulate: an instruction outside the subset: exit 3" 3 $PX run "$tmp/unsupported.ptx" --rows 4 --cols 4 --emulate
one_line "... one line naming the file" "ptxpose run: .*unsupported.ptx: emulator: "
check "run --emulate with --seed: passes" 0 $PX run $k --rows 5 --cols 300 --seed 123456789 --emulate
check "run --emulate: a batch with gaps, pointers off alignment" 0 $PX run $k --rows 33 --cols 31 --batch 3 \
	--stride-in 1100 --stride-out 1200 --offset 1 --emulate
grep -qx 'linear_b32 33x31 offset=1 batch=3 stride_in=1100 stride_out=1200 elem=32: PASS (emulated)' "$tmp/out" &&
	ok "... the PASS line names the batch" || { nok "... the PASS line"; diag <"$tmp/out"; }
PTXPOSE_GRID_MAX=1x1x1 check "run --emulate on one block (PTXPOSE_GRID_MAX=1x1x1): the kernel walks the rest" 0 \
	$PX run $k --rows 33 --cols 31 --batch 3 --emulate
check "check --emulate: the default emulator shapes pass" 0 $PX check --emulate $k
[ "$(grep -c '^ok ' "$tmp/out")" -eq 14 ] && grep -qx 'ok 7 - linear_b32 67x129 ld_in=132 ld_out=72' "$tmp/out" &&
	grep -qx 'ok 11 - linear_b32 144x160' "$tmp/out" && grep -q '^ok 14 - linear_b32 7x6x5:perm=1,0,2:offset=1 # SKIP' "$tmp/out" &&
	ok "... 14 shapes, three with padded leading dimensions, two N-d" || { nok "... 14 shapes"; diag <"$tmp/out"; }
check "check --emulate: a fault and a wrong value: exit 8 (a fault outranks a wrong result)" 8 $PX check --emulate --shapes 4x4 "$tmp/wrong.ptx" "$tmp/oob.ptx" $k
grep -qx 'not ok 1 - linear_b32 4x4' "$tmp/out" && grep -qx 'not ok 2 - linear_b32 4x4' "$tmp/out" && grep -qx 'ok 3 - linear_b32 4x4' "$tmp/out" &&
	grep -q '^# out\[j=0\]\[i=0\]: got 0x00000000' "$tmp/out" && grep -q '^# emulator: ' "$tmp/out" &&
	ok "... each explained in # lines, the good file still ok" || { nok "... TAP"; diag <"$tmp/out"; }
check "check --emulate: outside the subset: exit 3" 3 $PX check --emulate --shapes 2x2 "$tmp/unsupported.ptx"
finish
