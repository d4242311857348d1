#!/bin/sh
# ptxpose plan --measure and run --measure on the fake driver (tests/fakecuda,
# whose event clock times every kernel at its "fakecuda: speed"): every
# candidate with its predicted and measured time, the winner the fastest, a
# second call from the on-disk cache, JSON, run --measure taking the
# library's measured plan; the cache switched off. The GPU test is t0520.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
. tests/lib/fakecuda.sh
export PTXPOSE_CACHE="$tmp/cache"
P="--elem 32 --rows 300 --cols 301"
check "plan --measure: exit 0" 0 $PX plan --measure $P
grep -q '^measured: [0-9]* of [0-9]* candidates timed in [0-9.]* ms (budget 200 ms): events around 5 runs of back-to-back launches' "$tmp/out" &&
	grep -q '^choice: [a-z0-9_]*  [0-9.]* us measured  ([0-9.]* us predicted)  grid ' "$tmp/out" &&
	grep -q '^why: the fastest measured' "$tmp/out" && ok "... what was timed, the choice, why" || { nok "... text"; diag <"$tmp/out"; }
rows=$(grep -c '^ *[0-9][0-9]*  [a-z]' "$tmp/out")
ncand=$(sed -n 's/^measured: [0-9]* of \([0-9]*\) candidates.*/\1/p' "$tmp/out")
[ "$rows" -ge 2 ] && ok "... a row per candidate ($rows)" || { nok "... rows"; diag <"$tmp/out"; }
choice=$(sed -n 's/^choice: \([a-z0-9_]*\) .*/\1/p' "$tmp/out")
check "... again: exit 0" 0 $PX plan --measure $P --json
python3 - "$tmp/out" "$choice" >"$tmp/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "ptxpose-plan-measure 1" and d["from_cache"] is True and d["measure_ms"] == 0, d
assert d["choice"] == sys.argv[2], (d["choice"], sys.argv[2])
timed = [c["measured_us"] for c in d["candidates"] if c["measured_us"] is not None]
assert len(timed) == d["timed"] >= 2 and d["measured_us"] == min(timed), d
PY
[ $? -eq 0 ] && ok "... from the cache, the same choice, the least measured time (JSON)" || { nok "... JSON"; diag <"$tmp/py"; }
ls "$tmp/cache"/plan-*.bin >/dev/null 2>&1 && ok "... the entry is in \$PTXPOSE_CACHE" || nok "... the entry"
check "plan --measure --budget-ms 1 --no-cache" 0 $PX plan --measure $P --budget-ms 1 --no-cache
grep -q '^measured: .*(budget 1 ms)' "$tmp/out" && ok "... measured (not from the cache), within its budget" || { nok "... no cache"; diag <"$tmp/out"; }
printf 'junk' >"$(ls "$tmp/cache"/plan-*.bin)"
check "plan --measure -v over a bad entry: exit 0" 0 $PX plan --measure $P -v
grep -q '^# cache: .*plan-.*\.bin: ignored: truncated' "$tmp/err" && grep -q '^measured: [0-9]* of' "$tmp/out" &&
	ok "... noted under -v, measured again" || { nok "... bad entry"; diag <"$tmp/err"; }
# a starved measurement is not kept for good; a FIFO where the entry belongs
# does not hang the plan
export PTXPOSE_CACHE="$tmp/cache2"
check "plan --measure --budget-ms 1: exit 0" 0 $PX plan --measure $P --budget-ms 1
grep -q "^measured: [0-9] of $ncand candidates timed" "$tmp/out" && ok "... not every candidate timed ($ncand candidates)" || { nok "... budget"; diag <"$tmp/out"; }
check "plan --measure -v, 200 ms given: exit 0" 0 $PX plan --measure $P -v
grep -q "^# cache: a measured plan for .* ignored: [0-9] of $ncand candidates were timed within 1 ms, and 200 ms are given now; measuring again\$" "$tmp/err" &&
	grep -q "^measured: $ncand of $ncand candidates timed" "$tmp/out" && ok "... measured again, every candidate" || { nok "... starved entry"; diag <"$tmp/err"; diag <"$tmp/out"; }
entry=$(ls "$tmp/cache2"/plan-*.bin) && rm -f "$entry" && mkfifo "$entry"
check "plan --measure -v, a FIFO at the entry's path: exit 0 (no hang)" 0 timeout 20 $PX plan --measure $P -v
grep -q '^# cache: .*plan-.*\.bin: ignored: not a regular file' "$tmp/err" && ok "... noted under -v" || { nok "... FIFO"; diag <"$tmp/err"; }
# a candidate that links but cannot be prepared (its entry is not found) is
# skipped, and the others are timed
sed 's/cute_naive_write_b32/%cnw_b32/g' ptx/cute_naive_write_b32.ptx >"$tmp/pct.ptx"
# (a budget that every candidate fits in, so that a loaded machine does not
# stop the measuring before the broken candidate's turn)
PTXPOSE_CACHE=off PTXPOSE_PTX="$tmp/pct.ptx" check "plan --measure, a candidate whose entry is missing: exit 0" 0 \
	$PX plan --measure --elem 32 --rows 3000 --cols 3001 --budget-ms 60000
grep -q '^ *[0-9]*  %cnw_b32 .*(it could not be prepared)$' "$tmp/out" && grep -q '^choice: [a-z]' "$tmp/out" &&
	! grep -q -- '-1.00 us measured' "$tmp/out" && ok "... skipped with the reason, another chosen" || { nok "... unprepared"; diag <"$tmp/out"; }
# a candidate whose launch the driver refuses (out of resources) is skipped
# too; the others are timed
{ cat ptx/cute_naive_write_b32.ptx; echo '// fakecuda: refuse'; } >"$tmp/refused.ptx"
PTXPOSE_CACHE=off PTXPOSE_PTX="$tmp/refused.ptx" check "plan --measure, a candidate whose launch is refused: exit 0" 0 \
	$PX plan --measure $P --budget-ms 60000
grep -q '^ *[0-9]*  cute_naive_write_b32 .*(its launch failed)$' "$tmp/out" && grep -q '^choice: [a-z]' "$tmp/out" &&
	! grep -q '^choice: cute_naive_write_b32 ' "$tmp/out" && ok "... skipped with the reason, another chosen" ||
	{ nok "... refused launch"; diag <"$tmp/out"; }
export PTXPOSE_CACHE="$tmp/cache"
check "plan --measure: one row is a copy" 0 $PX plan --measure --elem 16 --rows 1 --cols 4096
grep -q '^choice: copy .*not measured' "$tmp/out" && ok "... not measured" || { nok "... copy"; diag <"$tmp/out"; }
PTXPOSE_CACHE=off check "run --measure: exit 0" 0 $PX run $P --measure --no-time
grep -q '^ptxpose run: picked [a-z0-9_]* by measuring: [0-9.]* us a launch, [0-9]* candidates timed just now$' "$tmp/err" &&
	grep -q ': PASS  \[Fake CUDA Device 0\]$' "$tmp/out" && ok "... the measured plan verifies" || { nok "... run"; diag <"$tmp/err"; diag <"$tmp/out"; }
check "run --measure FILE.ptx: exit 2" 2 $PX run tests/data/linear_b32.ptx --rows 4 --cols 4 --measure
one_line "... one line" "--measure: the library's measured plan, on a GPU and without FILE.ptx"
# plan without --measure describes the GPU present, as the library's plans
# do, and takes its table: the fake device, then the same named an H200;
# --device or a device flag give the built-in device instead
check "plan on the fake GPU: exit 0" 0 $PX plan --elem 32 --rows 64 --cols 64
grep -q '^device: Fake CUDA Device 0 (the GPU present): 4 SMs' "$tmp/out" &&
	grep -q "^model: H100 (.*no model fitted for 'Fake CUDA Device 0'" "$tmp/out" &&
	ok "... the GPU present described, the H100 table its fallback" || { nok "... fake GPU"; diag <"$tmp/out"; }
FAKECUDA_NAME="NVIDIA H200" check "plan on a GPU named NVIDIA H200: exit 0" 0 $PX plan --elem 32 --rows 64 --cols 64
grep -q '^device: NVIDIA H200 (the GPU present)' "$tmp/out" && grep -q '^model: H200 (lib/model_params_h200.tsv' "$tmp/out" &&
	ok "... the H200's table, named" || { nok "... H200"; diag <"$tmp/out"; }
FAKECUDA_NAME="NVIDIA H200" check "plan --device h100 on it: exit 0" 0 $PX plan --device h100 --elem 32 --rows 64 --cols 64
grep -q '^device: NVIDIA H100 80GB HBM3 (built in): 132 SMs' "$tmp/out" && grep -q '^model: H100 ' "$tmp/out" &&
	ok "... the built-in H100, as asked" || { nok "... --device"; diag <"$tmp/out"; }
check "plan --sm-count 100 on it: exit 0" 0 $PX plan --sm-count 100 --elem 32 --rows 64 --cols 64
grep -q '^device: NVIDIA H100 80GB HBM3 (built in, modified): 100 SMs' "$tmp/out" &&
	ok "... a described device is the built-in one, modified" || { nok "... --sm-count"; diag <"$tmp/out"; }
finish
