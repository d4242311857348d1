#!/bin/sh
# On a CUDA GPU: every kernel in ptx/ verified over the default GPU shapes
# (check's TAP passed through), a hand-written kernel, a JIT failure with its
# log, wrong results and writes past the end caught, a faulting kernel
# survived, the timing line and a small bench with its cuBLAS rows.
# Without a device: `1..0 # SKIP no CUDA device`.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
# The plain build: ASan's shadow memory and the CUDA driver do not mix
# (PTXPOSE=build/asan/ptxpose needs ASAN_OPTIONS=protect_shadow_gap=0).
PX=${PTXPOSE:-build/ptxpose}
need_ptxpose
need_gpu
k=tests/data/linear_b32.ptx
need_ptx ptx/*.ptx

$PX check ptx/*.ptx >"$tmp/tap" 2>"$tmp/err"
rc=$?
passthrough "$tmp/tap"
[ $rc -eq 0 ] && ok "check ptx/*.ptx exits 0" || { nok "check ptx/*.ptx exits 0 (exit $rc)"; diag <"$tmp/err"; }
$PX check $k >"$tmp/tap" 2>"$tmp/err"
passthrough "$tmp/tap"

sed 's/st.global.b32           \[%addr\], %val;/st.global.b32           [%addr], %idx;/' $k >"$tmp/wrong.ptx"
sed 's/st.global.b32           \[%addr\], %val;/st.global.b32           [%addr+4], %val;/' $k >"$tmp/overrun.ptx"
sed '/add.u64                 %addr, %addr, %out;/d' $k >"$tmp/fault.ptx"
sed 's/ret;/bogus.u32 %val, %val;\n\tret;/' $k >"$tmp/bogus.ptx"

check "PTX that does not assemble: exit 5" 5 $PX run "$tmp/bogus.ptx" --rows 64 --cols 64
head -1 "$tmp/err" | grep -q '^ptxpose run: loader/jit.c:[0-9]*: cuModuleLoadDataEx: CUDA_ERROR_[A-Z_]* (.*)$' &&
	ok "... first line: file:line: call: error (description)" || { nok "... first line"; diag <"$tmp/err"; }
grep -q '^JIT error log:$' "$tmp/err" && grep -qi 'error' "$tmp/err" && grep -q 'bogus' "$tmp/err" &&
	ok "... then ptxas's error log, naming the bad instruction" || { nok "... the JIT log"; diag <"$tmp/err"; }
check "a wrong value: exit 1" 1 $PX run "$tmp/wrong.ptx" --rows 67 --cols 129 --no-time
grep -q 'FAIL out\[j=0\]\[i=0\]: got 0x00000000, want ' "$tmp/out" && ok "... the first wrong element" || { nok "... FAIL line"; diag <"$tmp/out"; }
check "a write past the end of out: exit 1" 1 $PX run "$tmp/overrun.ptx" --rows 67 --cols 129 --no-time
grep -q 'wrote outside out: first changed byte at offset 34572 ' "$tmp/out" && ok "... caught by the guard after out" || { nok "... guard"; diag <"$tmp/out"; }
check "a kernel that faults: exit 5" 5 $PX run "$tmp/fault.ptx" --rows 64 --cols 64
grep -q 'cuCtxSynchronize after linear_b32: CUDA_ERROR_' "$tmp/err" && ok "... the driver's error, after the kernel" || { nok "... fault"; diag <"$tmp/err"; }
check "check: a faulting kernel, then a good one: exit 5" 5 $PX check --shapes 100x100,31x33 "$tmp/fault.ptx" $k
# After an illegal address the driver may keep the error for the process: then
# the next file must be reported not run, with the reason, never passed over.
if grep -qx 'ok 3 - linear_b32 100x100' "$tmp/out" && grep -qx 'ok 4 - linear_b32 31x33' "$tmp/out"; then
	ok "... the device is reset and the next file passes"
elif grep -qx 'not ok 3 - linear_b32 100x100' "$tmp/out" && grep -q '^# not run: the device is unusable in this process' "$tmp/out"; then
	ok "... the fault is sticky: the next file is reported not run, with the reason"
else
	nok "... after the fault"; diag <"$tmp/out"; diag <"$tmp/err"
fi

f32=$(grep -l ' elem=32 ' ptx/*.ptx | head -1)
f64=$(grep -l ' elem=64 ' ptx/*.ptx | head -1)
check "run $f32 4096x4096, timed" 0 $PX run "$f32" --rows 4096 --cols 4096
grep -q '^[A-Za-z0-9_]* 4096x4096 elem=32: PASS  [0-9.]* us  [0-9.]* GB/s  [0-9.]*% of copy (copy [0-9.]* GB/s)  \[.*\]$' "$tmp/out" &&
	ok "... the result line" || { nok "... the result line"; diag <"$tmp/out"; }
diag <"$tmp/out"
check "bench: small shapes, a 32- and a 64-bit file, exit 0" 0 $PX bench --iters 5 --out-dir "$tmp/b" \
	--shapes 1000x999,67x129:ld_in=132:ld_out=72 $k "$f32" "$f64"
md="$tmp/b/bench.md"
grep -q '^| copy | 32 | 1000x999 | [0-9.]* | [0-9.]* | 100.0% |' "$md" && ! grep -q '| FAIL |\|| ERROR |' "$md" &&
	ok "... bench.md: copy rows, no FAIL or ERROR" || { nok "... bench.md"; diag <"$md"; }
if grep -q '^- cublas_geam: not measured' "$md"; then
	ok "# SKIP no cuBLAS: $(grep '^- cublas_geam' "$md")"
else
	[ "$(grep -c '^| cublas_geam | [0-9]* | [^|]* | [0-9.]* |' "$md")" -eq 4 ] &&
		ok "... cublas_geam verified bit-exactly and timed for 32 and 64 bits" || { nok "... cublas_geam rows"; diag <"$md"; }
fi
diag <"$md"
finish
