#!/bin/sh
# Tiles in dynamic shared memory (dyn_smem): the generator declares the
# tile .extern and states dyn_smem=BYTES, which the launch passes (and opts
# in to above 48 KB). Emulated over shapes with interior 256x256 tiles:
# aligned, misaligned by pointer and by pitch, batched, with a capped grid;
# the committed fast_t256x256_b8 and a generated 64 KB kernel of halves.
# A file whose dyn_smem is less than the tile needs must fault.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
PX=build/ptxpose
need_ptxpose
S="520x600,512x512,513x777:offset=1,600x520:ld_in=528:ld_out=608,520x600:batch=2:offset=2,31x33"
f=ptx/fast_t256x256_b8.ptx
grep -q '^// ptxpose .* dyn_smem=65536 ' $f && grep -q '^\.extern \.shared .*tile_smem\[\]' $f &&
	ok "fast_t256x256_b8: an .extern tile, dyn_smem=65536" || nok "fast_t256x256_b8 lacks its dynamic tile (regenerate ptx/)"
tap_run "fast_t256x256_b8" $PX check --emulate --shapes "$S" $f
PTXPOSE_GRID_MAX=1x2x1 tap_run "fast_t256x256_b8, blocks walking tiles (grid 1x2)" $PX check --emulate --shapes "520x600:offset=1" $f
cat >"$tmp/dyn.lua" <<'LUA'
ptx.write("dyn_b16.ptx", ptx.transpose{ name = "dyn_b16", elem = 16, tile = {128, 256}, threads = {32, 8}, vec = 8,
  smem = "swizzle", group = 16, dyn_smem = true })
LUA
$PX gen --out "$tmp/k" "$tmp/dyn.lua" >"$tmp/out" 2>"$tmp/err" && ok "gen: a 64 KB tile of halves" ||
	{ nok "gen: dyn_b16"; diag <"$tmp/err"; }
tap_run "64 KB tile of halves" $PX check --emulate --shapes "$S" "$tmp/k/dyn_b16.ptx"
# the metadata asks for less dynamic shared memory than the tile uses
sed 's/ dyn_smem=65536 / dyn_smem=32768 /' $f >"$tmp/short.ptx"
$PX check --emulate --shapes 520x600 "$tmp/short.ptx" >"$tmp/tap" 2>&1
rc=$?
[ "$rc" = 8 ] && ok "dyn_smem short of the tile: an emulator fault (exit 8)" || { nok "dyn_smem short: exit $rc, want 8"; diag <"$tmp/tap"; }
finish
