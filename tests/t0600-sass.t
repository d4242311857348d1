#!/bin/sh
# t0600-sass: for every committed PTX file `ptxpose sass` produces the SASS
# summary (text and JSON); no file uses local memory (LDL/STL) or generic
# LD/ST; files with 16-byte accesses (vec x elem = 128 bits: vec=4 of
# 32-bit, vec=2 of 64-bit elements) have 128-bit global loads AND stores
# (the gathering flat kernels, gather=1: stores; they load element by element);
# files with shared memory have shared loads, shared stores and a barrier
# (the study kernels' LDSM and STSM stand in for LDS and STS, and their
# listings show SHFL.BFLY and MOVM, LDSM or STSM);
# every file has instructions per byte, the arithmetic of its metadata's tile
# (grid=linear: per_block elements), and narrow_b16's agrees with a count by
# hand of its raw SASS; docs/inspect.md's figures are this run's.
# Needs cuobjdump: the README's set-up installs it (pip, into .deps/).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh

need_ptxpose
# Kernels of ABI v3 (*_nd_*) are their v2 twins with a longer matrix walk:
# t0300 holds every one (and the pack kernels of ABI v4) to no spills and
# no stack; here, v2's.
set -- $(grep -L '^// ptxpose kernel=[a-z_0-9]* abi=[34] ' ptx/*.ptx)
need_ptx "$1"

# One JSON summary per file, all checked by one small Python reader.
cat >"$tmp/check.py" <<'PY'
import json, sys
for path in sys.argv[1:]:
    f = open(path + ".name").read()
    try:
        r = json.load(open(path))
    except ValueError as e:
        print("not ok %s: the JSON summary reads (%s)" % (f, e))
        continue
    m, s = r["meta"] or {}, r["sass"]
    out = []
    def say(good, what):
        out.append((good, what))
    say(r["ok"] and s is not None and r["ptxas"] is not None, "summary produced")
    if s is None:
        s = {"ldl": -1, "stl": -1, "ld_generic": -1, "st_generic": -1, "ldg": {}, "stg": {}, "lds": {}, "sts": {}, "bar": 0}
    say(s["ldl"] == 0 and s["stl"] == 0, "no local memory (LDL %d, STL %d)" % (s["ldl"], s["stl"]))
    say(s["ld_generic"] == 0 and s["st_generic"] == 0, "no generic LD/ST")
    vec, elem = int(m.get("vec", 1)), int(m.get("elem", 0))
    if vec * elem == 128 and str(m.get("gather")) == "1":
        # the gathering flat kernels (gen/tp_flat_gather.c) load element by element
        say(s["stg"].get("128", 0) > 0, "16-byte stores (element loads: gather=1): STG.E.128 x%d" % s["stg"].get("128", 0))
    elif vec * elem == 128:
        say(s["ldg"].get("128", 0) > 0 and s["stg"].get("128", 0) > 0,
            "16-byte accesses: LDG.E.128 x%d and STG.E.128 x%d" % (s["ldg"].get("128", 0), s["stg"].get("128", 0)))
    if m.get("smem", "none") != "none":
        # the study kernels' ldmatrix (LDSM) and stmatrix (STSM) are shared
        # loads and stores that the summary's LDS and STS do not count; the
        # listing shows them (below)
        fam = m.get("family")
        say((sum(s["lds"].values()) > 0 or fam == "ldmatrix") and (sum(s["sts"].values()) > 0 or fam == "stmatrix")
            and s["bar"] > 0, "shared memory: LDS, STS and BAR present" if fam not in ("ldmatrix", "stmatrix")
            else "shared memory: %s, %s and BAR present" % (("LDSM", "STS") if fam == "ldmatrix" else ("LDS", "STSM")))
    # instructions per byte: instructions x warps / (2 x the tile's bytes), here from the metadata
    x = r.get("instructions_per_byte") or {}
    rows, cols = (1, int(m["per_block"])) if m.get("grid") in ("linear", "flat") else map(int, str(m.get("tile", "0x0")).split("x"))
    threads = 1
    for d in str(m.get("block", "0")).split("x"):
        threads *= int(d)
    warps, nbytes = (threads + 31) // 32, 2 * rows * cols * elem // 8
    want = s.get("instructions", 0) * warps / nbytes if nbytes else -1
    say(x.get("static") is True and x.get("value") is not None and abs(x["value"] - want) <= 1e-5 * want and
        x.get("instructions") == s.get("instructions") and x.get("warps") == warps and x.get("bytes") == nbytes and
        s.get("non_mem_instructions", -1) + s.get("mem_instructions", 0) == s.get("instructions"),
        "instructions per byte %s = %d instructions x %d warps / %d bytes (%dx%d x %d bits x 2)" %
        (x.get("value"), s.get("instructions", 0), warps, nbytes, rows, cols, elem))
    for good, what in out:
        print("%s %s: %s" % ("ok" if good else "not ok", f, what))
    if not all(good for good, _ in out):
        print("\n".join("# " + l for l in json.dumps(r, indent=1).splitlines()))
PY

# sass --json of every file in one run: one object a line, in order; their
# SASS comes from merged modules (one ptxas and one cuobjdump a processor).
# The plain build: this is about the kernels; the ASan build runs the same
# code (merged modules, the SASS parser) on the single files below and in
# t0610 (5 files, merged and alone).
build/ptxpose sass --json -v "$@" >"$tmp/all.jsonl" 2>"$tmp/all.err"
rc=$?
if [ "$rc" = 7 ]; then
	nok "ptxas or cuobjdump missing: $(head -1 "$tmp/all.err") -- run the README's set-up command (./build.sh test), which installs nvidia-cuda-cuobjdump into .deps/"
	finish
fi
[ "$rc" = 0 ] && ok "sass --json of the $# files: exit 0" || { nok "sass --json of the $# files: exit $rc"; diag <"$tmp/all.err"; }
grep -q "^sass: $# files: $# from [1-9][0-9]* merged modules*, 0 alone$" "$tmp/all.err" &&
	ok "... all $# from merged modules (one nvdisasm start a module, not a file)" ||
	{ nok "... all $# from merged modules"; grep '^sass:' "$tmp/all.err" | diag; }
# line i of the output, read by the shell (not a sed and a grep a file)
i=0 made=
exec 3<"$tmp/all.jsonl"
for f in "$@"; do
	i=$((i + 1))
	line= && IFS= read -r line <&3
	printf '%s\n' "$line" >"$tmp/j$i"
	printf %s "$f" >"$tmp/j$i.name"
	case $line in
	"{\"file\":\"$f\","*) made="$made $tmp/j$i" ;;
	*)
		nok "$f: line $i of sass --json is its object"
		diag <"$tmp/j$i" ;;
	esac
done
exec 3<&-
# the same objects as from each file alone (its own ptxas and cuobjdump)
for f in ptx/narrow_b16.ptx; do
	"$PX" sass --json "$f" >"$tmp/alone" 2>"$tmp/err"
	if grep -F "{\"file\":\"$f\"," "$tmp/all.jsonl" | cmp -s - "$tmp/alone"; then ok "$f: the same JSON from all files at once as alone"
	else nok "$f: the same JSON from all files at once as alone"; diag <"$tmp/alone"; diag <"$tmp/err"; fi
done
python3 "$tmp/check.py" $made >"$tmp/res" 2>"$tmp/err" || { nok "the JSON reader ran"; diag <"$tmp/err"; }
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok }" ;;
	"not ok "*) nok "${line#not ok }" ;;
	*) echo "$line" ;;
	esac
done <"$tmp/res"

# The warp-collective study kernels' warp instructions reach the SASS:
# SHFL.BFLY for the quad transposes, and MOVM, LDSM or STSM by family
# (metadata family=; the skinny kernels made study=1 until timed have none).
for f in $(grep -l '^// ptxpose family=[a-z]* study=1' "$@"); do
	fam=$(sed -n 's/^\/\/ ptxpose family=\([a-z]*\) .*/\1/p' "$f")
	case $fam in
	movmatrix) want=MOVM ;; ldmatrix) want=LDSM ;; stmatrix) want=STSM ;; *) want=SHFL ;;
	esac
	if "$PX" sass "$f" >"$tmp/t" 2>"$tmp/err" && grep -q '^ *\/\*[0-9a-f]*\*\/ .*SHFL\.BFLY' "$tmp/t" &&
	   grep -q "^ *\/\*[0-9a-f]*\*\/ .*$want" "$tmp/t"; then
		ok "$f: the listing shows SHFL.BFLY and $want"
	else
		nok "$f: the listing shows SHFL.BFLY and $want"
		diag <"$tmp/err"
	fi
done

# narrow_b16's figure by hand from the raw SASS: every instruction line but the
# NOPs and the unguarded BRA to its own address, x 8 warps (32x8 threads) / 32768
# bytes (2 x 128 x 64 x 2 bytes); the summary prints it to 3 places.
f=ptx/narrow_b16.ptx
if "$PX" sass --raw "$f" >"$tmp/raw" 2>"$tmp/err"; then
	hand=$(python3 -c '
import re, sys
n = 0
for line in open(sys.argv[1]):
    m = re.match(r"\s*/\*([0-9a-f]+)\*/\s+(@\S+\s+)?([A-Z][A-Z0-9.]*)\s*([^;]*);", line)
    if not m or m.group(3) == "NOP":
        continue
    if m.group(3) == "BRA" and not m.group(2) and m.group(4).strip() == "0x%x" % int(m.group(1), 16):
        continue
    n += 1
print("%d %.3f" % (n, n * 8 / 32768))
' "$tmp/raw")
	if grep -q "^instructions  *${hand% *}: " "$tmp/raw" &&
	   grep -q "^instructions per byte  *${hand#* } static, every path counted once: ${hand% *} instructions x 8 warps / 32768 bytes$" "$tmp/raw"; then
		ok "$f: instructions per byte by hand from its SASS: ${hand% *} instructions x 8 warps / 32768 bytes = ${hand#* }"
	else
		nok "$f: instructions per byte by hand from its SASS: ${hand% *} instructions x 8 warps / 32768 bytes = ${hand#* }"
		grep '^instructions' "$tmp/raw" | diag
	fi
else
	nok "$f: ptxpose sass --raw"
	diag <"$tmp/err"
fi

# docs/inspect.md's figures of instructions per byte are this run's, for the ptxas
# version they name (another ptxas makes other SASS: skipped, saying so).
ptxas=$(sed -n 's/^ptxas: //p' "$tmp/all.err" | head -1)
readme_ver=$(sed -n 's/.*For sm_90 with ptxas \([0-9.]*\), `ptxpose sass --summary$/\1/p' docs/inspect.md)
if [ -z "$readme_ver" ]; then
	nok "docs/inspect.md names the ptxas version of its instructions-per-byte figures"
elif ! "$ptxas" --version 2>/dev/null | grep -q "release $readme_ver,"; then
	ok "# SKIP docs/inspect.md's instructions per byte are for ptxas $readme_ver; this is $("$ptxas" --version 2>/dev/null | grep -o 'release [0-9.]*')"
elif python3 -c '
import json, re, sys
objs = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    objs[r["file"]] = r["instructions_per_byte"]
rows = re.findall(r"^    (\w+) +([0-9.]+) \((\d+) instructions x (\d+) warps / (\d+) bytes\)$", open("docs/inspect.md").read(), re.M)
assert len(rows) == 3, rows
for name, value, ins, warps, nbytes in rows:
    x = objs["ptx/%s.ptx" % name]
    got = ("%.3f" % x["value"], x["instructions"], x["warps"], x["bytes"])
    assert got == (value, int(ins), int(warps), int(nbytes)), (name, "docs/inspect.md", (value, ins, warps, nbytes), "sass", got)
' "$tmp/all.jsonl" 2>"$tmp/err"; then
	ok "docs/inspect.md's instructions per byte of narrow_b16, fast_b16, narrow_b8 are what sass gives (ptxas $readme_ver)"
else
	nok "docs/inspect.md's instructions per byte of narrow_b16, fast_b16, narrow_b8 are what sass gives (ptxas $readme_ver)"
	diag <"$tmp/err"
fi

# The text form of one vectorized file: the listing and the summary agree.
vecf=
for f in "$@"; do
	meta=" $(grep '^// ptxpose ' "$f" | sed 's|^// ptxpose ||' | tr '\n' ' ') "
	case $meta in
	*" elem=32 "*" vec=4 "* | *" vec=4 "*" elem=32 "* | *" elem=64 "*" vec=2 "* | *" vec=2 "*" elem=64 "*)
		vecf=$f
		break ;;
	esac
done
if [ -z "$vecf" ]; then
	nok "no vectorized (vec=4 of 32-bit or vec=2 of 64-bit) file in ptx/"
elif "$PX" sass "$vecf" >"$tmp/t" 2>"$tmp/err"; then
	if grep -q '^ *\/\*[0-9a-f]*\*\/ .*LDG\.E\.128' "$tmp/t" && grep -q '^ *\/\*[0-9a-f]*\*\/ .*STG\.E\.128' "$tmp/t" &&
	   grep -q '^global loads  *.*LDG\.E\.128 x[1-9]' "$tmp/t" && grep -q '^global stores  *.*STG\.E\.128 x[1-9]' "$tmp/t" &&
	   grep -q '^local memory  *none$' "$tmp/t"; then
		ok "$vecf: the listing and the text summary show LDG.E.128 and STG.E.128, no local memory"
	else
		nok "$vecf: the listing and the text summary show LDG.E.128 and STG.E.128, no local memory"
		diag <"$tmp/t"
	fi
else
	nok "$vecf: ptxpose sass"
	diag <"$tmp/err"
fi
finish
