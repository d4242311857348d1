#!/bin/sh
# A fresh clone's first minutes: ./build.sh's main job is quiet (no ninja
# step lines but the count of steps, right on a fresh clone where ninja would
# regenerate build.ninja first, and a line at each quarter; no "unchanged
# ptx/..." per file: a count), builds `ninja main` alone, keeps check's TAP
# in build/check.tap and ends with a summary line; `./build.sh wheel` leaves
# the build to wheelbuild.py (the library alone: no `ninja all`);
# apt-get waits for the lock (DPkg::Lock::Timeout), for update and install;
# `ninja test`'s prove never says "No saved state", starts with tests/slow-first
# on a fresh tree and empties build/tool-cache first; `./build.sh fuzz` gives
# the targets a private cache. Runs build.sh in a copy of it with stand-ins
# (ninja, apt-get, ptxpose, prove, clang) on a PATH of its own: nothing is
# built or installed.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
t=$tmp/tree bin=$tmp/bin log=$tmp/calls
mkdir -p "$t/build" "$t/build-aux" "$t/ptx" "$t/fuzz" "$t/.deps/nvidia/x/bin" "$bin"
cp build.sh "$t/"
cp build-aux/ninja.sh "$t/build-aux/"
touch "$t/ptx/a.ptx" "$t/ptx/b.ptx" "$t/.deps/nvidia/x/bin/cuobjdump" "$t/.deps/nvidia/x/bin/nvdisasm" "$t/fuzz/fuzz_x.c"
: >"$log"
# the real tools build.sh needs, and nothing else (no pkg-config, python3, cc: "missing")
for x in sh dirname ls wc grep sed cut cat mkdir rm cp head tail env tr awk; do
	p=$(command -v $x) && ln -s "$p" "$bin/$x"
done
stub() { printf '#!/bin/sh\n%s\n' "$2" >"$bin/$1" && chmod +x "$bin/$1"; }
stub id 'echo 0'
stub nproc 'echo 2'
stub apt-get "echo \"apt-get \$*\" >>'$log'"
# ninja: as on a fresh clone, build.ninja is regenerated before anything (a
# dry run before that shows that step alone), then 40 steps
stub ninja "echo \"ninja \$*\" >>'$log'
if [ \"\$1\" = build.ninja ]; then : >'$tmp/configured'; echo '[1/1] CONFIGURE'; exit 0; fi
[ -e '$tmp/configured' ] || { echo '[1/1] CONFIGURE'; exit 0; }
[ \"\$1\" = -n ] && n=1 || n=
i=0; while [ \$i -lt 40 ]; do i=\$((i+1)); echo \"[\$i/40] CC x\$i.o\"; done; [ -n \"\$n\" ] || echo 'ninja: no work to do.'"
stub clang 'case $1 in -print-file-name=*) echo /bin/sh ;; -dumpversion) echo 16.0 ;; esac'
# ptxpose: gen writes one file and leaves one; check --emulate passes 3 cases, or fails one when FAIL is set
cat >"$t/build/ptxpose" <<'PX'
#!/bin/sh
case "$1 $2" in
"gen "*) echo "unchanged ptx/a.ptx"; echo "wrote ptx/b.ptx" ;;
"list "*) echo "name  elem"; echo "a     32" ;;
"check --shapes") exit 4 ;;
"check --emulate") echo 1..3; echo "ok 1 - a 1x1"; echo "ok 2 - a 2x2"
	if [ -n "${FAIL:-}" ]; then echo "not ok 3 - b 3x3"; echo "# wrong at (1, 2)"; exit 1; fi
	echo "ok 3 - b 3x3 # SKIP the shape is for elem=16" ;;
esac
PX
chmod +x "$t/build/ptxpose"
run() { (cd "$t" && PATH=$bin HOME=$tmp "$@") >"$tmp/out" 2>"$tmp/err"; }

run sh build.sh
rc=$?
[ $rc -eq 0 ] && ok "./build.sh: exit 0" || { nok "./build.sh: exit $rc"; diag <"$tmp/err"; }
grep -q 'apt-get .*-o DPkg::Lock::Timeout=600 .*update' "$log" &&
	grep -q 'apt-get .*-o DPkg::Lock::Timeout=600 .*install -y .*pkg-config' "$log" &&
	ok "... apt-get update and install wait for the lock (DPkg::Lock::Timeout)" || { nok "... apt-get without a lock timeout"; diag <"$log"; }
grep -q '^== apt-get update (waits up to 10 minutes if another package manager holds the apt lock)$' "$tmp/err" &&
	ok "... and says so" || { nok "... says nothing of the lock"; diag <"$tmp/err"; }
grep -qx 'ninja main' "$log" && ! grep -qx 'ninja' "$log" && ! grep -q 'ninja all' "$log" &&
	ok "... builds ninja main, not everything" || { nok "... what it builds"; diag <"$log"; }
! grep -q '^\[[0-9]*/[0-9]*\] \|no work to do' "$tmp/out" "$tmp/err" && grep -q '^== building main (40 steps)$' "$tmp/err" &&
	ok "... no ninja step lines: one line saying how many, after build.ninja is regenerated" || { nok "... ninja's lines"; diag <"$tmp/err"; }
[ "$(grep '^== building main: ' "$tmp/err" | tr '\n' '|')" = "== building main: 25% (10 of 40 steps)|== building main: 50% (20 of 40 steps)|== building main: 75% (30 of 40 steps)|" ] &&
	ok "... and a line at each quarter" || { nok "... the quarter lines"; diag <"$tmp/err"; }
! grep -q '^unchanged ' "$tmp/out" "$tmp/err" && grep -qx '== 1 files of ptx/ unchanged' "$tmp/err" &&
	grep -qx 'wrote ptx/b.ptx' "$tmp/out" && ok "... ptx/ files left alone counted, the written named" ||
	{ nok "... gen's lines"; diag <"$tmp/out"; diag <"$tmp/err"; }
grep -qx 'a     32' "$tmp/out" && ok "... the table" || nok "... the table"
! grep -q '^ok ' "$tmp/out" && [ "$(grep -c '^ok ' "$t/build/check.tap")" = 3 ] &&
	ok "... check's TAP in build/check.tap, not on the screen" || { nok "... the TAP"; diag <"$tmp/out"; }
[ "$(tail -1 "$tmp/out")" = "2 kernels generated, assembled, emulated: 2 ok, 0 failed, 1 skipped; no GPU: run on a GPU machine to verify and time them" ] &&
	ok "... ends with the summary" || { nok "... the last line"; tail -1 "$tmp/out" | diag; }

FAIL=1 run sh build.sh
rc=$?
[ $rc -eq 1 ] && ok "./build.sh with a wrong result: exit 1, check's" || nok "./build.sh with a wrong result: exit $rc"
grep -qx 'not ok 3 - b 3x3' "$tmp/err" && grep -qx '# wrong at (1, 2)' "$tmp/err" &&
	grep -qx '== check failed (exit 1): the whole TAP is in build/check.tap' "$tmp/err" &&
	ok "... the failure shown, with where the TAP is" || { nok "... the failure"; diag <"$tmp/err"; }
[ "$(tail -1 "$tmp/out")" = "2 kernels generated, assembled, emulated: 2 ok, 1 failed; no GPU: run on a GPU machine to verify and time them" ] &&
	ok "... the summary counts it" || { nok "... the summary"; tail -1 "$tmp/out" | diag; }

: >"$log"
run sh build.sh test
grep -qx 'ninja all' "$log" && grep -qx 'ninja test' "$log" && ok "./build.sh test: ninja all, then ninja test" ||
	{ nok "./build.sh test"; diag <"$log"; }

stub python3 "echo \"python3 \$*\" >>'$log'"
stub pip3 ''
: >"$log"
run sh build.sh wheel
grep -qx 'python3 python/wheelbuild.py --out build/wheel' "$log" && ! grep -q '^ninja' "$log" &&
	ok "./build.sh wheel: wheelbuild.py, which builds the library; no ninja all" || { nok "./build.sh wheel"; diag <"$log"; diag <"$tmp/err"; }
rm "$bin/python3" "$bin/pip3"

# ninja test's prove: --state=slow only once build/prove-state has times;
# before, the tests of tests/slow-first first, then tests/
cmd=$(sed -n '/^rule prove$/,/^rule /s/^  command = //p' build.ninja | sed 's/\$\$/$/g; s/\$proveflags//')
stub prove "echo \"prove \$*\" >>'$log'"
mkdir -p "$t/tests" "$t/build/tool-cache" && cp tests/slow-first "$t/tests/"
first=$(sed '/^#/d' tests/slow-first | head -1)
: >"$log"
(cd "$t" && PATH=$bin sh -c "$cmd")
grep -q -- '--state=save ' "$log" && ! grep -q 'state=slow' "$log" && ok "first prove: --state=save alone (no 'No saved state')" ||
	{ nok "first prove"; diag <"$log"; }
grep -q -- "--statefile=build/prove-state $first .* tests/\$" "$log" && ok "... the tests of tests/slow-first first ($first), then tests/" ||
	{ nok "... tests/slow-first first"; diag <"$log"; }
[ ! -e "$t/build/tool-cache" ] && ok "... the tools' cache emptied first" || nok "... build/tool-cache is still there"
echo x >"$t/build/prove-state"
: >"$log"
(cd "$t" && PATH=$bin sh -c "$cmd")
grep -q -- '--state=slow,save ' "$log" && ok "... later: the slowest first" || { nok "... later"; diag <"$log"; }

# fuzz: each target with PTXPOSE_CACHE under build/
mkdir -p "$t/build/fuzz"
printf '#!/bin/sh\necho "$PTXPOSE_CACHE" >"%s"\necho "stat::number_of_executed_units: 5" >&2\n' "$tmp/cache" >"$t/build/fuzz/x"
chmod +x "$t/build/fuzz/x"
run sh build.sh fuzz 1
grep -q '^fuzz x: ok, 5 runs' "$tmp/out" && [ "$(cat "$tmp/cache" 2>/dev/null)" = "$t/build/fuzz/cache" ] &&
	ok "./build.sh fuzz: the targets' PTXPOSE_CACHE is build/fuzz/cache, not ~/.cache" ||
	{ nok "./build.sh fuzz: cache $(cat "$tmp/cache" 2>/dev/null)"; diag <"$tmp/out"; diag <"$tmp/err"; }
finish
