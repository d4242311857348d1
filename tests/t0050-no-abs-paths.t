#!/bin/sh
# No absolute path of a development machine in what the repository holds or
# prints: every `ptxpose CMD --help`, and every tracked file (docs, code and
# its comments, tests, the generated ptx/, build.ninja, and the text inside
# the compressed results and records: lib/model_data/, bench/results/, lab/).
# Home-like roots are refused, and so are this checkout's own location and
# $HOME wherever they are; system paths (/usr/..., /dev/null, /tmp, /proc)
# are fine. A document a help text cites must be in the repository.
# The pattern is spelt so that this file does not match itself.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
roots='/(work|root|home|Users|mnt|media|srv|scratch|builds)/'
here=$(pwd -P)
# the fixed strings: this checkout and $HOME (unless either is / or a system folder)
: >"$tmp/fixed"
for p in "$here" "${HOME:-}"; do
	case "$p" in '' | / | /tmp | /tmp/* | /usr | /usr/*) ;; *) printf '%s/\n' "$p" >>"$tmp/fixed" ;; esac
done
# scan FILE...: 0 when none names a machine path; the lines that do in $tmp/hits
scan() {
	grep -nIE "$roots" "$@" >"$tmp/hits"
	[ -s "$tmp/fixed" ] && grep -nIF -f "$tmp/fixed" "$@" >>"$tmp/hits"
	[ ! -s "$tmp/hits" ]
}

"$PX" help >"$tmp/help.txt" 2>&1
cmds=$(sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' "$tmp/help.txt")
[ -n "$cmds" ] && ok "ptxpose help lists the commands: $(echo $cmds)" || nok "ptxpose help lists the commands"
"$PX" >"$tmp/usage.txt" 2>&1
for c in $cmds; do
	"$PX" "$c" --help >"$tmp/$c.txt" 2>&1
	(cd "$tmp" && scan "$c.txt") && ok "ptxpose $c --help names no machine path" ||
		{ nok "ptxpose $c --help names no machine path"; diag <"$tmp/hits"; }
done
(cd "$tmp" && scan help.txt usage.txt) && ok "ptxpose help and the bare usage name no machine path" ||
	{ nok "ptxpose help names no machine path"; diag <"$tmp/hits"; }
# a document a help text cites (NAME.md in capitals) is in the repository
missing=
for d in $(cd "$tmp" && cat ./*.txt | grep -oE '[A-Za-z0-9_./-]*\b[A-Z][A-Z0-9_-]*\.md\b' | sort -u); do
	[ -f "$d" ] || missing="$missing $d"
done
[ -z "$missing" ] && ok "every .md a help text cites is in the repository" ||
	nok "every .md a help text cites is in the repository; not:$missing"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files -z | xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\n" "$f"; done' sh >"$tmp/files"
else
	find . -type f ! -path './.git/*' ! -path './build/*' ! -path './.deps/*' | sed 's|^\./||' >"$tmp/files"
fi
[ "$(wc -l <"$tmp/files")" -gt 50 ] && ok "$(wc -l <"$tmp/files") files to scan" || nok "files to scan"
tr '\n' '\0' <"$tmp/files" | xargs -0 grep -nIE "$roots" >"$tmp/hits"
[ -s "$tmp/fixed" ] && tr '\n' '\0' <"$tmp/files" | xargs -0 grep -nIF -f "$tmp/fixed" >>"$tmp/hits"
# the compressed files (.xz, .gz: the results and the lab's archive), unpacked in
# memory: their text, an archive's members' too
grep -E '\.(xz|gz)$' "$tmp/files" >"$tmp/packed"
python3 - "$roots" "$tmp/fixed" "$tmp/packed" >>"$tmp/hits" <<'PY'
import gzip, lzma, re, sys
roots = re.compile(sys.argv[1].encode())
fixed = [l.rstrip(b'\n') for l in open(sys.argv[2], 'rb') if l.strip()]
NL = b'\n'
for name in open(sys.argv[3]).read().split():
    try:
        text = (lzma if name.endswith('.xz') else gzip).decompress(open(name, 'rb').read())
    except (OSError, EOFError, lzma.LZMAError) as e:
        print(f'{name}: cannot be unpacked ({e})')
        continue
    at = [m.start() for m in roots.finditer(text)]  # the whole text at once: 0.3 s for all
    for x in fixed:
        i = text.find(x)
        while i >= 0:
            at.append(i)
            i = text.find(x, i + 1)
    for i in sorted(at):
        a, b = text.rfind(NL, 0, i) + 1, text.find(NL, i)
        line = text[a:b if b >= 0 else None][:200].decode('utf-8', 'replace')
        print(f'{name} (unpacked):{text.count(NL, 0, i) + 1}:{line}')
PY
[ ! -s "$tmp/hits" ] && ok "no tracked file (docs, code, comments, ptx/, build.ninja, $(wc -l <"$tmp/packed") compressed ones) names a machine path" ||
	{ nok "no tracked file names a machine path"; diag <"$tmp/hits"; }
for f in README.md docs/DESIGN.md build.ninja; do
	grep -qx "$f" "$tmp/files" && ok "... $f is among them" || nok "... $f is among them"
done
ls ptx/*.ptx >/dev/null 2>&1 && grep -q '^ptx/' "$tmp/files" && grep -q '^lib/model_data/.*\.xz$' "$tmp/packed" &&
	grep -q '^lab/records\.tar\.xz$' "$tmp/packed" && ok "... and so are ptx/, lib/model_data/ and lab/records.tar.xz" ||
	nok "... and so are ptx/, lib/model_data/ and lab/records.tar.xz"
finish
