#!/bin/sh
# N-d problems on the command line, and their bad input:
# --dims/--perm/--strides-in/--strides-out and list entries; each bad input
# one line naming the value, exit 2, nothing run; plan prints the reduction
# and names PTXPOSE_ERR_UNSUPPORTED (exit 3); the fake driver runs the
# supported classes end to end through the library.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose

bad() { # DESC MESSAGE ARGS...: exit 2, one line, nothing on stdout
	d=$1 m=$2
	shift 2
	check "$d: exit 2" 2 "$@"
	one_line "... one line: $m" "$m"
	[ ! -s "$tmp/out" ] && ok "... nothing run" || { nok "... nothing run"; diag <"$tmp/out"; }
}
for c in "run --emulate --elem 32" "check --emulate ptx/fast_b32.ptx" "plan --elem 32"; do
	set -- $c
	bad "$1: a perm that is not a permutation" "perm\[1\] = 0 repeats perm\[0\]" $PX $c --dims 4x5 --perm 0,0
	bad "$1: --dims with --rows" "ptxpose $1: --dims and --rows: give an N-d problem" $PX $c --dims 4x5 --perm 1,0 --rows 3
	bad "$1: --dims without --perm" "ptxpose $1: --dims needs --perm" $PX $c --dims 4x5
	bad "$1: an extent 0" "extent 1 is 0" $PX $c --dims 4x0 --perm 1,0
	bad "$1: rank 9" "more than 8 dims" $PX $c --dims 1x2x1x2x1x2x1x2x1 --perm 0,1,2,3,4,5,6,7,8
	bad "$1: rank 0" "extent 0 is empty" $PX $c --dims '' --perm 0
	bad "$1: aliasing output strides" "output strides may alias" $PX $c --dims 4x5 --perm 1,0 --strides-out 1,1
	bad "$1: strides past 63 bits" "s_in strides overflow" $PX $c --dims 4x5 --perm 1,0 --strides-in 4611686018427387904,1
done
bad "check: --dims with --shapes" "ptxpose check: --dims and --shapes" $PX check --emulate --dims 4x5 --perm 1,0 \
	--shapes 3x3 ptx/fast_b32.ptx
bad "a list entry: an unknown key" "unknown key 'batch'" $PX check --emulate --shapes "3x4x5:perm=2,1,0:batch=2" \
	ptx/fast_b32.ptx
bad "a list entry: a perm too short" "perm 2 is not a number: '4'" $PX check --emulate \
	--shapes "3x4x5:perm=2,1,4x5:perm=1,0" ptx/fast_b32.ptx
bad "a list entry: not a permutation" "perm\[2\] = 3 is out of range" $PX check --emulate \
	--shapes "4x5:perm=1,0,3x4x5:perm=0,1,3" ptx/fast_b32.ptx

# plan: the reduction, the choice; a class without kernels named
check "plan --dims 64x33x17 --perm 2,0,1" 0 $PX plan --elem 32 --dims 64x33x17 --perm 2,0,1
grep -q '^permutation: 64x33x17:perm=2,0,1, 4-byte elements: merged 3 dims to 2, transpose 2112x17; pack tile 32(split)x17 = 544 of 2048, runs 2176 B in / 128 B out, 66 tiles$' "$tmp/out" &&
	grep -q '^choice: [a-z]' "$tmp/out" && ok "... the reduction and the kernel" || { nok "... the reduction"; diag <"$tmp/out"; }
check "plan of a tensor-network shape" 0 $PX plan --elem c128 --dims 29x10x36x2x4x5 --perm 2,0,5,4,1,3
grep -q '; pack tile 10x2x4x5 = 400 of 1024, runs 640 B in / 6400 B out, 1044 tiles (preferred: a tiny 2-D core)$' \
	"$tmp/out" && grep -q '^choice: pack_b128 ' "$tmp/out" && ok "... a pack tile, and a pack kernel chosen" ||
	{ nok "... a pack kernel chosen"; diag <"$tmp/out"; }
check "run --emulate a pack kernel on a 2-D shape: exit 3" 3 $PX run ptx/pack_b32.ptx --rows 100 --cols 8 --emulate
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'pack_b32 takes a pack tile (abi=4), and the problem has none: .*(a 2-D one as RxC with perm 1,0' "$tmp/err" &&
	ok "... one line, the N-d form to give" || { nok "... one line"; diag <"$tmp/err"; }
check "plan --json of a fold" 0 $PX plan --elem 32 --dims 8x16x2 --perm 1,0,2 --offset 0 --json
grep -q '"permutation":"8x16x2:perm=1,0,2","reduction":"folded 2x4B into 8B, transpose 8x16; pack tile 8x16 = 128 of 2048, runs 1024 B in / 1024 B out, 1 tiles","permutation_elem_bytes":4' \
	"$tmp/out" && grep -q '"problem":{"elem_bytes":8' "$tmp/out" && ok "... the reduction in JSON" ||
	{ nok "... the reduction in JSON"; diag <"$tmp/out"; }
check "plan of a copy" 0 $PX plan --elem 16 --dims 4x5x6 --perm 0,1,2
grep -q '^choice: copy .* cuMemcpyDtoDAsync of 240 bytes' "$tmp/out" && ok "... copy, its bytes" || nok "... copy, its bytes"
check "plan of a tiled copy" 0 $PX plan --elem 32 --dims 2x3x4x64 --perm 0,2,1,3
grep -q 'tiled copy of runs of 64 elements' "$tmp/out" && grep -q '^choice: rowcopy_[a-z_]*b32 ' "$tmp/out" &&
	ok "... the reduction, and a row copy kernel chosen" || { nok "... a row copy kernel chosen"; diag <"$tmp/out"; }
check "plan of a tiled copy of short runs" 0 $PX plan --elem 32 --dims 2x3x4x5 --perm 0,2,1,3
grep -q 'tiled copy of runs of 5 elements, outer \[2,3,4\]; pack tile 3x4x5 = 60 of 2048, .*(preferred: short runs)$' "$tmp/out" &&
	grep -q '^choice: pack_b32 ' "$tmp/out" && ok "... a pack kernel chosen" ||
	{ nok "... a pack kernel chosen"; diag <"$tmp/out"; }

# The fake driver (its kernel: a CPU transpose of the ABI v2 arguments)
# through the library: ptxpose_plan_create and ptxpose_execute of the N-d desc
export ASAN_OPTIONS=detect_leaks=1
. tests/lib/fakecuda.sh
printf '// ptxpose kernel=k32 abi=2 elem=32 grid=tile tile=32x64 block=32x8\n.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k32(\n)\n{\n\tret;\n}\n' >"$tmp/k32.ptx"
for a in "--dims 3x17x20 --perm 2,0,1" "--dims 4x5x6 --perm 2,1,0 --strides-in 64,12,1 --strides-out 40,8,1" \
	"--dims 5x6x7 --perm 0,2,1 --offset 1"; do
	check "fake driver: run k32 $a" 0 $PX run "$tmp/k32.ptx" $a --no-time
	grep -q '^k32 .*: PASS' "$tmp/out" && ok "... PASS" || { nok "... PASS"; cat "$tmp/out" "$tmp/err" | diag; }
done
# the library's pack plans (the built-in pack kernels) over 1600 and 256 tiles: the
# grid the launch computes (loader/meta.c) is the one the fake driver wants
for a in "--dims 80x80x40x8 --perm 3,2,1,0 --elem f32" "--dims 8x8x8x8x8x8 --perm 5,4,3,2,1,0 --elem f16"; do
	check "fake driver: run $a" 0 $PX run $a --no-time
	grep -q '^pack_b[0-9]* .*: PASS' "$tmp/out" && ok "... a pack kernel, PASS" ||
		{ nok "... a pack kernel, PASS"; cat "$tmp/out" "$tmp/err" | diag; }
done
check "fake driver: check k32 on N-d shapes" 0 $PX check --shapes "3x17x20:perm=2,0,1,2x3x5:perm=1,0,2:elem=32,2x3x4x5:perm=0,2,1,3" "$tmp/k32.ptx"
grep -q '^ok 1 - k32 3x17x20:perm=2,0,1$' "$tmp/out" && grep -q '^ok 3 .* # SKIP the problem reduces to a tiled copy, k32 transposes' "$tmp/out" &&
	ok "... run, and a tiled copy skipped" || { nok "... run, and a tiled copy skipped"; diag <"$tmp/out"; }
check "fake driver: check of N-d copies with a kernel file" 0 $PX check --shapes "4x5x6:perm=0,1,2,7:perm=0,3x5x4:perm=2,1,0" "$tmp/k32.ptx"
[ "$(grep -c '# SKIP a copy after reducing: the plan is one cuMemcpyDtoDAsync, no kernel runs' "$tmp/out")" -eq 2 ] &&
	ok "... skipped: the plan copies" || { nok "... skipped: the plan copies"; diag <"$tmp/out"; }
check "fake driver: run FILE on an N-d copy: the library's copy" 0 $PX run "$tmp/k32.ptx" --dims 4x5x6 --perm 0,1,2 --no-time
grep -q '^copy 4x5x6:perm=0,1,2 elem=32: PASS' "$tmp/out" && grep -q 'k32 is not run' "$tmp/err" && ok "... said, verified" ||
	{ nok "... said, verified"; cat "$tmp/out" "$tmp/err" | diag; }
check "fake driver: run --dims of a tiled copy: the library's row copy" 0 \
	$PX run --elem 32 --dims 2x3x4x64 --perm 0,2,1,3 --no-time
grep -q '^rowcopy_[a-z_]*b32 2x3x4x64:perm=0,2,1,3 elem=32: PASS' "$tmp/out" && ok "... PASS" ||
	{ nok "... PASS"; cat "$tmp/out" "$tmp/err" | diag; }
printf '// ptxpose kernel=k64 abi=2 elem=64 grid=tile tile=32x64 block=32x8\n.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k64(\n)\n{\n\tret;\n}\n' >"$tmp/k64.ptx"
check "fake driver: bench on N-d shapes" 0 $PX bench --iters 3 --out-dir "$tmp/b" \
	--shapes "3x17x20:perm=2,0,1,8x16x2:perm=1,0,2:elem=32,2x3x4x5:perm=0,2,1,3:elem=32" "$tmp/k32.ptx" "$tmp/k64.ptx"
md=$tmp/b/bench.md csv=$tmp/b/bench.csv
grep -q '^| k32 | 32 | 3x17x20:perm=2,0,1 | [0-9.]* |' "$md" && grep -q '^| k64 | 64 | 3x17x20:perm=2,0,1 | [0-9.]* |' "$md" &&
	grep -q '^| k64 | 32 | 8x16x2:perm=1,0,2 | [0-9.]* |' "$md" &&
	grep -q '^| k32 | 32 | 2x3x4x5:perm=0,2,1,3 | SKIP | | | | the problem reduces to a tiled copy, k32 transposes |' "$md" &&
	ok "... the table by spec: every width, a fold on the wider kernel, a tiled copy skipped" ||
	{ nok "... the table by spec"; diag <"$md"; }
grep -q '^k64,32,0,0,.*,"8x16x2:perm=1,0,2"$' "$csv" && ok "... bench.csv: the spec last" || { nok "... bench.csv"; diag <"$csv"; }
finish
