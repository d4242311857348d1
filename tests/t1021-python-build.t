#!/bin/sh
# The Python package's build backend (python/wheelbuild.py) building the
# library itself, offline, once for the whole test: in a fresh copy of what
# a clone holds for the package and the library (python/, LICENSE, and what
# `configure.py --library-inputs` names: the sdist's src/), with no build/,
# `pip install ./python` runs the project's build (build-aux/ninja.sh: ninja
# lib, configure.py first) with its progress lines, bundles the library, and
# the package imports it. Where ninja or cc is missing, the backend says so
# in one line before anything runs. `pip install -e` of that copy then loads
# the package from its python/ and the library from its build/ (ninja has
# nothing to do). The sdist (made from this tree by the PEP 517 hook)
# installs: unpacked, with the copy's build/ and ninja's logs put in its
# src/ (the same files, older dates: ninja has next to nothing to do, and a
# file the sdist lacked would make it compile and fail), its library reports
# the commit the sdist names and holds as many kernels as this tree's. The
# register counts of the embedded kernels are left out (PTXPOSE_PTXAS=false:
# 185 ptxas runs, half the build's time, that this test does not look at).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
export PYTHONDONTWRITEBYTECODE=1 PTXPOSE_PTXAS=/bin/false
unset PTXPOSE_LIB
fake=$PWD/build/fakecuda/libcuda.so.1
[ -f "$fake" ] || { nok "$fake is not built: run ninja"; finish; }
if ! python3 -m venv --without-pip "$tmp/venv" >"$tmp/err" 2>&1; then
	echo "1..0 # SKIP python3 -m venv is unavailable here ($(head -1 "$tmp/err")): apt-get install python3-venv"
	exit 0
fi
if ! python3 -m pip --help 2>/dev/null | grep -q -- '--python'; then
	echo "1..0 # SKIP this pip has no --python (pip 22.3 or later needed)"
	exit 0
fi
pip_into() {
	v=$1
	shift
	python3 -m pip --python "$v/bin/python" install -v --no-index --no-deps --no-cache-dir --disable-pip-version-check "$@"
}
# in_venv VENV CODE: CODE run by the venv's python from /, on the fake driver
in_venv() { (cd / && PTXPOSE_LIBCUDA=$fake "$1/bin/python" -c "$2"); }

clone=$tmp/clone
mkdir -p "$clone"
{ python3 configure.py --library-inputs && git ls-files python && echo LICENSE; } | sort -u >"$tmp/files"
while IFS= read -r f; do [ ! -e "$f" ] || echo "$f"; done <"$tmp/files" >"$tmp/present"
tar -cf - -T "$tmp/present" 2>"$tmp/err" | tar -xf - -C "$clone" 2>>"$tmp/err" &&
	[ -f "$clone/configure.py" ] && [ -f "$clone/python/wheelbuild.py" ] && [ ! -e "$clone/build" ] &&
	ok "a fresh copy: $(wc -l <"$tmp/present") files, no build/" || { nok "the copy"; diag <"$tmp/err"; finish; }

# no ninja and no cc on PATH (python3 only): one line naming them, nothing built
mkdir "$tmp/nobin"
ln -s "$(python3 -c 'import sys; print(sys.executable)')" "$tmp/nobin/python3"
(cd "$clone" && PATH=$tmp/nobin "$tmp/nobin/python3" python/wheelbuild.py --out "$tmp/w0") >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q '^wheelbuild.py: no ninja or cc here to build the library: install them' "$tmp/err" &&
	[ ! -e "$clone/build" ] && ok "no ninja, no cc: exit 3, one line: $(cat "$tmp/err")" ||
	{ nok "no ninja, no cc (exit $rc)"; diag <"$tmp/err"; }

check "pip install ./python on the fresh copy: builds the library, exit 0" 0 pip_into "$tmp/venv" "$clone/python"
cat "$tmp/err" >>"$tmp/out"  # pip -v shows the backend's output on one or the other
grep -q '== building lib ([0-9]* steps)$' "$tmp/out" && grep -q '== building lib: 75% ([0-9]* of [0-9]* steps)$' "$tmp/out" &&
	ok "... with progress: $(grep -o '== building lib ([0-9]* steps)' "$tmp/out"), a line at each quarter" ||
	{ nok "... no progress lines"; diag <"$tmp/out"; }
[ -f "$clone/build/libptxpose.so.0.3" ] && ok "... into the copy's build/" || nok "... no build/libptxpose.so.0.3 in the copy"
kernels=$(PTXPOSE_LIBCUDA=$fake python3 -c 'import sys; sys.path.insert(0, "python"); import ptxpose; print(len(ptxpose.kernels()))' 2>&1)
in_venv "$tmp/venv" 'import ptxpose; print(ptxpose.library_path().source, len(ptxpose.kernels()))' >"$tmp/out" 2>&1
[ "$(cat "$tmp/out")" = "bundled $kernels" ] && ok "... imports, the library bundled, with this tree's $kernels kernels" ||
	{ nok "... the import (want: bundled $kernels)"; diag <"$tmp/out"; }

python3 -m venv --without-pip "$tmp/venv2"
check "pip install -e of the copy: exit 0" 0 pip_into "$tmp/venv2" -e "$clone/python"
cat "$tmp/err" >>"$tmp/out"
grep -q '== building lib (' "$tmp/out" && nok "... built again" || ok "... nothing built again"
in_venv "$tmp/venv2" 'import ptxpose; print(ptxpose.__file__, ptxpose.library_path(), ptxpose.library_path().source)' >"$tmp/out" 2>&1
[ "$(cat "$tmp/out")" = "$clone/python/ptxpose/__init__.py $clone/build/libptxpose.so.0.3 build folder" ] &&
	ok "... the package of the copy's python/, the library of its build/" || { nok "... the editable import"; diag <"$tmp/out"; }

# the sdist of this tree, unpacked, given the copy's build and ninja's logs
(cd python && python3 -c 'import sys, wheelbuild; print(wheelbuild.build_sdist(sys.argv[1]))' "$tmp/s") >"$tmp/sd" 2>&1 &&
	tar -xzf "$tmp/s/$(cat "$tmp/sd")" -C "$tmp/s" || { nok "build_sdist"; diag <"$tmp/sd"; finish; }
src=$tmp/s/$(basename "$(cat "$tmp/sd")" .tar.gz)
cp -a "$clone/build" "$clone/.ninja_log" "$clone/.ninja_deps" "$src/src/"
rm "$src/src/build/gen/commit.h"  # the copy's, of no commit: the sdist's build writes its own
python3 -m venv --without-pip "$tmp/venv3"
check "pip install of the unpacked sdist: exit 0" 0 pip_into "$tmp/venv3" "$src"
cat "$tmp/err" >>"$tmp/out"
steps=$(sed -n 's/.*== building lib (\([0-9]*\) steps)$/\1/p' "$tmp/out")
[ "${steps:-0}" -le 8 ] && ok "... ninja had next to nothing to do (${steps:-at most 5} steps: the commit): the sdist holds what the copy built from" ||
	{ nok "... ninja rebuilt $steps steps: the sdist differs from the copy"; grep '^ *\(FAILED\|==\)' "$tmp/out" | diag; }
want=$(git describe --always --dirty 2>/dev/null || echo unknown)
in_venv "$tmp/venv3" 'import ptxpose; print(ptxpose.version().split("(commit ")[1].rstrip(")"), len(ptxpose.kernels()))' >"$tmp/out" 2>&1
[ "$(cat "$tmp/out")" = "$want $kernels" ] && ok "... its library: commit $want (src/COMMIT), $kernels kernels" ||
	{ nok "... want commit $want, $kernels kernels"; diag <"$tmp/out"; }
finish
