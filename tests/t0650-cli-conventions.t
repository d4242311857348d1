#!/bin/sh
# t0650-cli-conventions: what every command shares. `ptxpose --version` prints
# the version and the commit embedded at build time (and the build's commit
# rule works without git); `help --help`, `help help` and --help after other
# arguments print help and exit 0; `list --json` is one JSON array with the
# table's fields, numbers as numbers.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose

# --version: "ptxpose X.Y.Z (commit C)", C what git describes (or "unknown" without git)
check "--version" 0 "$PX" --version
want=$(git describe --always --dirty 2>/dev/null || echo unknown)
grep -qx "ptxpose [0-9]*\.[0-9]*\.[0-9]* (commit [A-Za-z0-9._+-]*)" "$tmp/out" && ok "... ptxpose X.Y.Z (commit C)" || { nok "... the form"; diag <"$tmp/out"; }
v=$(for k in MAJOR MINOR PATCH; do sed -n "s/^#define PTXPOSE_VERSION_$k \([0-9]*\)$/\1/p" include/ptxpose.h; done | paste -sd.)
grep -q "^ptxpose $v (commit " "$tmp/out" && ok "... the version of include/ptxpose.h ($v)" ||
	{ nok "... the version"; diag <"$tmp/out"; }
# the commit as git describes it (-dirty aside: the tree may have changed since the build)
grep -q "^ptxpose .* (commit ${want%-dirty}\(-dirty\)\{0,1\})$" "$tmp/out" && ok "... the commit: git describe --always --dirty ($want)" ||
	{ nok "... the commit: git describe says $want (rebuild with ninja?)"; diag <"$tmp/out"; }
# the commit rule of build.ninja, run where there is no git repository
rule=$(sed -n '/^rule commit$/,/^rule /s/^  command = //p' build.ninja)
mkdir -p "$tmp/nogit/build/gen" "$tmp/nogit/build-aux"
cp build-aux/commit.sh "$tmp/nogit/build-aux/"
(cd "$tmp/nogit" && GIT_CEILING_DIRECTORIES="$tmp" PTXPOSE_COMMIT='abc1234"; bad' out=build/gen/commit.h \
	sh -c "$(printf %s "$rule" | sed 's/\$\$/$/g; s/\$out/build\/gen\/commit.h/g')") 2>"$tmp/err"
grep -qx '#define PTXPOSE_COMMIT "abc1234bad"' "$tmp/nogit/build/gen/commit.h" 2>/dev/null &&
	ok "commit rule without git: \$PTXPOSE_COMMIT, cleaned to [A-Za-z0-9._+-]" || { nok "commit rule: PTXPOSE_COMMIT"; diag <"$tmp/err"; }
rm -f "$tmp/nogit/build/gen/commit.h"
(cd "$tmp/nogit" && env -u PTXPOSE_COMMIT GIT_CEILING_DIRECTORIES="$tmp" \
	sh -c "$(printf %s "$rule" | sed 's/\$\$/$/g; s/\$out/build\/gen\/commit.h/g')") 2>"$tmp/err"
grep -qx '#define PTXPOSE_COMMIT "unknown"' "$tmp/nogit/build/gen/commit.h" 2>/dev/null &&
	ok "... and without either: unknown" || { nok "commit rule: unknown"; diag <"$tmp/err"; }

# `ninja` with nothing to do runs nothing, the commit step included;
# a change to a tracked file makes the commit "-dirty". In a git repository
# of its own, with build.ninja's commit rule.
if command -v git >/dev/null && command -v ninja >/dev/null; then
	g=$tmp/git
	mkdir -p "$g/build-aux"
	cp build-aux/commit.sh "$g/build-aux/"
	{ sed -n '/^rule commit$/,/^rule /p' build.ninja | sed '$d'; echo 'build build/gen/commit.h: commit | build-aux/commit.sh'; } >"$g/build.ninja"
	(cd "$g" && git init -q && echo a >a.txt && git add -A && git -c user.name=t -c user.email=t@t commit -qm one &&
		ninja >/dev/null && ninja >"$tmp/n2" 2>&1 && echo b >a.txt && ninja >"$tmp/n3" 2>&1 && ninja >"$tmp/n4" 2>&1) 2>"$tmp/err"
	grep -qx 'ninja: no work to do.' "$tmp/n2" 2>/dev/null && ok "ninja with nothing to do: no COMMIT step" ||
		{ nok "ninja with nothing to do ran something"; diag <"$tmp/n2"; diag <"$tmp/err"; }
	grep -q -- '-dirty"' "$g/build/gen/commit.h" 2>/dev/null && grep -q COMMIT "$tmp/n3" &&
		grep -qx 'ninja: no work to do.' "$tmp/n4" && ok "... a tracked file changed: the commit rerun once, now -dirty" ||
		{ nok "... a tracked file changed"; diag <"$g/build/gen/commit.h"; diag <"$tmp/n3"; diag <"$tmp/n4"; }
fi

# help in all its forms: exit 0, help on stdout
check "help --help" 0 "$PX" help --help
grep -q '^usage: ptxpose COMMAND' "$tmp/out" && ok "... the command list" || nok "... the command list"
check "help help" 0 "$PX" help help
grep -q '^usage: ptxpose COMMAND' "$tmp/out" && ok "... the command list" || nok "... the command list"
check "help nosuch: exit 2" 2 "$PX" help nosuch
one_line "... one line" "ptxpose help: unknown command 'nosuch'"
for args in "list FILE --help" "run X --rows 3 --help" "run X --rows zz -h" "bench --shapes 1x --help" "check --frob --help" \
	"sass --diff a --help" "gen nosuch.lua --help"; do
	cmd=${args%% *}
	check "$args: exit 0" 0 "$PX" $args
	head -1 "$tmp/out" | grep -q "^usage: ptxpose $cmd " && [ ! -s "$tmp/err" ] && ok "... $cmd's help, nothing on stderr" ||
		{ nok "... $cmd's help"; diag <"$tmp/out"; diag <"$tmp/err"; }
done

# list --json: one array; --no-sass keeps it quick, one file with SASS
set -- ptx/fast_b32.ptx ptx/naive_1d_b8.ptx tests/data/linear_b32.ptx
need_ptx "$1"
check "list --json --no-sass" 0 "$PX" list --json --no-sass "$@"
cp "$tmp/out" "$tmp/nosass.json"
if python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert isinstance(rows, list) and len(rows) == 3, rows
f, n, l = rows
keys = ["file", "name", "elem", "tile", "per_block", "block", "vec", "smem", "registers", "smem_bytes",
        "spill_bytes", "stack_bytes", "ldg128", "stg128", "bank", "error"]
assert all(list(r) == keys for r in rows), [list(r) for r in rows]
assert f["name"] == "fast_b32" and f["elem"] == 32 and f["vec"] == 4 and f["tile"] == "64x64" and f["per_block"] is None, f
assert type(f["registers"]) is int and f["registers"] > 0 and f["spill_bytes"] == 0 and f["stack_bytes"] == 0, f
assert f["ldg128"] is None and f["stg128"] is None, f  # --no-sass
assert f["bank"] == {"st_wavefronts": 4, "st_ideal": 4, "ld_wavefronts": 4, "ld_ideal": 4}, f["bank"]
assert n["tile"] is None and n["per_block"] == 256 and n["block"] == "256x1" and n["bank"]["st_wavefronts"] is None, n
assert l["block"] == "128" and l["vec"] is None and l["error"] is None, l  # dimensions stay strings
' "$tmp/nosass.json" 2>"$tmp/err"; then ok "... the table's fields, typed: numbers, strings for dimensions, null for -"
else nok "... the table's fields, typed"; diag <"$tmp/err"; fi
if "$PX" list --json "$1" >"$tmp/j" 2>"$tmp/err" &&
	python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))[0]; assert r["ldg128"] is True and r["stg128"] is True, r' "$tmp/j" 2>>"$tmp/err"; then
	ok "list --json with SASS: ldg128 and stg128 are true or false"
else nok "list --json with SASS (ptxas and cuobjdump: ./build.sh test installs them)"; diag <"$tmp/err"; fi
grep -v '^// ptxpose' "$1" >"$tmp/odd \"name\".ptx"
check "list --json --no-sass: a file without metadata: exit 3, still JSON" 3 "$PX" list --json --no-sass "$tmp/odd \"name\".ptx"
python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))[0]; assert r["name"] == "odd \"name\"" and r["error"], r' "$tmp/out" 2>"$tmp/err" &&
	ok "... strings escaped, the error in the object" || { nok "... escaped"; diag <"$tmp/out"; diag <"$tmp/err"; }
check "list --json --csv: exit 2" 2 "$PX" list --json --csv --no-sass "$1"
one_line "... one line" "ptxpose list: --csv and --json do not go together"
finish
