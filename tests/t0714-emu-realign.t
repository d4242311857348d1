#!/bin/sh
# wide_realign (gen/tp_realign.c) and the vector edge path (ACC_EDGE_VECTOR
# in gen/tp_emit.c), emulated and compared bit-exactly where they run.
# Realigned loads stay off a matrix's first and last tile rows, so the
# shapes have at least three tile rows (256-row tiles: 800 rows and more)
# and leading dimensions or pointers that misalign the rows: the committed
# narrow_tall_* kernels (8-byte granules), then generated variants with
# 16-byte granules (halves vec 8, bytes vec 16), whose shift takes two selp
# levels and whose row head has a two-word piece. The vector edge path runs
# on edge tiles of aligned matrices that end on a vector boundary: 208x144
# and the like, for every kernel with vectors, and on matrices where only
# one side's extent is a multiple of the vector.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
PX=build/ptxpose
need_ptxpose
TALL="800x301,800x301:offset=1,801x299:ld_in=303:ld_out=805:offset=3,780x150:batch=2:stride_in=120000:stride_out=120011:offset=5"
# rows a multiple of the tile's: the last tile row is interior, and must not realign its loads
TALL="$TALL,768x301:offset=1,768x256:offset=3,768x301:ld_out=777:offset=1"
SHORT="400x301,400x301:offset=1,401x299:ld_in=303:ld_out=405:offset=3,390x150:batch=2:stride_in=60000:stride_out=60011:offset=7"
SHORT="$SHORT,384x301:offset=1,384x128:offset=3"
# one side's extent a multiple of the vector, the other's not, pitches aligned
EDGE="208x144,200x136,200x137,137x200,416x288:ld_in=304:ld_out=432,208x144:batch=2:stride_in=30000:stride_out=30016"
EDGE="$EDGE,203x144:ld_out=208,208x141:ld_in=144"
set -- ptx/narrow_tall_b8.ptx ptx/narrow_tall_b16.ptx
grep -q 'shifted into place by the row' "$1" && grep -q 'wide_realign=1' "$2" &&
	ok "narrow_tall_* carry the whole-granule realignment" ||
	nok "narrow_tall_* lack the whole-granule realignment (regenerate ptx/)"
tap_run "narrow_tall_*" $PX check --emulate --shapes "$TALL" "$@"
cat >"$tmp/wide.lua" <<'LUA'
for _, c in ipairs{ {16, 8, 128, 64}, {8, 16, 64, 128}, {8, 8, 128, 64} } do
  local name = string.format("wide_b%d_v%d", c[1], c[2])
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = c[1], tile = {128, c[4]},
    threads = {32, c[3] // 32}, vec = c[2], smem = "swizzle", group = 8, wide_realign = true })
end
LUA
$PX gen --out "$tmp/k" "$tmp/wide.lua" >"$tmp/out" 2>"$tmp/err" &&
	ok "gen: 16- and 8-byte granule variants" || { nok "gen: variants"; diag <"$tmp/err"; }
tap_run "16- and 8-byte granules" $PX check --emulate --shapes "$SHORT" "$tmp"/k/*.ptx
vec=$(grep -l 'edge tile, aligned: one predicated vector' ptx/*.ptx)
[ "$(echo "$vec" | wc -w)" -ge 15 ] && ok "the vector kernels have the vector edge path" ||
	nok "vector edge path in $(echo "$vec" | wc -w) files, want 15 or more"
tap_run "vector edges" $PX check --emulate --shapes "$EDGE" $vec
finish
