#!/bin/sh
# The register skinny kernels (family=skinny_reg, gen/tp_skinny_reg.c):
# emulated on K x N (wide) and N x K (tall) for K from 1 to 64
# and N from 1 to 4097, then batches, leading dimensions past the extent, an
# offset pointer and 64 x 8192 (tests/lib/emu_shapes.sh), and with the grid
# capped (PTXPOSE_GRID_MAX, blocks walking several tiles): both the register
# path (K x es a multiple of 4, aligned sides, a tile inside the long side)
# and the element path. Then, per kernel, five planted bugs that verification
# must catch: the first prmt's selector changed (a byte or half from the
# wrong line), the quad transpose's first shuffle sent to lane ^ 1 instead
# of lane ^ 2, the first two whole run segments' stores (wide) or loads
# (tall) swapped, the first two 8-byte halves' (runs 8-byte aligned, a
# part segment) and the first two run words'.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
PX=build/ptxpose
need_ptxpose
. tests/lib/emu_shapes.sh
wide=$(grep -l '^// ptxpose family=skinny_wide .* fast_k=[0-9]* realign=none' ptx/*_reg_*.ptx)
tall=$(grep -l '^// ptxpose family=skinny_tall .* fast_k=[0-9]* realign=none' ptx/*_reg_*.ptx)
[ -n "$wide" ] && [ -n "$tall" ] && ok "wide and tall register skinny kernels in ptx/" ||
	{ nok "no wide or tall register skinny kernel in ptx/ (they are committed: regenerate with ninja ptx)"; finish; }
tap_run "wide" timeout 60 $PX check --emulate --shapes "$EMU_SKINNY_REG_WIDE" $wide
tap_run "tall" timeout 60 $PX check --emulate --shapes "$EMU_SKINNY_REG_TALL" $tall
# a grid smaller than the tiles: each block walks several tiles of the
# register path, tile rows past kmax and matrices (the grid's strides)
PTXPOSE_GRID_MAX=2x2x2 tap_run "wide, capped grid" timeout 60 $PX check --emulate \
	--shapes "68x8192,24x4096:batch=3:ld_out=32" $wide
PTXPOSE_GRID_MAX=2x2x2 tap_run "tall, capped grid" timeout 60 $PX check --emulate \
	--shapes "8192x68,4096x24:batch=3:ld_in=32" $tall

. tests/lib/mutate.sh
# mutant NAME FILE MUTANT: the mutant differs and fails verification (a
# wrong element, or an access out of place) on K of 18 to 64
mutant() {
	case $2 in *wide*) s="18x4096,20x4096,24x4096,64x4096" ;; *) s="4096x18,4096x20,4096x24,4096x64" ;; esac
	mutant_fails "$1" "$2" "$3" "$s" 8
}
for f in $wide $tall; do
	m="$tmp/$(basename "$f")"
	awk '!done && /prmt\.b32/ { sub(/0x5140|0x5410/, "0x4150"); done = 1 } { print }' "$f" >"$m"
	mutant "with its first prmt selector changed" "$f" "$m"
	awk '!done && /shfl\.sync\.bfly\.b32.*, 2, 0x1f/ { sub(/, 2, 0x1f/, ", 1, 0x1f"); done = 1 } { print }' "$f" >"$m"
	mutant "with a quad transpose's shuffle to the wrong lane" "$f" "$m"
	case $f in *wide*) op=st ;; *) op=ld ;; esac
	swap_addrs "$op\\.global\\.v4\\.b32.*run_addr" "$f" >"$m"
	mutant "with two whole run segments' addresses swapped" "$f" "$m"
	swap_addrs "$op\\.global\\.v2\\.b32" "$f" >"$m"
	mutant "with two run halves' addresses swapped" "$f" "$m"
	swap_addrs "$op\\.global\\.b32" "$f" >"$m"
	mutant "with two run words' addresses swapped" "$f" "$m"
done
finish
