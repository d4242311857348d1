#!/bin/sh
# The tiled copy (op=copy, gen/tp_rowcopy.c), every width, emulated and
# compared bit-exactly with the row copy's reference (rig/vfy_copy.c: the
# N-d reference on a poisoned buffer, every byte of out): 1x1, 1x7, 7x1, a
# batch, padded pitches, pointers off alignment (each access width's path:
# offset 1, 2, 4, 8 elements; pitches of 66 and 9 elements), matrices whose
# strides change the path from one to the next, cols 1 to 33 (packed, and
# padded to 16-byte pitches so the last unit of a row is short), short rows
# packed several to a warp (200x2, 130x8), long rows over several tile
# columns; then a grid capped at 2x2x2 (PTXPOSE_GRID_MAX) walking tile
# columns, tile rows and matrices. The metadata (op=copy) picks the
# reference; shapes of a transpose that are no copy's are skipped. (The
# shape list checks every entry as a transpose's too, so ld_out < rows
# cannot be written yet.)
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
PX=build/ptxpose
need_ptxpose
set -- $(grep -l '^// ptxpose kernel=[a-z_0-9]* abi=2 op=copy ' ptx/*.ptx)
[ $# -eq 5 ] && ok "five op=copy kernels in ptx/ (one a width)" ||
	{ nok "op=copy kernels in ptx/: $# of 5 (they are committed: regenerate with ninja ptx)"; finish; }
SHAPES="1x1,1x7,7x1,3x5:batch=4,33x31:ld_in=40:ld_out=37,33x31:ld_in=40:ld_out=37:offset=1"
SHAPES="$SHAPES,17x64:offset=1,17x64:offset=2,17x64:offset=4,17x64:offset=8,17x64:ld_in=66,17x64:ld_out=65"
SHAPES="$SHAPES,3x32:batch=3:stride_in=100:stride_out=98,200x2,130x8:ld_in=9:ld_out=130,130x40:ld_in=43,3x1500:ld_out=1501"
cols=""
# cols 1 to 33, with packed rows (narrow accesses where cols is odd) and with
# pitches of 48 and 64 elements (16-byte accesses, the row's last unit short)
for c in $(seq 1 33); do cols="$cols,3x$c,3x$c:ld_in=48:ld_out=64"; done
tap_run "every width on small, odd, padded and misaligned copies" $PX check --emulate --shapes "$SHAPES$cols" "$@"
tap_run "on a grid capped at 2x2x2" env PTXPOSE_GRID_MAX=2x2x2 $PX check --emulate \
	--shapes "130x600:batch=3:offset=1,70x600:ld_in=601:ld_out=610:batch=3:stride_in=42100:stride_out=365500" "$@"
# a transpose's shape that is no copy's is skipped, named (the shape list
# takes transposes' shapes: ld_out >= rows, stride_out >= (cols-1)*ld_out + rows)
check "a transpose's shape that is no copy's: skipped" 0 $PX check --emulate --shapes 9x33:ld_out=9,3x3 "$1"
grep -q "# SKIP not a row copy's shape (op=copy): copy: ld_out 9 is less than cols 33" "$tmp/out" &&
	ok "... saying why" || { nok "... saying why"; diag <"$tmp/out"; }
# `run --emulate` takes a row copy's shape as a copy; on the GPU it is refused
check "run --emulate: 7 columns into ld_out 7" 0 $PX run --emulate "$1" --rows 1 --cols 7
grep -q ' 1x7 ld_out=7 elem=[0-9]*: PASS (emulated)$' "$tmp/out" && ok "... PASS" || { nok "... PASS"; diag <"$tmp/out"; }
check "run --emulate: ld_out under cols refused, exit 2" 2 $PX run --emulate "$1" --rows 13 --cols 60 --ld-out 20
one_line "... in one line" "copy: ld_out 20 is less than cols 60"
check "run without --emulate: refused before any device, exit 2" 2 $PX run "$1" --rows 13 --cols 6
one_line "... in one line" "op=copy: on the GPU a row copy runs the tiled copies of N-d shapes"
# On a GPU (the fake driver, tests/fakecuda): check skips a row copy and
# bench leaves it out of the timing, both saying why, and neither fails
fakes=build/fakecuda
if [ -f "$fakes/libcuda.so.1" ]; then
	gpu() { env -u PTXPOSE_LIBCUDA LD_LIBRARY_PATH="$PWD/$fakes${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"; }
	check "check on a GPU: a row copy skipped, a transpose checked: exit 0" 0 gpu $PX check --shapes 64x64,3x5 "$1" \
		ptx/fast_b32.ptx
	[ "$(grep -c '^ok [0-9]* - rowcopy_b[0-9]* [0-9x]* # SKIP op=copy: on the GPU a row copy runs the tiled copies' "$tmp/out")" -eq 2 ] &&
		grep -q '^ok 4 - fast_b32 3x5$' "$tmp/out" && ok "... SKIP lines that say why" || { nok "... SKIP lines"; diag <"$tmp/out"; }
	check "bench on a GPU: a row copy's row skipped: exit 0" 0 gpu $PX bench --iters 3 --out-dir "$tmp/b" \
		--shapes 64x64:elem=32 ptx/rowcopy_b32.ptx ptx/fast_b32.ptx
	grep -q '^| rowcopy_b32 | 32 | 64x64 | SKIP | | | | op=copy: a row copy runs the tiled copies of N-d shapes' "$tmp/b/bench.md" &&
		ok "... bench.md says why" || { nok "... bench.md says why"; diag <"$tmp/b/bench.md"; }
else
	nok "the fake driver is not built ($fakes/libcuda.so.1): run ninja"
fi
finish
