#!/bin/sh
# The packed skinny kernels (pack=4 or pack=2 in their metadata): emulated on shapes whose tiles take the packed path (K a
# multiple of 4/es, every line equally misaligned: aligned lines, an offset
# pointer, batches) and on shapes where they fall back to the element path
# (odd K, a leading dimension that misaligns the lines one by one); then,
# t0720-style, each with the addresses of its first two packed shared
# accesses swapped (the scatter's stores, the gather's loads), which
# verification must catch. The shapes: tests/lib/emu_shapes.sh.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
PX=build/ptxpose
need_ptxpose
. tests/lib/emu_shapes.sh
wide=$(grep -l '^// ptxpose skinny=wide .* pack=' ptx/*.ptx)
tall=$(grep -l '^// ptxpose skinny=tall .* pack=' ptx/*.ptx)
[ -n "$wide" ] && [ -n "$tall" ] && ok "packed wide and tall skinny kernels in ptx/" ||
	{ nok "no packed wide or tall skinny kernel in ptx/ (they are committed: regenerate with ninja ptx)"; finish; }
tap_run "wide" $PX check --emulate --shapes "$EMU_SKINNY_PACK_WIDE" $wide
tap_run "tall" $PX check --emulate --shapes "$EMU_SKINNY_PACK_TALL" $tall

. tests/lib/mutate.sh
for f in $wide $tall; do
	m="$tmp/$(basename "$f")"
	swap_addrs '(st|ld)\.shared\.b32' "$f" >"$m"
	case $f in *wide*) s=$EMU_SKINNY_PACK_WIDE ;; *) s=$EMU_SKINNY_PACK_TALL ;; esac
	mutant_fails "with two packed shared accesses swapped" "$f" "$m" "$s"
done
finish
