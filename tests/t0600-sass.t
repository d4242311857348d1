#!/bin/sh
# t0600-sass: for every committed PTX file `ptxpose sass` produces the SASS
# summary (text and JSON); no file uses local memory (LDL/STL) or generic
# LD/ST; files with 16-byte accesses (vec x elem = 128 bits: vec=4 of
# 32-bit, vec=2 of 64-bit elements) have 128-bit global loads AND stores;
# files with shared memory have shared loads, shared stores and a barrier.
# Needs cuobjdump: the README's set-up installs it (pip, into .deps/).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh

need_ptxpose
set -- ptx/*.ptx
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
    if vec * elem == 128:
        say(s["ldg"].get("128", 0) > 0 and s["stg"].get("128", 0) > 0,
            "16-byte accesses: LDG.E.128 x%d and STG.E.128 x%d" % (s["ldg"].get("128", 0), s["stg"].get("128", 0)))
    if m.get("smem", "none") != "none":
        say(sum(s["lds"].values()) > 0 and sum(s["sts"].values()) > 0 and s["bar"] > 0,
            "shared memory: LDS, STS and BAR present")
    for good, what in out:
        print("%s %s: %s" % ("ok" if good else "not ok", f, what))
    if not all(good for good, _ in out):
        print("\n".join("# " + l for l in json.dumps(r, indent=1).splitlines()))
PY

# sass --json for every file, as many at a time as there are processors
# (cuobjdump's nvdisasm takes most of the time, on one core each)
i=0
for f in "$@"; do
	i=$((i + 1))
	printf '%s\0%s\0' "$tmp/j$i" "$f"
done | xargs -0 -n 2 -P "$(nproc 2>/dev/null || echo 2)" \
	sh -c '"$0" sass --json "$2" >"$1" 2>"$1.err"; echo $? >"$1.rc"; printf %s "$2" >"$1.name"' "$PX"
if [ "$(cat "$tmp/j1.rc")" = 7 ]; then
	nok "ptxas or cuobjdump missing: $(head -1 "$tmp/j1.err") -- run the README's set-up command (./build.sh test), which installs nvidia-cuda-cuobjdump into .deps/"
	finish
fi
i=0 made=
for f in "$@"; do
	i=$((i + 1))
	if [ "$(cat "$tmp/j$i.rc" 2>/dev/null)" = 0 ]; then
		made="$made $tmp/j$i"
	else
		nok "$f: ptxpose sass --json"
		diag <"$tmp/j$i.err"
	fi
done
python3 "$tmp/check.py" $made >"$tmp/res" 2>"$tmp/err" || { nok "the JSON reader ran"; diag <"$tmp/err"; }
while IFS= read -r line; do
	case $line in
	"ok "*) ok "${line#ok }" ;;
	"not ok "*) nok "${line#not ok }" ;;
	*) echo "$line" ;;
	esac
done <"$tmp/res"

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
