#!/bin/sh
# t0610-sass-cli: `ptxpose sass` as a command: the missing-tool message,
# --diff, --json (of one file and of several), exit codes for a bad --arch, a missing file and PTX that
# does not assemble, variant names, file names with spaces, instructions per
# byte for PTX without metadata (--tile --elem --threads, their bad values,
# n/a without them), and --help documenting every field the summary prints.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh

need_ptxpose
a=ptx/cute_swizzle_b32.ptx
b=ptx/cute_vec_swizzle_b32.ptx
need_ptx "$a"
need_ptx "$b"
need_sass_tools "$a"

# The missing-tool message: exit 7, one line, what to install.
check "PTXPOSE_CUOBJDUMP naming no file exits 7" 7 env PTXPOSE_CUOBJDUMP=/nonexistent/cuobjdump "$PX" sass "$a"
one_line "... with one line naming nvidia-cuda-cuobjdump" 'pip install nvidia-cuda-cuobjdump'
if [ -e /usr/local/cuda/bin/cuobjdump ]; then
	ok "# SKIP /usr/local/cuda/bin/cuobjdump exists, so it cannot be missing"
	ok "# SKIP (the same)"
else
	# no PATH, no python3, no HOME, and a binary away from the repository's .deps/
	mkdir "$tmp/bin" "$tmp/empty"
	cp "$PX" "$tmp/bin/ptxpose"
	check "no cuobjdump anywhere exits 7" 7 env -u PTXPOSE_CUOBJDUMP PATH="$tmp/empty" HOME="$tmp/empty" "$tmp/bin/ptxpose" sass "$a"
	one_line "... with one line naming nvidia-cuda-cuobjdump" 'cuobjdump not found.*pip install nvidia-cuda-cuobjdump'
fi
# cuobjdump 13 runs nvdisasm: a cuobjdump alone in its folder cannot disassemble
co=$(sed -n 's/^cuobjdump: //p' "$tmp/sass_tools")
if PATH=/usr/bin:/bin command -v nvdisasm >/dev/null; then
	ok "# SKIP nvdisasm is in /usr/bin or /bin"
	ok "# SKIP (the same)"
else
	mkdir "$tmp/alone"
	cp "$co" "$tmp/alone/cuobjdump"
	check "cuobjdump without nvdisasm exits 7" 7 env PATH=/usr/bin:/bin PTXPOSE_CUOBJDUMP="$tmp/alone/cuobjdump" "$PX" sass "$a"
	one_line "... with one line naming nvidia-cuda-nvdisasm" 'cannot find nvdisasm.*pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm'
fi
check "PTXPOSE_PTXAS naming no file exits 7" 7 env PTXPOSE_PTXAS=/nonexistent/ptxas "$PX" sass "$a"
one_line "... with one line" 'PTXPOSE_PTXAS=/nonexistent/ptxas is not an executable'

# Usage and input errors.
check "--arch sm9 exits 2" 2 "$PX" sass --arch sm9 "$a"
one_line "... saying what an arch looks like" "expected sm_NN"
check "--arch sm_99 (unknown to ptxas) exits 2" 2 "$PX" sass --arch sm_99 "$a"
check "an unknown flag exits 2" 2 "$PX" sass --frobnicate "$a"
check "no file exits 2" 2 "$PX" sass
check "--diff with one file exits 2" 2 "$PX" sass --diff "$a"
check "a missing file exits 3" 3 "$PX" sass "$tmp/nothere.ptx"
one_line "... naming it" "nothere.ptx: cannot read: No such file"
: >"$tmp/empty.ptx"
check "an empty file exits 3" 3 "$PX" sass "$tmp/empty.ptx"
one_line "... one line" "^ptxpose sass: $tmp/empty.ptx: an empty file: no PTX in it$"
check "a missing variant name exits 3" 3 "$PX" sass no_such_variant
one_line "... saying there is no such kernel" "no_such_variant: no such file, and no kernel of that name among the library.s"
sed "s/\bret;/bogus.instruction;/" "$a" >"$tmp/broken.ptx"
check "PTX that ptxas rejects exits 5" 5 "$PX" sass "$tmp/broken.ptx"
if grep -q "ptxas rejected" "$tmp/err" && grep -q "broken.ptx, line [0-9]*; error" "$tmp/err"; then ok "... and shows ptxas's errors"
else nok "... and shows ptxas's errors"; diag <"$tmp/err"; fi

# Names: a variant name from another folder (a file name with a space: --diff below).
check "a variant name, from another folder" 0 sh -c 'cd / && "$0" sass --summary cute_vec_swizzle_b32' "$(cd "$(dirname "$PX")" && pwd)/$(basename "$PX")"
grep -q "^kernel  *cute_vec_swizzle_b32$" "$tmp/out" && ok "... finds ptx/cute_vec_swizzle_b32.ptx" || { nok "... finds ptx/cute_vec_swizzle_b32.ptx"; diag <"$tmp/out"; }

# --json: one object that parses, with the fields scripts read.
check "--json" 0 "$PX" sass --json --arch sm_80 "$b"
if python3 -m json.tool <"$tmp/out" >/dev/null 2>"$tmp/err"; then ok "--json parses (python3 -m json.tool)"
else nok "--json parses (python3 -m json.tool)"; diag <"$tmp/err"; fi
if python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["ok"] and r["arch"] == "sm_80", r
assert r["ptxas"]["registers"] > 0 and r["ptxas"]["stack_bytes"] == 0
assert r["sass"]["ldg"]["128"] > 0 and r["sass"]["instructions"] > 0
assert r["meta"]["kernel"] == "cute_vec_swizzle_b32"
assert r["meta"]["elem"] == 32 and r["meta"]["vec"] == 4 and r["meta"]["tile"] == "64x64", r["meta"]
assert all(a["wavefronts"] >= a["ideal"] for a in r["bank_model"])
' <"$tmp/out" 2>"$tmp/err"; then ok "--json holds ptxas, SASS, metadata (numbers as numbers) and bank model fields"
else nok "--json holds ptxas, SASS, metadata (numbers as numbers) and bank model fields"; diag <"$tmp/err"; fi
check "--json on PTX that ptxas rejects exits 5" 5 "$PX" sass --json "$tmp/broken.ptx"
python3 -c 'import json,sys; r=json.load(sys.stdin); assert not r["ok"] and "error" in r["log"]' <"$tmp/out" 2>/dev/null &&
	ok "... and still prints an object with ok false and ptxas's log" || { nok "... and still prints an object with ok false and ptxas's log"; diag <"$tmp/out"; }

# Several files with --json: one object a line, in order. Their SASS comes from
# merged modules (-v counts them): a copy of a file (the same entry name) goes
# to a module of its own, a file with a module-scope function is disassembled
# alone, a file ptxas rejects is an object with ok false (exit 5); the copy's
# object, from a module of one, is the one it gets alone (t0600: one merged
# with others).
cp "$a" "$tmp/copy.ptx"
sed 's/^\.visible \.entry/.func helper_fn()\n{\n\tret;\n}\n\n&/' "$b" >"$tmp/func.ptx"
check "sass --json -v of 5 files, one rejected: exit 5" 5 "$PX" sass --json -v "$a" "$tmp/copy.ptx" "$tmp/func.ptx" "$tmp/broken.ptx" "$b"
grep -qx 'sass: 5 files: 3 from 2 merged modules, 1 alone' "$tmp/err" && ok "... 3 from 2 merged modules (the copy apart), the function's file alone" ||
	{ nok "... 3 from 2 merged modules, 1 alone"; grep -v '^ptxas' "$tmp/err" | diag; }
cp "$tmp/out" "$tmp/several"
if [ "$(wc -l <"$tmp/several")" -eq 5 ] && python3 -c '
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
assert [r["file"].rsplit("/", 1)[-1] for r in rs] == ["cute_swizzle_b32.ptx", "copy.ptx", "func.ptx", "broken.ptx", "cute_vec_swizzle_b32.ptx"], rs
assert [r["ok"] for r in rs] == [True, True, True, False, True]
' "$tmp/several" 2>"$tmp/err"; then ok "... five objects in order, the rejected one with ok false"
else nok "... five objects in order, the rejected one with ok false"; diag <"$tmp/err"; fi
for f in "$tmp/copy.ptx"; do
	"$PX" sass --json "$f" >"$tmp/one.json" 2>/dev/null
	grep -F "{\"file\":\"$f\"," "$tmp/several" | cmp -s - "$tmp/one.json" && ok "... $(basename "$f"): the same object as alone" ||
		{ nok "... $(basename "$f"): the same object as alone"; diag <"$tmp/one.json"; }
done
check "several files without --json: exit 2" 2 "$PX" sass "$a" "$b"
one_line "... one line" "too many files: .* (several files need --json)"

# --diff: side by side, '*' on the lines that differ; exit 1 when they do, as diff.
check "--diff A B: exit 1, they differ" 1 "$PX" sass --diff "$a" "$b"
if grep -q '^\* global loads  *LDG\.E x[0-9]*  *| LDG\.E\.128 x' "$tmp/out" && grep -q '^  target  *sm_90  *| sm_90$' "$tmp/out" &&
   grep -q '^  local memory  *none  *| none$' "$tmp/out"; then
	ok "--diff puts the summaries side by side and marks the differences"
else
	nok "--diff puts the summaries side by side and marks the differences"; diag <"$tmp/out"
fi
cp "$a" "$tmp/with space.ptx"
check "--diff A A': exit 0, the same summary under another file name (with a space)" 0 "$PX" sass --diff "$a" "$tmp/with space.ptx"
grep -q "^\* file  *$a  *| $tmp/with space.ptx$" "$tmp/out" && ok "... a file name with a space is shown whole" || { nok "... is shown whole"; diag <"$tmp/out"; }
grep -q '^\* file ' "$tmp/out" && [ "$(grep -c '^\*' "$tmp/out")" -eq 1 ] && ok "... only the file line is marked" || { nok "... marks"; diag <"$tmp/out"; }
check "--diff --json: exit 1, they differ" 1 "$PX" sass --diff --json "$a" "$b"
python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["a"]["file"].endswith("cute_swizzle_b32.ptx") and r["b"]["ok"]' <"$tmp/out" 2>"$tmp/err" &&
	ok "--diff --json is {\"a\": ..., \"b\": ...}" || { nok "--diff --json is {\"a\": ..., \"b\": ...}"; diag <"$tmp/err"; }

# Instructions per byte of PTX without metadata: n/a, or the flags' tile.
grep -v '^// ptxpose' "$b" >"$tmp/bare.ptx"
check "PTX without metadata" 0 "$PX" sass --summary "$tmp/bare.ptx"
grep -qx 'instructions per byte  *n/a (no tile: use --tile --elem --threads)' "$tmp/out" &&
	ok "... instructions per byte: n/a, saying which flags give the tile" || { nok "... n/a"; diag <"$tmp/out"; }
check "... --json" 0 "$PX" sass --json "$tmp/bare.ptx"
python3 -c 'import json,sys; x=json.load(sys.stdin)["instructions_per_byte"]; assert x["static"] and x["value"] is None and x["reason"].startswith("no tile"), x' \
	<"$tmp/out" 2>"$tmp/err" && ok "... value null and the reason" || { nok "... value null and the reason"; diag <"$tmp/err"; }
check "... --tile 64x64 --elem 32 --threads 256 (the metadata's)" 0 "$PX" sass --json --tile 64x64 --elem=32 --threads 256 "$tmp/bare.ptx"
mv "$tmp/out" "$tmp/bare.json"
check "... and the file with its metadata, flags ignored" 0 "$PX" sass --json --tile 8x8 --elem 8 --threads 32 "$b"
if python3 -c '
import json, sys
x, y = (json.load(open(f))["instructions_per_byte"] for f in sys.argv[1:])
assert x["value"] == y["value"] > 0 and x["bytes"] == y["bytes"] == 2 * 64 * 64 * 4 and x["warps"] == 8, (x, y)
assert x["source"] == "--tile 64x64 --elem 32 --threads 256" and y["source"] == "tile=64x64 of the metadata", (x, y)
' "$tmp/bare.json" "$tmp/out" 2>"$tmp/err"; then ok "... the same figure from the flags as from the metadata, each naming its source"
else nok "... the same figure from the flags as from the metadata"; diag <"$tmp/err"; fi
check "--diff of the two, the flags for the bare one: exit 1 (metadata differs)" 1 "$PX" sass --diff --tile 64x64 --elem 32 --threads 256 "$b" "$tmp/bare.ptx"
grep -q '^  instructions per byte  *[0-9.]* static, every path counted once: .* | [0-9.]* static' "$tmp/out" &&
	ok "... instructions per byte: the same line on both sides" || { nok "... the same figure on both sides"; diag <"$tmp/out"; }
for bad in "--tile 64 --elem 32 --threads 256:--tile: expected ROWSxCOLS" "--tile 0x64 --elem 32 --threads 256:--tile rows: expected an integer from 1" \
	"--tile 64x1048577 --elem 32 --threads 256:--tile cols: expected an integer from 1 to 1048576" \
	"--tile 64x64 --elem 12 --threads 256:--elem '12' is not an element width" \
	"--tile 64x64 --elem 32 --threads 0:--threads: expected an integer from 1 to 1024" \
	"--tile 64x64 --elem 32 --threads 1025:--threads: expected an integer from 1 to 1024" \
	"--tile 64x64 --elem 32:--tile, --elem and --threads go together.*--threads missing" \
	"--tile 64x64 --tile 32x32 --elem 32 --threads 256:--tile given twice"; do
	check "sass ${bad%%:*}: exit 2" 2 "$PX" sass ${bad%%:*} "$tmp/bare.ptx"
	one_line "... one line: ${bad#*:}" "${bad#*:}"
done

# The text: the listing (no encodings) before the summary; --help documents every field.
check "sass FILE" 0 "$PX" sass "$b"
if grep -q 'Function : cute_vec_swizzle_b32' "$tmp/out" && grep -q '^ *\/\*0000\*\/ ' "$tmp/out" && ! grep -q '/\* 0x' "$tmp/out"; then
	ok "the listing comes without the encodings"
else
	nok "the listing comes without the encodings"; head -20 "$tmp/out" | diag
fi
check "sass --raw FILE" 0 "$PX" sass --raw "$b"
grep -q '/\* 0x' "$tmp/out" && ok "--raw keeps cuobjdump's encodings" || nok "--raw keeps cuobjdump's encodings"
cut -c1-21 "$tmp/sass_summary" | sed 's/ *$//' | grep . | sort -u >"$tmp/labels"
check "sass --help" 0 "$PX" sass --help
missing=
while read -r label; do
	grep -q "^  $label\( \|$\)" "$tmp/out" || missing="$missing '$label'"
done <"$tmp/labels"
if [ -z "$missing" ] && [ "$(wc -l <"$tmp/labels")" -ge 19 ]; then ok "--help documents every summary field ($(wc -l <"$tmp/labels"))"
else nok "--help documents every summary field: not$missing"; fi
grep -q -- '--tile RxC --elem BITS --threads N' "$tmp/out" && grep -q 'a STATIC estimate' "$tmp/out" &&
	grep -q 'Every path is' "$tmp/out" && grep -q 'bounds from above' "$tmp/out" &&
	ok "--help says what instructions per byte is, and its flags" || nok "--help says what instructions per byte is"
grep -q 'exits 0 when the summaries are the same' "$tmp/out" && grep -q '1 --diff: the summaries differ' "$tmp/out" &&
	ok "--help documents --diff's exit status" || nok "--help documents --diff's exit status"
finish
