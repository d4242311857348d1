#!/bin/sh
# Sheared kernels (the shear parameter, gen/tp_shear.c), emulated and
# compared bit-exactly. Tile rows start tm - Q/elem rows apart; interior
# tiles off alignment write Q-aligned windows of each output row, the first
# tile row the rows' heads too; aligned and edge tiles write their whole
# tile over the overlap. So the shapes have several tile rows, leading
# dimensions and pointers that put output rows at every offset in a window,
# row counts on and just past a multiple of the step, aligned matrices,
# batches with odd strides, and a capped grid whose blocks walk several
# tile rows. The committed narrow_shear_* kernels first, then variants with
# Q from the access's width to a quarter of the tile, 8- and 16-byte
# granules, 128- and 256-row tiles. Two planted bugs (no heads; the last
# window of every row dropped) must fail.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
PX=build/ptxpose
need_ptxpose
S="800x301,800x301:offset=1,801x299:ld_in=303:ld_out=805:offset=3,800x301:ld_out=808"
S="$S,672x150:offset=1,673x150:ld_out=677,480x200:offset=2,360x133:ld_out=367:offset=1"
S="$S,512x256,512x256:ld_in=264:ld_out=520,780x150:batch=2:stride_in=120000:stride_out=120011:offset=5"
S="$S,250x70:offset=1,31x33,1x1"
set -- ptx/narrow_shear_b8.ptx ptx/narrow_shear_b16.ptx
grep -q 'shear=16 row_step=240' "$1" && grep -q 'shear=16 row_step=120' "$2" &&
	ok "narrow_shear_* are sheared (row_step in their metadata)" ||
	nok "narrow_shear_* lack shear= and row_step= (regenerate ptx/)"
tap_run "narrow_shear_*" $PX check --emulate --shapes "$S" "$@"
PTXPOSE_GRID_MAX=2x2x1 tap_run "narrow_shear_*, blocks walking tiles (grid 2x2)" \
	$PX check --emulate --shapes "800x301:offset=1,801x299:ld_in=303:ld_out=805:batch=2" "$@"
cat >"$tmp/shear.lua" <<'LUA'
for _, c in ipairs{ {16, 4, 128, 8}, {16, 4, 128, 32}, {16, 8, 128, 64}, {16, 8, 256, 16},
                    {8, 8, 256, 8}, {8, 8, 128, 32}, {8, 16, 256, 16}, {8, 8, 256, 64} } do
  local elem, vec, tm, q = c[1], c[2], c[3], c[4]
  local name = string.format("shear_b%d_v%d_t%d_q%d", elem, vec, tm, q)
  local threads = math.min(256, (tm // vec) * (64 // vec))
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = elem, tile = {tm, 64},
    threads = {32, threads // 32}, vec = vec, smem = "swizzle", group = 8, wide_realign = true, shear = q })
end
LUA
$PX gen --out "$tmp/k" "$tmp/shear.lua" >"$tmp/out" 2>"$tmp/err" &&
	ok "gen: 8 sheared variants" || { nok "gen: sheared variants"; diag <"$tmp/err"; }
tap_run "sheared variants" $PX check --emulate --shapes "$S" "$tmp"/k/*.ptx
# planted bugs: they must be caught as wrong results (exit 1)
sed -E 's/(setp\.eq\.u32 +%wz_first, %tile_row), 0;/\1, 1;/' "$2" >"$tmp/nohead.ptx"
perl -pe 's/(setp\.lt\.u32\s+%wz_in, %st_brow), (\d+);/"$1, " . ($2 - 1) . ";"/e' "$2" >"$tmp/nolast.ptx"
for m in nohead nolast; do
	if cmp -s "$2" "$tmp/$m.ptx"; then
		nok "mutation $m no longer applies (the generator changed)"
		continue
	fi
	$PX check --emulate --shapes "800x301:offset=1,673x150:ld_out=677" "$tmp/$m.ptx" >"$tmp/tap" 2>&1
	rc=$?
	[ "$rc" = 1 ] && grep -q 'never written' "$tmp/tap" && ok "mutation $m: caught (exit 1, output never written)" ||
		{ nok "mutation $m: exit $rc, want 1"; diag <"$tmp/tap"; }
done
finish
