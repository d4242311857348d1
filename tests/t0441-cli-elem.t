#!/bin/sh
# One element-width rule (common/elem.h)
# for every --elem and every shape list's elem=: bits (32, and 032 alike
# everywhere), bytes with a unit (4B) or a type name (f32, bf16, c128); a
# refusal names the value and what is accepted; plan says which unit it read.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
k=tests/data/linear_b32.ptx   # a 32-bit kernel

for e in 32 032 4B f32 F32 i32 tf32; do
	check "plan --elem $e: 4-byte elements" 0 $PX plan --elem "$e" --rows 64 --cols 64
	grep -q "^problem: 64x64, 4-byte elements (--elem $e: " "$tmp/out" && ok "... and how it was read" ||
		{ nok "... and how it was read"; diag <"$tmp/out"; }
done
check "plan --elem 4B" 0 $PX plan --elem 4B --rows 64 --cols 64
grep -q "(--elem 4B: bytes)" "$tmp/out" && ok "... read as bytes" || nok "... read as bytes"
check "plan --elem bf16" 0 $PX plan --elem bf16 --rows 64 --cols 64
grep -q "2-byte elements (--elem bf16: a type name)" "$tmp/out" && ok "... 2 bytes, read as a type" || nok "... a type"
check "plan --elem c128" 0 $PX plan --elem c128 --rows 64 --cols 64
grep -q "16-byte elements (--elem c128: a type name)" "$tmp/out" && ok "... 16 bytes" || nok "... 16 bytes"
check "plan --elem 064 --cases: bits" 0 sh -c "printf -- '--elem 064 --rows 8 --cols 8\n--elem u8 --rows 8 --cols 8\n' >$tmp/c && $PX plan --cases $tmp/c"
grep -q "8-byte elements (--elem 064: bits)" "$tmp/out" && grep -q "1-byte elements (--elem u8: a type name)" "$tmp/out" &&
	ok "... each --cases line read the same way" || { nok "... each --cases line"; diag <"$tmp/out"; }
check "plan --json --elem 2B" 0 $PX plan --json --elem 2B --rows 8 --cols 8
grep -q '"elem_bytes":2,.*"elem_read":"2B: bytes"}' "$tmp/out" && ok "... the JSON problem says how --elem was read" ||
	{ nok "... elem_read in the JSON"; diag <"$tmp/out"; }
PTXPOSE_LIBCUDA=$PWD/build/fakecuda/libcuda.so.1 PTXPOSE_CACHE=off check "plan --measure --elem 4B (fake driver)" 0 \
	$PX plan --measure --elem 4B --rows 64 --cols 64
grep -q '^problem: 64x64, 4-byte elements (--elem 4B: bytes)' "$tmp/out" && ok "... says how --elem was read" ||
	{ nok "... --measure's problem line"; diag <"$tmp/out"; }

for e in 32x f32x 24 3B 32B 4b 0 '' -1; do
	check "plan --elem '$e': exit 2" 2 $PX plan --elem "$e" --rows 64 --cols 64
	one_line "... the value and what is accepted" "ptxpose plan: --elem '$e' is not an element width: give bits (8, 16, 32, 64, 128), bytes with a unit (1B, 2B, 4B, 8B, 16B) or a type (u8 "
done

# run and check read --elem as plan does
for e in 32 032 4B f32; do
	check "run FILE --elem $e --emulate: the file's width" 0 $PX run $k --elem "$e" --rows 5 --cols 7 --emulate
	check "check --elem $e --emulate: the file is not skipped" 0 $PX check --elem "$e" --emulate --shapes 5x7 $k
	grep -q '^ok 1 - linear_b32 5x7$' "$tmp/out" && ok "... it ran" || { nok "... it ran"; diag <"$tmp/out"; }
done
check "run FILE --elem f64: does not match the file" 2 $PX run $k --elem f64 --rows 5 --cols 7 --emulate
one_line "... says so in bits" "does not match .*elem=32"
check "run --elem f32x: exit 2" 2 $PX run $k --elem f32x --rows 5 --cols 7 --emulate
one_line "... one line" "ptxpose run: --elem 'f32x' is not an element width: give bits"
for e in 4B f32 032; do
	check "check --shapes 5x7:elem=$e: runs the 32-bit file" 0 $PX check --emulate --shapes "5x7:elem=$e" $k
	grep -q '^ok 1 - linear_b32 5x7$' "$tmp/out" && ok "... it ran" || { nok "... it ran"; diag <"$tmp/out"; }
done
check "check --shapes 5x7:elem=bf16: skips the 32-bit file" 3 $PX check --emulate --shapes "5x7:elem=bf16" $k
grep -q 'SKIP the shape is for elem=16' "$tmp/out" && ok "... saying so" || { nok "... saying so"; diag <"$tmp/out"; }
check "check --shapes 5x7:elem=f24: exit 2" 2 $PX check --emulate --shapes "5x7:elem=f24" $k
one_line "... the value and what is accepted" "bad shape '5x7:elem=f24': elem 'f24' is not an element width: give bits"
finish
