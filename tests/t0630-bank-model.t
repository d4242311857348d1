#!/bin/sh
# t0630-bank-model: what the generator's bank model (the `// ptxpose-smem`
# lines, shown by `ptxpose sass` and `list`) says about the standard set:
# padded and swizzled layouts are conflict-free on every access; the plain
# CuTe layouts are 32-way for 32-bit elements (16-way for 64-bit) on their
# strided side and conflict-free on the other; every shared-memory variant
# describes a load and a store. The skinny family's element accesses
# (the scatter or gather along K) are conflict-free for kmax 4 and up, and
# at most 4-way for kmax 1 and 2 (1 or 2 lanes along K put neighbouring
# lanes in one word; those kernels were the fastest measured for K = 1, 2
# all the same, lab/TUNING.md); the run at most 2-way. The flat
# family's scatter depends on the run-time shape: it states no line.
# A deliberately broken swizzle (the test-only parameter swizzle_mask) is
# reported as conflicted, by the model and by `ptxpose sass`.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh

need_ptxpose
set -- ptx/*.ptx
need_ptx "$1"
# the bank model is metadata: no tool needs to run
check "ptxpose list --no-ptxas --csv" 0 "$PX" list --no-ptxas --csv
cp "$tmp/out" "$tmp/csv"
# fields: 2 name, 4 elem, 9 smem, 19 st_wavefronts, 20 st_ideal, 21 ld_wavefronts, 22 ld_ideal
awk -F, 'NR > 1 { print $2, $4, $9, $19, $20, $21, $22 }' "$tmp/csv" >"$tmp/rows"
while read -r name elem smem stw sti ldw ldi; do
	case $smem in
	none) continue ;;
	padded | swizzle)
		if [ -n "$stw" ] && [ "$stw" = "$sti" ] && [ -n "$ldw" ] && [ "$ldw" = "$ldi" ]; then
			ok "$name ($smem): conflict-free (st $stw/$sti, ld $ldw/$ldi)"
		else
			nok "$name ($smem): conflict-free (st $stw/$sti, ld $ldw/$ldi)"
		fi ;;
	plain)
		case $name in
		cute_smem_conflict_read_*) side=ld; w=$ldw; i=$ldi; ow=$stw; oi=$sti ;;
		cute_smem_conflict_write_*) side=st; w=$stw; i=$sti; ow=$ldw; oi=$ldi ;;
		*)
			# other plain layouts (the 16x16 Julia tile): conflicted somewhere
			if [ "$stw" != "$sti" ] || [ "$ldw" != "$ldi" ]; then ok "$name (plain): a conflict is predicted (st $stw/$sti, ld $ldw/$ldi)"
			else nok "$name (plain): a conflict is predicted (st $stw/$sti, ld $ldw/$ldi)"; fi
			continue ;;
		esac
		ways=$((32 * 32 / elem))
		if [ -n "$w" ] && [ -n "$i" ] && [ "$i" -gt 0 ] && [ $((w / i)) -eq $((ways > 32 ? 32 : ways)) ] && [ "$ow" = "$oi" ]; then
			ok "$name (plain): $side $w/$i, $((w / i))-way on the strided side; the other side conflict-free"
		else
			nok "$name (plain): $side $w/$i on the strided side (want $((ways > 32 ? 32 : ways))-way), other side $ow/$oi"
		fi ;;
	runs)
		# the skinny family at K = kmax: the element scatter (wide: the
		# shared stores) or gather (tall: the loads) conflict-free; the
		# run's 16-byte granules at most 2-way (regions are odd granules apart)
		case $name in
		skinny_wide_*) ew=$stw; ei=$sti; rw=$ldw; ri=$ldi ;;
		*) ew=$ldw; ei=$ldi; rw=$stw; ri=$sti ;;
		esac
		case $name in
		skinny_*_k1_* | skinny_*_k2_*) eways=4 ;;
		*) eways=1 ;;
		esac
		if [ -n "$ew" ] && [ -n "$ei" ] && [ "$ew" -le $((eways * ei)) ] && [ -n "$rw" ] && [ -n "$ri" ] &&
			[ "$rw" -le $((2 * ri)) ]; then
			ok "$name (runs): elements at most $eways-way ($ew/$ei), run granules at most 2-way ($rw/$ri)"
		else
			nok "$name (runs): elements $ew/$ei, run granules $rw/$ri"
		fi ;;
	flat | pack)
		# the flat and pack families (gen/tp_flat.c, gen/tp_pack.c): their scatter follows the run-time
		# shape, so it states no model line rather than a wrong one
		if [ -z "$stw$sti$ldw$ldi" ]; then ok "$name ($smem): no bank-model line (the shape is a run-time value)"
		else nok "$name ($smem): a bank-model line (st $stw/$sti, ld $ldw/$ldi) for a run-time shape"; fi ;;
	*) nok "$name: unknown smem kind '$smem'" ;;
	esac
done <"$tmp/rows"

# The same swizzled tile with the XOR cut to one bit must be reported conflicted.
cat >"$tmp/broken.lua" <<'LUA'
ptx.write("broken.ptx", ptx.transpose{ name = "broken_swizzle", elem = 32, tile = {32, 64},
  threads = {32, 8}, smem = "swizzle", swizzle_mask = 1 })
ptx.write("good.ptx", ptx.transpose{ name = "good_swizzle", elem = 32, tile = {32, 64},
  threads = {32, 8}, smem = "swizzle" })
LUA
check "gen a broken swizzle" 0 "$PX" gen --out "$tmp/b" "$tmp/broken.lua"
check "sass --summary of the broken swizzle" 0 "$PX" sass --summary "$tmp/b/broken.ptx"
if grep -q 'smem_st: 4-byte, 16 wavefronts per request (ideal 1)' "$tmp/out" && ! grep -q 'smem_st.*conflict-free' "$tmp/out"; then
	ok "broken swizzle: the stores are reported 16-way"
else
	sed 's/^/# /' "$tmp/out"; nok "broken swizzle: the stores are reported 16-way"
fi
check "sass --summary of the good swizzle" 0 "$PX" sass --summary "$tmp/b/good.ptx"
if grep -q 'smem_st: 4-byte, 1 wavefront per request (ideal 1) conflict-free' "$tmp/out"; then
	ok "the same tile with the derived swizzle is conflict-free"
else
	sed 's/^/# /' "$tmp/out"; nok "the same tile with the derived swizzle is conflict-free"
fi
finish
