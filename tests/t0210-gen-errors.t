#!/bin/sh
# Bad scripts and bad parameters: one line naming what was wrong, a distinct
# exit code, and nothing half-written or overwritten.
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
px=build/asan/ptxpose
n=0
t() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }
# expect CODE PATTERN -- command...: exit code, and stderr is one line matching
expect() {
	code=$1 pat=$2; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$rc" = "$code" ] && [ "$lines" = 1 ] && grep -q -- "$pat" "$tmp/err"; then r=0; else
		r=1; echo "# exit $rc (want $code), stderr:"; sed 's/^/#   /' "$tmp/err"; fi
	return $r
}
echo "1..40"
mkdir "$tmp/o"
printf 'local x = \nptx.write("a.ptx", ptx.transpose{name="a"})\nptx.write(' >"$tmp/syntax.lua"
expect 6 'syntax.lua:3:' -- $px gen --out "$tmp/o" "$tmp/syntax.lua"; t $? "syntax error: exit 6, file:line"
printf 'ptx.write("a.ptx", ptx.transpose{name="a"})\nlocal t = ptx.transpose{name="b", tile={48, 32}}\n' >"$tmp/tile.lua"
expect 6 'tile.lua:2: transpose b: tile: 48x32 must be powers of two' -- $px gen --out "$tmp/o" "$tmp/tile.lua"
t $? "bad tile: exit 6, names the script line and the parameter"
t "$(ls "$tmp/o" | wc -l | tr -d ' ')" "a failed run writes nothing, not even the files queued before the error"
printf 'ptx.transpose{name="c", tiel={32, 32}}\n' >"$tmp/unknown.lua"
expect 6 "unknown parameter 'tiel'" -- $px gen --out "$tmp/o" "$tmp/unknown.lua"; t $? "misspelt parameter is refused"
printf 'ptx.transpose{name="d", elem=64, vec=4}\n' >"$tmp/vec.lua"
expect 6 'widest is 16 bytes' -- $px gen --out "$tmp/o" "$tmp/vec.lua"; t $? "32-byte vector refused with the reason"
printf 'ptx.transpose{name="e", smem="lots"}\n' >"$tmp/smem.lua"
expect 6 "smem must be one of none, plain, padded, swizzle" -- $px gen --out "$tmp/o" "$tmp/smem.lua"; t $? "bad option lists the choices"
printf 'ptx.transpose{name="w", elem=32, tile={64, 64}, threads={32, 8}, vec=4, smem="swizzle", wide_realign=true}\n' >"$tmp/wide.lua"
expect 6 'wide_realign: applies to 1- and 2-byte elements' -- $px gen --out "$tmp/o" "$tmp/wide.lua"; t $? "wide_realign on 4-byte elements is refused with the reason"
W='name="s", elem=16, tile={128, 64}, threads={32, 8}, vec=4, smem="swizzle"'
printf 'ptx.transpose{%s, shear=16}\n' "$W" >"$tmp/shear1.lua"
expect 6 'shear: needs wide_realign' -- $px gen --out "$tmp/o" "$tmp/shear1.lua"; t $? "shear without wide_realign is refused"
printf 'ptx.transpose{%s, wide_realign=true, shear=24}\n' "$W" >"$tmp/shear2.lua"
expect 6 "shear: 24 must be a power of two from the access's 8 bytes to 128" -- $px gen --out "$tmp/o" "$tmp/shear2.lua"
t $? "a shear that is not a power of two is refused with the range"
printf 'ptx.transpose{%s, wide_realign=true, shear=4}\n' "$W" >"$tmp/shear3.lua"
expect 6 "shear: 4 must be a power of two from the access's 8 bytes" -- $px gen --out "$tmp/o" "$tmp/shear3.lua"
t $? "a shear narrower than the access is refused"
printf 'ptx.transpose{name="s", elem=8, tile={128, 128}, threads={32, 8}, vec=8, smem="swizzle", wide_realign=true, shear=128}\n' >"$tmp/shear4.lua"
expect 6 "shear: 128 bytes is 128 rows; the tile's 128 rows must hold twice as many" -- $px gen --out "$tmp/o" "$tmp/shear4.lua"
t $? "a shear of half the tile or more is refused"
printf 'ptx.transpose{name="d", elem=8, tile={256, 256}, threads={32, 16}, vec=8, smem="none", dyn_smem=true}\n' >"$tmp/dyn1.lua"
expect 6 'dyn_smem: applies only to kernels with shared memory' -- $px gen --out "$tmp/o" "$tmp/dyn1.lua"; t $? "dyn_smem without shared memory is refused"
printf 'ptx.transpose{name="d", elem=8, tile={256, 256}, threads={32, 16}, vec=8, smem="swizzle"}\n' >"$tmp/dyn2.lua"
expect 6 'needs 65536 bytes of shared memory, over the 49152-byte static limit' -- $px gen --out "$tmp/o" "$tmp/dyn2.lua"
t $? "a 64 KB tile without dyn_smem is refused, naming the static limit"
printf 'ptx.transpose{name="f", family="movmatrix", elem=32}\n' >"$tmp/fam1.lua"
expect 6 'elem: a movmatrix kernel moves 16-bit elements, not 32' -- $px gen --out "$tmp/o" "$tmp/fam1.lua"
t $? "a warp-collective family refuses another width, naming its own"
printf 'ptx.transpose{name="f", family="ldmatrix", elem=16, tile={64, 32}, threads={32, 2}}\n' >"$tmp/fam2.lua"
expect 6 "tile: a ldmatrix kernel's shared rows need 8 granules (64 halves) for the swizzle, not 32" -- $px gen --out "$tmp/o" "$tmp/fam2.lua"
t $? "a ldmatrix tile too narrow for its swizzle is refused"
printf 'ptx.transpose{name="f", family="shfl", tile={32, 64}, threads={32, 4}, smem="swizzle"}\n' >"$tmp/fam3.lua"
expect 6 'family: a shfl kernel takes no smem' -- $px gen --out "$tmp/o" "$tmp/fam3.lua"; t $? "a family refuses the tile kernel's parameters"
printf 'ptx.transpose{name="f", family="wmma"}\n' >"$tmp/fam4.lua"
expect 6 "family must be one of tile, movmatrix, ldmatrix, stmatrix, shfl, flat, pack, skinny_reg, got 'wmma'" -- $px gen --out "$tmp/o" "$tmp/fam4.lua"
t $? "an unknown family lists the choices"
printf 'ptx.transpose{name="g", abi=4}\n' >"$tmp/abi4.lua"
expect 6 'transpose: abi = 4 is outside 2..3' -- $px gen --out "$tmp/o" "$tmp/abi4.lua"; t $? "abi=4: refused with the range"
printf 'ptx.transpose{name="g", grid="linear", threads={256, 1}, abi=3}\n' >"$tmp/abi3lin.lua"
expect 6 'transpose g: abi: the linear (1-D) kernel walks one batch dimension: kernel ABI 2 only' -- \
	$px gen --out "$tmp/o" "$tmp/abi3lin.lua"; t $? "abi=3 on the linear kernel: refused"
printf 'ptx.transpose{name="f", family="flat", elem=8, threads={256, 1}, slots=16}\n' >"$tmp/flat1.lua"
expect 6 'slots: 16 x 256 threads x 16 bytes is 65536 bytes of shared memory, over the 49152-byte static limit' -- \
	$px gen --out "$tmp/o" "$tmp/flat1.lua"
t $? "a flat kernel's chunk past the static shared-memory limit is refused"
printf 'ptx.transpose{name="f", family="flat", threads={64, 4}}\n' >"$tmp/flat2.lua"
expect 6 'threads: a flat kernel takes threads={T, 1}, not 64x4' -- $px gen --out "$tmp/o" "$tmp/flat2.lua"
t $? "a flat kernel refuses threads along y"
printf 'ptx.transpose{name="f", family="flat", skinny="wide"}\n' >"$tmp/flat3.lua"
expect 6 'skinny: applies only to skinny_reg or skinny kernels' -- $px gen --out "$tmp/o" "$tmp/flat3.lua"
t $? "a flat kernel refuses another family's parameter"
printf 'ptx.transpose{name="s", skinny="wide", elem=32, tile={64, 64}, threads={256, 1}, kw=16, pack=true}\n' >"$tmp/pack32.lua"
expect 6 'pack: 1- and 2-byte elements only, with 4 passes along K (kmax/kw) a multiple of 1' -- \
	$px gen --out "$tmp/o" "$tmp/pack32.lua"; t $? "a packed skinny kernel of 4-byte elements is refused"
printf 'ptx.transpose{name="s", skinny="tall", elem=8, tile={256, 64}, threads={256, 1}, kw=32, pack=true}\n' >"$tmp/pack8.lua"
expect 6 'pack: 1- and 2-byte elements only, with 2 passes along K (kmax/kw) a multiple of 4' -- \
	$px gen --out "$tmp/o" "$tmp/pack8.lua"; t $? "a packed byte kernel with 2 passes along K is refused"
printf 'ptx.transpose{name="r", family="skinny_reg", skinny="wide", elem=32, tile={16, 512}, threads={256, 1}}\n' >"$tmp/reg32.lua"
expect 6 'elem: a skinny_reg kernel moves 8- or 16-bit elements, not 32' -- $px gen --out "$tmp/o" "$tmp/reg32.lua"
t $? "a register skinny kernel of 4-byte elements is refused"
printf 'ptx.transpose{name="r", family="skinny_reg", elem=8, tile={16, 512}, threads={256, 1}}\n' >"$tmp/reg0.lua"
expect 6 'skinny: a skinny_reg kernel is "wide" (K x N in) or "tall" (N x K in)' -- $px gen --out "$tmp/o" "$tmp/reg0.lua"
t $? "a register skinny kernel without a direction is refused"
printf 'ptx.transpose{name="r", family="skinny_reg", skinny="tall", elem=8, tile={512, 8}, threads={256, 1}}\n' >"$tmp/reg8.lua"
expect 6 'tile: the small dimension of a tile (kmax 8) must be 16 to 128 bytes' -- $px gen --out "$tmp/o" "$tmp/reg8.lua"
t $? "a register skinny kernel with kmax under 16 bytes is refused"
printf 'ptx.transpose{name="r", family="skinny_reg", skinny="wide", elem=8, tile={16, 512}, threads={256, 1}}\n' >"$tmp/reg5.lua"
expect 6 'tile: the long side 512 must be 1 to 4 times the 1024 positions that 256 threads cover at kmax 16' -- \
	$px gen --out "$tmp/o" "$tmp/reg5.lua"; t $? "a register skinny kernel whose threads overrun the long side is refused"
printf 'ptx.transpose{name="f", gather=true}\n' >"$tmp/flat4.lua"
expect 6 'gather: applies only to flat kernels' -- $px gen --out "$tmp/o" "$tmp/flat4.lua"; t $? "gather: flat kernels only"
printf 'ptx.write("g.ptx", ptx.transpose{name="g", family="flat", elem=32, threads={256, 1}, slots=16, gather=true})\n' >"$tmp/flat5.lua"
$px gen --out "$tmp/o" "$tmp/flat5.lua" >/dev/null 2>&1 && grep -q '^// ptxpose vec=4 smem=none slots=16 gather=1 unit=16$' "$tmp/o/g.ptx"
t $? "a gathering flat kernel has no shared stage: 64 KB of slots are taken (smem=none)"
printf 'ptx.transpose{name="f", family="flat", elem=8, threads={64, 1}, unit=8}\n' >"$tmp/flat6.lua"
expect 6 'unit: 8 bytes needs gather = true (the shared stage moves 16-byte vectors)' -- $px gen --out "$tmp/o" "$tmp/flat6.lua"
t $? "unit below 16 bytes: gathering kernels only"
printf 'ptx.transpose{name="f", family="flat", elem=64, threads={64, 1}, gather=true, unit=4}\n' >"$tmp/flat7.lua"
expect 6 'unit: 4 bytes is not 4, 8 or 16 bytes, at least an element (8 bytes)' -- $px gen --out "$tmp/o" "$tmp/flat7.lua"
t $? "a unit smaller than an element is refused"
expect 3 'missing.lua: cannot read: No such file or directory' -- $px gen --out "$tmp/o" "$tmp/missing.lua"; t $? "missing script: exit 3"
expect 2 "unknown flag '--bogus'" -- $px gen --bogus x.lua; t $? "unknown flag: exit 2"
printf 'ptx.write("mine.ptx", ptx.transpose{name="m"})\n' >"$tmp/mine.lua"
echo "my own notes" >"$tmp/o/mine.ptx"
expect 6 'was not generated by ptxpose' -- $px gen --out "$tmp/o" "$tmp/mine.lua"; t $? "a file the user made is not overwritten"
grep -q 'my own notes' "$tmp/o/mine.ptx"; t $? "... and is still intact"
$px gen --force --out "$tmp/o" "$tmp/mine.lua" >/dev/null 2>&1 && grep -q 'Generated by ptxpose' "$tmp/o/mine.ptx"
t $? "--force replaces it"
$px gen --out "$tmp/o" "$tmp/mine.lua" >"$tmp/out" 2>&1 && grep -q '^unchanged ' "$tmp/out"
t $? "a regenerated, identical file is reported unchanged"
# docs/kernels.md's "Writing a kernel variant": its script generates, and its error example
# (the same script with elem = 64) is what gen prints, word for word.
awk '/^```lua$/ { n++; next } /^```$/ { if (n == 1) exit } n == 1' docs/kernels.md >"$tmp/readme.lua"
mkdir -p "$tmp/rd" && (cd "$tmp/rd" && "$OLDPWD/$px" gen --out mine ../readme.lua >/dev/null 2>&1) && [ -f "$tmp/rd/mine/my_swizzled.ptx" ]
t $? "docs/kernels.md's example script generates my_swizzled.ptx"
sed 's/elem = 32,/elem = 64,/' "$tmp/readme.lua" >"$tmp/rd/my.lua"
msg=$(cd "$tmp/rd" && "$OLDPWD/$px" gen --out mine my.lua 2>&1 | sed 's/^ptxpose gen: //')
[ -n "$msg" ] && tr '\n' ' ' <docs/kernels.md | sed 's/  */ /g' | grep -qF "$msg"
t $? "docs/kernels.md's error example is gen's message ($msg)"
