#!/bin/sh
# ptxpose plan: the heuristic's choices on a fixed list of problems with fake
# device properties (golden files), the report, JSON and --cases, and bad
# input (one line, the documented exit code). No GPU.
#
# After a deliberate change of the model or a refit, regenerate the goldens:
#   sh tests/t0901-plan-cli.t --regen
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
need_ptx ptx/fast_b32.ptx

CASES=tests/data/plan-cases.txt
# one line per case: the problem and the choice
choices() {
	python3 -c '
import json, sys
for c in json.load(sys.stdin)["cases"]:
    p = c["problem"]
    print("%dx%d elem_bytes=%d ld=%d/%d batch=%d align=%d/%d: %s%s" % (p["rows"], p["cols"], p["elem_bytes"],
          p["ld_in"], p["ld_out"], p["batch"], p["align_in"], p["align_out"], c["choice"],
          " (unsure)" if c["unsure"] else ""))'
}
FAKE="--sm-count 100 --l2 41943040 --bw 2000 --threads-per-sm 1536 --smem-per-sm 167936"
# The goldens plan over the files of ptx/ (registers estimated from the
# data a thread holds), so that they do not depend on whether ptxas was there
# when the library was built (the built-in kernels carry its counts).
fixed() { $PX plan --cases $CASES --json --params tests/data/plan-params.tsv $FAKE ptx; }
builtin() { $PX plan --cases $CASES --json --device h100 ptx; }
tiny() { $PX plan --cases tests/data/plan-cases-tiny.txt --json --device h200 ptx; }
if [ "$1" = --regen ]; then
	fixed | choices >tests/data/plan-choices-fixed.txt
	builtin | choices >tests/data/plan-choices-h100.txt
	tiny | choices >tests/data/plan-choices-h200-tiny.txt
	echo "regenerated tests/data/plan-choices-*.txt"
	exit 0
fi

golden() {
	if [ $? -eq 0 ] && diff -u "$2" "$tmp/got" >"$tmp/diff"; then
		ok "$1"
	else
		nok "$1"
		diag <"$tmp/diff"
	fi
}
fixed 2>"$tmp/err" | choices >"$tmp/got"
golden "choices with a fixed table on a fake device (100 SMs, 40 MiB L2, 2000 GB/s)" tests/data/plan-choices-fixed.txt
builtin 2>"$tmp/err" | choices >"$tmp/got"
golden "choices with the built-in model on the built-in H100" tests/data/plan-choices-h100.txt
tiny 2>"$tmp/err" | choices >"$tmp/got"
golden "the tiny set's batches with the built-in H200 model" tests/data/plan-choices-h200-tiny.txt
fixed >"$tmp/a" 2>&1
fixed >"$tmp/b" 2>&1
cmp -s "$tmp/a" "$tmp/b" && ok "the same input gives the same output, byte for byte" || nok "deterministic"

# the text report
check "a plan: exit 0" 0 $PX plan --elem 8 --rows 8191 --cols 8193
grep -q '^choice: [a-z_0-9]*  [0-9.]* us predicted  grid [0-9]*x[0-9]*x1  block ' "$tmp/out" &&
	ok "... the choice, its time, grid and block" || { nok "... choice"; diag <"$tmp/out"; }
grep -Eq '^(sure|unsure): ' "$tmp/out" && grep -q '^why: ahead of ' "$tmp/out" &&
	ok "... why it won, and whether the model is sure" || { nok "... why"; diag <"$tmp/out"; }
# abi=3 kernels (N-d batches) never for 2-D; op=copy (a row copy) no transpose's candidate; flat ones only
# for packed batches of small matrices; study kernels (study=1) only when named;
# fast_k kernels only where K x es is a multiple of it (not 8191 bytes)
nk=$(grep -l '^// ptxpose kernel=[a-z_0-9]* abi=2 elem=' ptx/*_b8.ptx |
	xargs grep -L -e '^// ptxpose .* grid=flat ' -e '^// ptxpose .* study=1' -e '^// ptxpose .* fast_k=' | wc -l)
[ "$(grep -c '^ *[0-9][0-9]*  [a-z]' "$tmp/out")" -eq "$nk" ] && ok "... a row per 8-bit transpose kernel of ABI v2 built in, as in ptx/, but flat, study or fast_k ($nk)" ||
	{ nok "... rows"; diag <"$tmp/out"; }
grep -q '^choice: .*(built in)$' "$tmp/out" && ok "... the library's built-in kernels, with no files given" ||
	{ nok "... built in"; diag <"$tmp/out"; }
# the identity on memory: a copy, and why
# a tile larger than the device's shared memory is no candidate (64 KB of
# fast_t256x256_b8 and the per-block reserve do not fit in 64 KB an SM)
check "a plan on a device of 65536 B shared memory an SM: exit 0" 0 $PX plan --elem 8 --rows 16384 --cols 16384 --smem-per-sm 65536
grep -q 'fast_t256x256_b8' "$tmp/out" && { nok "... still ranks the 64 KB tile"; diag <"$tmp/out"; } ||
	ok "... leaves out the 64 KB tile that cannot launch there"
check "... 233472 B an SM: exit 0" 0 $PX plan --elem 8 --rows 16384 --cols 16384 --smem-per-sm 233472
grep -q 'fast_t256x256_b8' "$tmp/out" && ok "... ranks it" || { nok "... does not rank it"; diag <"$tmp/out"; }
check "one row, ld_out 1: exit 0" 0 $PX plan --elem 32 --rows 1 --cols 100000
grep -q '^choice: copy  [0-9.]* us predicted  cuMemcpyDtoDAsync of 400000 bytes, no kernel$' "$tmp/out" &&
	grep -q '^why: the transpose is the identity on memory (one row and ld_out 1: out\[k\] = in\[k\] for all 100000 elements)' "$tmp/out" &&
	ok "... the plan copies, and says why" || { nok "... copy"; diag <"$tmp/out"; }
check "one column, ld_in 3: exit 0" 0 $PX plan --elem 32 --rows 1000 --cols 1 --ld-in 3 --json
grep -q '"choice":"copy"' "$tmp/out" && nok "... no copy: the input is spread out" || ok "... no copy: the input is spread out"
$PX plan --cases $CASES --json --device h100 2>"$tmp/err" | choices >"$tmp/got"
[ "$(wc -l <"$tmp/got")" -eq "$(grep -c '^--' $CASES)" ] && ok "every case planned over the built-in kernels (ptxas's registers)" ||
	{ nok "... built-in cases"; diag <"$tmp/err"; }
check "--features" 0 $PX plan --elem 32 --rows 130 --cols 130 --features ptx/fast_b32.ptx ptx/narrow_b32.ptx
grep -q '^fast_b32: tiles 9 (4 interior, 5 edge)' "$tmp/out" && grep -q '^  x: launch 1 waves' "$tmp/out" &&
	ok "... every feature of the files given" || { nok "... features"; diag <"$tmp/out"; }
check "a folder of kernels" 0 $PX plan --elem 64 --rows 100 --cols 100 ptx
PTXPOSE_PTX=tests/data check "\$PTXPOSE_PTX: a folder of kernels added to the built-in ones" 0 $PX plan --elem 32 --rows 100 --cols 100 --json
grep -q '"kernel":"linear_b32","file":"PTXPOSE_PTX: tests/data/linear_b32.ptx"' "$tmp/out" &&
	grep -q '"kernel":"fast_b32","file":"built in"' "$tmp/out" && ok "... its kernel among the candidates, and the built-in ones" ||
	{ nok "... PTXPOSE_PTX"; diag <"$tmp/out"; }

# JSON and --cases
printf '# two problems\n--elem 16 --rows 3 --cols 100000\n\n--elem 128 --rows 64 --cols 64 --batch 3 --stride-in 5000\n' >"$tmp/cases"
check "--cases --json --features" 0 $PX plan --device h100 --cases "$tmp/cases" --json --features
python3 - "$tmp/out" >"$tmp/py" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "ptxpose-plan 1" and d["device"]["sms"] == 132, d["device"]
a, b = d["cases"]
assert a["problem"]["rows"] == 3 and b["problem"]["batch"] == 3 and b["problem"]["stride_in"] == 5000
for c in d["cases"]:
    # fastest first, the small-dimension kernels past their K range and the unfitted after the rest
    us = [(k.get("beyond_range", False) or k.get("unfitted", False), k["us"]) for k in c["candidates"]]
    assert us == sorted(us) and c["choice"] == c["candidates"][0]["kernel"], us
    for k in c["candidates"]:
        assert abs(sum(k["contrib"].values()) - k["us"]) <= 1e-6 * k["us"], k
        assert set(k["features"]["x"]) == set(k["contrib"]), k
EOF
[ $? -eq 0 ] && ok "... two cases, candidates fastest first, times the sums of their contributions" ||
	{ nok "... JSON"; diag <"$tmp/py"; }

# bad input: exit 2, one line naming the value
bad() {
	want=$1 pat=$2
	shift 2
	check "$*: exit $want" "$want" $PX plan "$@"
	one_line "... one line: $pat" "$pat"
}
bad 2 "rows 0 is out of range (1 to 2147483647)" --elem 32 --rows 0 --cols 10
bad 2 "ld_in 4 is less than cols 10" --elem 32 --rows 10 --cols 10 --ld-in 4
bad 2 "ld_out 9 is less than rows 10" --elem 32 --rows 10 --cols 10 --ld-out 9
bad 2 "cols 2147483648 is out of range (1 to 2147483647)" --elem 32 --rows 10 --cols 2147483648
bad 2 "too large: stride_in 4294967296: the input.s 2147483647 matrices need more" --elem 128 --rows 65536 --cols 65536 --batch 2147483647
bad 2 "stride_in 99 is less than the input matrix it must hold ((rows-1)\\*ld_in + cols = 100 elements)" --elem 32 --rows 10 --cols 10 --batch 2 --stride-in 99
bad 2 "align_in 2: the pointer is misaligned for 4-byte elements" --elem 32 --rows 10 --cols 10 --align-in 2
bad 2 "align_out 12 is not a power of two" --elem 32 --rows 10 --cols 10 --align-out 12
bad 2 "give one" --elem 32 --rows 10 --cols 10 --offset 1 --align-in 4
bad 2 "--elem '48' is not an element width: give bits" --elem 48 --rows 10 --cols 10
bad 2 "needs --rows R" --elem 32 --cols 10
bad 2 "needs --elem W --rows R --cols C" --json
bad 2 "plan: --rows: expected an integer" --elem 32 --rows ten --cols 10
bad 2 "unknown flag '--colz'" --elem 32 --rows 10 --colz 10
bad 2 "unknown device 'a100'" --elem 32 --rows 10 --cols 10 --device a100
bad 2 "sm_count must be positive" --elem 32 --rows 10 --cols 10 --sm-count 0
PTXPOSE_LIBCUDA=/nonexistent/libcuda.so.1 bad 4 "plan: --measure: no CUDA driver" --elem 32 --rows 10 --cols 10 --measure
bad 2 "--measure plans on the GPU present with the library's kernels; --device does not go with it" --elem 32 --rows 10 --cols 10 --measure --device h200
bad 2 "FILE.ptx does not go with it" --elem 32 --rows 10 --cols 10 --measure ptx
bad 2 "a device flag (--sm-count, --l2, ...) does not go with it" --elem 32 --rows 10 --cols 10 --measure --l2 5
bad 2 "--cases does not go with it" --cases $CASES --measure
bad 2 "plan: --budget-ms: only with --measure" --elem 32 --rows 10 --cols 10 --budget-ms 5
PTXPOSE_LIBCUDA=/nonexistent/libcuda.so.1 check "plan -v, no driver: exit 0" 0 $PX plan --elem 32 --rows 10 --cols 10 -v
grep -q '^ptxpose plan: the GPU present cannot be described (.*): the built-in H100$' "$tmp/err" &&
	grep -q '^device: NVIDIA H100 80GB HBM3 (built in)' "$tmp/out" && ok "... why the built-in H100, said under -v" ||
	{ nok "... -v"; diag <"$tmp/err"; }
PTXPOSE_LIBCUDA=/nonexistent/libcuda.so.1 check "plan, no driver, no -v: exit 0" 0 $PX plan --elem 32 --rows 10 --cols 10
[ ! -s "$tmp/err" ] && ok "... nothing said: no driver is the usual case without a GPU" || { nok "... quiet"; diag <"$tmp/err"; }
bad 2 "ld_in 4 is less than cols 10" --elem 32 --rows 10 --cols 10 --ld-in 4 --measure
bad 3 "no kernel for 8-bit elements" --elem 8 --rows 10 --cols 10 ptx/fast_b32.ptx
sed 's|^// ptxpose vec=4|// ptxpose dyn_smem=1048576 vec=4|' ptx/fast_b32.ptx >"$tmp/huge_smem.ptx"
bad 3 "no kernel for 32-bit elements fits this device's shared memory: fast_b32 needs 1064960 bytes a block" \
	--elem 32 --rows 10 --cols 10 "$tmp/huge_smem.ptx"
bad 3 "no ptxpose metadata" --elem 32 --rows 10 --cols 10 tests/data/plan-cases.txt
bad 3 "$tmp/none.ptx: cannot read" --elem 32 --rows 10 --cols 10 "$tmp/none.ptx"
bad 3 "plan: --params $tmp/none.tsv: cannot read: No such file or directory" --elem 32 --rows 10 --cols 10 --params "$tmp/none.tsv"
printf 'const l2_lo 0.5\ntheta * nope 1\n' >"$tmp/bad.tsv"
bad 3 "bad.tsv: line 2: unknown feature 'nope'" --elem 32 --rows 10 --cols 10 --params "$tmp/bad.tsv"
printf -- '--elem 32 --rows 10 --cols 10\n--elem 32 --rows 10 --cols 10 --ld-in 3\n' >"$tmp/bad.cases"
bad 2 "bad.cases line 2: ld_in 3 is less than cols 10" --cases "$tmp/bad.cases"
printf -- '--elem 32 --rows 10 --cols 10 --device h200\n' >"$tmp/bad.cases"
bad 2 "bad.cases line 1: unknown flag '--device'" --cases "$tmp/bad.cases"
bad 3 "plan: --cases $tmp/none: cannot read: No such file or directory" --cases "$tmp/none"
# The small-dimension family only where its K is in range (lib/pick.h,
# PICK_SKINNY_RANGE = 8 x kmax): on 2048x2048 every skinny_* kernel comes
# after every other (the model once chose skinny_tall_k4_b32 there, 40% of
# the copy on an H100); on 3x1000003 and 1000003x3 one of them is chosen.
range_check() {
	$PX plan --elem "$1" --rows "$2" --cols "$3" --json 2>"$tmp/err" | python3 -c '
import json, sys
want = sys.argv[1]
c = json.load(sys.stdin)["cases"][0]
names = [k["kernel"] for k in c["candidates"]]
sk = [i for i, n in enumerate(names) if n.startswith("skinny_")]
if want == "last":
    ok = sk and min(sk) == len(names) - len(sk) and not c["choice"].startswith("skinny_")
else:
    ok = c["choice"].startswith("skinny_")
sys.exit(0 if ok else 1)' "$4"
}
range_check 32 2048 2048 last && ok "2048x2048 f32: the skinny kernels ranked last, not chosen" || nok "2048x2048 f32: a skinny kernel ranked before another"
range_check 16 1080 1920 last && ok "1080x1920 f16: the skinny kernels ranked last" || nok "1080x1920 f16: a skinny kernel ranked before another"
range_check 16 3 1000003 chosen && ok "3x1000003 f16: a skinny kernel chosen" || nok "3x1000003 f16: no skinny kernel chosen"
range_check 8 1000003 3 chosen && ok "1000003x3 u8: a skinny kernel chosen" || nok "1000003x3 u8: no skinny kernel chosen"
# A kernel with no theta row of its own, where a candidate of its family has
# one (added after the fit: the register skinny kernels on the H200 table),
# is ranked after the rest.
unfit_check() { # PARAMS-ARGS...: the rank of skinny_wide_k16_reg_b8, and whether it is marked
	$PX plan --elem u8 --rows 16 --cols 1048576 --json "$@" ptx | python3 -c '
import json, sys
c = json.load(sys.stdin)["cases"][0]["candidates"]
names = [k["kernel"] for k in c]
g = names.index("skinny_wide_k16_reg_b8")
marked = [k["kernel"] for k in c if k.get("unfitted")]
rest = [i for i, k in enumerate(c) if not k.get("unfitted") and not k.get("beyond_range")]
print("last" if "skinny_wide_k16_reg_b8" in marked and g > max(rest) else "ranked", c[0]["kernel"])'
}
got=$(unfit_check --device h200)
case $got in "last skinny_wide_"*) ok "H200 table, 16 x 2^20 u8: skinny_wide_k16_reg_b8 (no row of its own, its family fitted) last, a fitted skinny kernel chosen" ;;
	*) nok "H200 table: skinny_wide_k16_reg_b8 not ranked last ($got)" ;; esac
printf 'theta\tskinny_wide_k16_b8\tvec_dram\t1.2\n' | cat tests/data/plan-params.tsv - >"$tmp/p1.tsv"
printf 'theta\tskinny_wide_k16_reg_b8\tvec_dram\t1.3\n' | cat "$tmp/p1.tsv" - >"$tmp/p2.tsv"
case $(unfit_check --params tests/data/plan-params.tsv) in "ranked "*) ok "... a table with no skinny row: ranked by its estimate" ;;
	*) nok "... no skinny row" ;; esac
case $(unfit_check --params "$tmp/p1.tsv") in "last "*) ok "... a skinny_wide_k16_b8 row alone: the register kernel last" ;; *) nok "... a sibling's row alone" ;; esac
case $(unfit_check --params "$tmp/p2.tsv") in "ranked "*) ok "... a row of its own too: ranked by its estimate" ;; *) nok "... a row of its own" ;; esac
$PX plan --elem u8 --rows 16 --cols 1048576 --device h200 >"$tmp/out" 2>&1
grep -q '^ *[0-9]*  skinny_wide_k16_reg_b8 .*(no thetas of its own, a sibling.s fitted: last)$' "$tmp/out" &&
	ok "... the text report says why" || { nok "... the text report"; diag <"$tmp/out"; }
# A kernel with fast_k= (the register skinny kernels, gen/tp_skinny_reg.c)
# is ranked only where K x es and the run side are multiples of it (8 for
# the wide ones, 1 for the tall ones), the line side is 16-byte aligned and
# K x es is at most 64 bytes (lib/pick.c).
reg_ranked() { # ARGS...: the register kernels among the candidates (in their K range), or "none"
	$PX plan --json --device h100 "$@" ptx | python3 -c '
import json, sys
c = json.load(sys.stdin)["cases"][0]["candidates"]
print(" ".join(k["kernel"] for k in c if "_reg_" in k["kernel"] and not k.get("beyond_range")) or "none")'
}
fast_k_case() { # WANT DESCRIPTION ARGS...: WANT is "ranked" or "none"
	want=$1 what=$2
	shift 2
	got=$(reg_ranked "$@")
	if { [ "$want" = ranked ] && [ "$got" != none ]; } || { [ "$want" = none ] && [ "$got" = none ]; }; then
		ok "$what"
	else
		nok "$what: $got"
	fi
}
fast_k_case ranked "16 x 2^20 u8: the wide register kernels ranked" --elem u8 --rows 16 --cols 1048576
fast_k_case none "17 x 2^20 u8 (K odd): none" --elem u8 --rows 17 --cols 1048576
fast_k_case ranked "2^20 x 12 u8 (tall): ranked" --elem u8 --rows 1048576 --cols 12
fast_k_case ranked "2^20 x 17 u8 (tall: fast_k 1, their element path coalesced): ranked" --elem u8 --rows 1048576 --cols 17
fast_k_case ranked "12 x 2^20 f16 (24 bytes): ranked" --elem f16 --rows 12 --cols 1048576
fast_k_case none "10 x 2^20 f16 (20 bytes: the wide kernels' fast_k is 8): none" --elem f16 --rows 10 --cols 1048576
fast_k_case none "12 x 2^20 u8 (12 bytes): none" --elem u8 --rows 12 --cols 1048576
fast_k_case ranked "2^20 x 9 f16 (18 bytes, tall): ranked" --elem f16 --rows 1048576 --cols 9
fast_k_case none "2^20 x 16 u8, offset 4 (the tall line side's pointer off 16 bytes): none" --elem u8 --rows 1048576 --cols 16 --offset 4
fast_k_case none "16 x 2^20 u8, ld_out 18 (the run side off words): none" --elem u8 --rows 16 --cols 1048576 --ld-out 18
fast_k_case none "16 x 2^20 u8, ld_in 1048577 (the line side off 16 bytes): none" --elem u8 --rows 16 --cols 1048576 --ld-in 1048577
fast_k_case none "16 x 2^20 u8, offset 4 (the line side's pointer off 16 bytes): none" --elem u8 --rows 16 --cols 1048576 --offset 4
fast_k_case none "2^20 x 16 u8, ld_out 1048577 (the tall line side off 16 bytes): none" --elem u8 --rows 1048576 --cols 16 --ld-out 1048577
fast_k_case none "16 x 4096 u8 x 3, stride_out 65538: none" --elem u8 --rows 16 --cols 4096 --batch 3 --stride-out 65538
fast_k_case ranked "64 x 2^20 u8 (64 bytes of K): ranked" --elem u8 --rows 64 --cols 1048576
fast_k_case none "48 x 2^20 f16 (96 bytes of K, past PICK_FAST_K_MAX_BYTES for the wide ones): none" --elem f16 --rows 48 --cols 1048576
fast_k_case ranked "2^20 x 48 f16 (96 bytes of K: no cap for the tall ones): ranked" --elem f16 --rows 1048576 --cols 48
fast_k_case ranked "16 x 4096 u8 x 3, packed: ranked" --elem u8 --rows 16 --cols 4096 --batch 3
# a wide kernel's last, partial tile along the long side moves element by
# element: ranked where it holds at most 1/16 of the long side (PICK_FAST_K_EDGE)
fast_k_case none "56 x 496 u8 x 1000 (240 of 496 columns in k64's partial tile, 496 in k16's and k32's): none" \
	--elem u8 --rows 56 --cols 496 --batch 1000
fast_k_case ranked "56 x 512 u8 x 1000 (whole tiles of k32 and k64): ranked" --elem u8 --rows 56 --cols 512 --batch 1000
fast_k_case ranked "16 x 272 u8 x 1000 (16 of 272 columns in k64's partial tile): ranked" \
	--elem u8 --rows 16 --cols 272 --batch 1000
fast_k_case none "16 x 1008 u8 x 1000 (shorter than every wide kernel's tile but k64's, 240 of 1008 in its): none" \
	--elem u8 --rows 16 --cols 1008 --batch 1000
fast_k_case ranked "1008 x 16 u8 x 1000 (tall: their element path is coalesced): ranked" \
	--elem u8 --rows 1008 --cols 16 --batch 1000
finish
