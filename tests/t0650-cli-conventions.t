#!/bin/sh
# t0650-cli-conventions: what every command shares. `ptxpose --version` prints
# the version and the commit embedded at build time (and the build's commit
# rule works without git); `help --help`, `help help` and --help after other
# arguments print help and exit 0.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose

# --version: "ptxpose X.Y.Z (commit C)", C what git describes (or "unknown" without git)
check "--version" 0 "$PX" --version
want=$(git describe --always --dirty 2>/dev/null || echo unknown)
grep -qx "ptxpose [0-9]*\.[0-9]*\.[0-9]* (commit [A-Za-z0-9._+-]*)" "$tmp/out" && ok "... ptxpose X.Y.Z (commit C)" || { nok "... the form"; diag <"$tmp/out"; }
grep -q "^#define PTXPOSE_VERSION \"$(sed -n 's/^ptxpose \([0-9.]*\) .*/\1/p' "$tmp/out")\"$" common/version.h &&
	ok "... the version of common/version.h" || { nok "... the version"; diag <"$tmp/out"; }
if grep -qx "ptxpose .* (commit $want)" "$tmp/out"; then ok "... the commit: git describe --always --dirty ($want)"
else
	# a binary built before the last change to the tree describes that tree
	ok "# SKIP the binary was built from another state of the tree: $(cat "$tmp/out"), git says $want"
fi
# the commit rule of build.ninja, run where there is no git repository
rule=$(sed -n '/^rule commit$/,/^rule /s/^  command = //p' build.ninja)
mkdir -p "$tmp/nogit/build/gen"
(cd "$tmp/nogit" && GIT_CEILING_DIRECTORIES="$tmp" PTXPOSE_COMMIT='abc1234"; bad' out=build/gen/commit.h \
	sh -c "$(printf %s "$rule" | sed 's/\$\$/$/g; s/\$out/build\/gen\/commit.h/g')") 2>"$tmp/err"
grep -qx '#define PTXPOSE_COMMIT "abc1234bad"' "$tmp/nogit/build/gen/commit.h" 2>/dev/null &&
	ok "commit rule without git: \$PTXPOSE_COMMIT, cleaned to [A-Za-z0-9._+-]" || { nok "commit rule: PTXPOSE_COMMIT"; diag <"$tmp/err"; }
rm -f "$tmp/nogit/build/gen/commit.h"
(cd "$tmp/nogit" && env -u PTXPOSE_COMMIT GIT_CEILING_DIRECTORIES="$tmp" \
	sh -c "$(printf %s "$rule" | sed 's/\$\$/$/g; s/\$out/build\/gen\/commit.h/g')") 2>"$tmp/err"
grep -qx '#define PTXPOSE_COMMIT "unknown"' "$tmp/nogit/build/gen/commit.h" 2>/dev/null &&
	ok "... and without either: unknown" || { nok "commit rule: unknown"; diag <"$tmp/err"; }

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

finish
