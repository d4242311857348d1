#!/bin/sh
# t0051-no-history-names: the product tree speaks of itself, not of the work
# that made it: no tracked file outside lab/ (code, comments, docs, tests, the
# generated ptx/, build.ninja) names an issue by number, a numbered work round
# or an ordinal work session, and no tracked path does. lab/ is the one place
# for dated records of past work (lab/README.md). Compressed files are data
# (the results, the lab's archive): their text is not read here. The pattern
# is spelt in pieces so that this file does not match itself.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "1..0 # SKIP not a git checkout"; exit 0; }
iss='issue'
rnd='round'
nth='(first|second|third|fourth|fifth|sixth|seventh|eighth)'
pat="\\b$iss ?[0-9]+|\\b$nth session|\\b$rnd ?[0-9]+"
git ls-files -z -- . ':!lab' | xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\n" "$f"; done' sh >"$tmp/files"
[ "$(wc -l <"$tmp/files")" -gt 50 ] && ok "$(wc -l <"$tmp/files") tracked files outside lab/" || nok "tracked files outside lab/"
tr '\n' '\0' <"$tmp/files" | xargs -0 grep -nIiE "$pat" >"$tmp/hits"
[ ! -s "$tmp/hits" ] && ok "none names an issue number, a work round or a work session" ||
	{ nok "none names an issue number, a work round or a work session"; diag <"$tmp/hits"; }
git ls-files -- . ':!lab' | grep -iE "$iss[-_ ]?[0-9]+|$rnd[-_ ]?[0-9]+|$nth[-_]session" >"$tmp/paths"
[ ! -s "$tmp/paths" ] && ok "no tracked file or folder outside lab/ is named for one" ||
	{ nok "no tracked file or folder outside lab/ is named for one"; diag <"$tmp/paths"; }
# the pattern finds what it should: one line of each kind
printf 'the %s 22 targets\nthe six%s session\n%s 14, then %s12\nall of them, around 5 runs\n' "$iss" th "$rnd" "$rnd" >"$tmp/probe"
[ "$(grep -ciE "$pat" "$tmp/probe")" = 3 ] && ok "the pattern finds an issue number, a session, a round (and not 'around 5')" ||
	nok "the pattern: $(grep -ciE "$pat" "$tmp/probe") of 3 probe lines"
finish
