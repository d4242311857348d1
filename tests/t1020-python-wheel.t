#!/bin/sh
# The Python wheel and sdist, from this tree's library (nothing is compiled
# here: t1021 builds the library from a fresh copy). python/wheelbuild.py
# (what `./build.sh wheel` runs) builds the wheel with the library inside,
# tagged manylinux_2_N for the newest GLIBC_2.N symbol version the library
# needs (as objdump -T reads it) and needing only libc; the same tree gives
# the same bytes; every RECORD hash holds; its metadata is pyproject.toml's
# (read as tomllib reads it) with the license, the URL and python/README.md
# as the long description. The sdist (the PEP 517 hook, as a frontend calls
# it) holds the package and, in src/, what building the library reads
# (configure.py --library-inputs) with the commit; the same tree gives the
# same bytes. Then, in virtual environments (python3 -m venv --without-pip,
# pip of the host through --python: no download), the wheel installs and,
# from /, imports its bundled library and runs on the fake driver; `pip
# install ./python` and `pip install -e ./python` (given this tree's library,
# so that no ninja runs inside `ninja test`) install, and python/ is left as
# it was. Where venv or pip --python is missing, those steps say SKIP.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
so=$(ls build/libptxpose.so.*.*.* 2>/dev/null | head -1)
[ -n "$so" ] || { nok "build/libptxpose.so.X.Y.Z is not built: run ninja"; finish; }
export PYTHONDONTWRITEBYTECODE=1
unset PTXPOSE_LIB
git status --porcelain --ignored python >"$tmp/status-before"

check "wheelbuild.py --lib: exit 0" 0 python3 python/wheelbuild.py --lib "$so" --out "$tmp/w"
whl=$(cat "$tmp/out")
glibc=$(objdump -T "$so" | grep -o 'GLIBC_2\.[0-9]*' | sed 's/GLIBC_2\.//' | sort -n | tail -1)
case "$whl" in
*/ptxpose-*-py3-none-manylinux_2_${glibc}_x86_64.whl) ok "tagged manylinux_2_${glibc}_x86_64: GLIBC_2.$glibc is the newest version the library needs (objdump -T)" ;;
*) nok "the tag of $whl: want manylinux_2_${glibc}_x86_64" ;;
esac
needed=$(objdump -p "$so" | awk '/NEEDED/ {print $2}' | grep -v '^libc\.so\.6$\|^ld-linux-x86-64\.so\.2$\|^libm\.so\.6$\|^libdl\.so\.2$\|^libpthread\.so\.0$')
[ -z "$needed" ] && ok "the library needs only libraries manylinux allows (libcuda is opened at run time)" ||
	nok "the library needs $needed"
PTXPOSE_LIB=$so python3 python/wheelbuild.py --out "$tmp/w2" >/dev/null 2>&1
cmp -s "$whl" "$tmp/w2/$(basename "$whl")" && ok "the same tree gives the same wheel, byte for byte (\$PTXPOSE_LIB as --lib)" || nok "two builds differ"
# the sdist through the hook, from python/ as a frontend runs it, twice
(cd python && python3 -c 'import sys, wheelbuild; print(wheelbuild.build_sdist(sys.argv[1]))' "$tmp/s") >"$tmp/sd" 2>&1 &&
	(cd python && python3 -c 'import sys, wheelbuild; wheelbuild.build_sdist(sys.argv[1])' "$tmp/s2") >/dev/null 2>&1
sdist=$tmp/s/$(cat "$tmp/sd")
ver=$(basename "$sdist" .tar.gz)
[ -f "$sdist" ] && cmp -s "$sdist" "$tmp/s2/$(basename "$sdist")" && ok "build_sdist: $(basename "$sdist"), the same bytes twice" ||
	{ nok "build_sdist"; diag <"$tmp/sd"; }
python3 configure.py --library-inputs | sed "s|^|$ver/src/|" >"$tmp/inputs"
python3 - "$whl" "$sdist" "$tmp/inputs" "$(git describe --always --dirty 2>/dev/null || echo unknown)" >"$tmp/meta" 2>&1 <<'EOF'
import base64, hashlib, re, sys, tarfile, zipfile
sys.path.insert(0, 'python')
import wheelbuild


def tap(cond, desc, why=''):
    print(f"{'ok' if cond else 'not ok'} 0 - {desc}")
    if not cond:
        print(''.join(f'# {l}\n' for l in str(why).splitlines()), end='')


z = zipfile.ZipFile(sys.argv[1])
rec = [l.split(',') for l in z.read(next(n for n in z.namelist() if n.endswith('/RECORD'))).decode().splitlines()]
bad = [n for n, h, size in rec if h and h != 'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(z.read(n)).digest()).rstrip(b'=').decode()]
names = set(z.namelist())
tap(not bad and names == {n for n, _, _ in rec} and 'ptxpose/libptxpose.so.0.3' in names,
    'RECORD lists every file with its hash; the library is inside', bad)
meta = z.read(next(n for n in names if n.endswith('/METADATA'))).decode()
head, body = meta.split('\n\n', 1)
fields = [tuple(l.split(': ', 1)) for l in head.splitlines()]
readme = open('python/README.md').read()
tap(('License', 'MIT') in fields and any(k == 'Project-URL' and re.match(r'\w+, https://', v) for k, v in fields)
    and body == readme and ('Description-Content-Type', 'text/markdown') in fields,
    'METADATA: License: MIT, a Project-URL, python/README.md as the long description (markdown)', head)
lic = [n for n in names if n.endswith('.dist-info/LICENSE')]
tap(lic and z.read(lic[0]) == open('LICENSE', 'rb').read(), 'the LICENSE in the dist-info', lic)
try:
    import tomllib
except ImportError:
    print('ok 0 - pyproject.toml as tomllib reads it # SKIP no tomllib (Python 3.11 or later)')
else:
    want = tomllib.load(open('python/pyproject.toml', 'rb'))['project']
    got = wheelbuild.read_project('python/pyproject.toml')
    tap(got == dict(want, urls=want.get('urls', {})), "wheelbuild reads pyproject.toml's [project] as tomllib does", got)
t = tarfile.open(sys.argv[2])
members = t.getnames()
top = members[0].split('/')[0]
inputs = set(open(sys.argv[3]).read().split())
src = {m for m in members if m.startswith(f'{top}/src/') and m != f'{top}/src/COMMIT'}
tap(src == inputs, f"the sdist's src/ is what building the library reads ({len(src)} files)", sorted(src ^ inputs)[:10])
own = {f'{top}/{n}' for n in ('pyproject.toml', 'wheelbuild.py', 'README.md', 'LICENSE', 'PKG-INFO', 'ptxpose/__init__.py', 'ptxpose/_lib.py')}
pkg = t.extractfile(f'{top}/PKG-INFO').read().decode()
tap(own <= set(members) and pkg == meta and t.extractfile(f'{top}/src/COMMIT').read().decode().strip() == sys.argv[4],
    "... the package, PKG-INFO (the wheel's METADATA) and src/COMMIT (git describe)", sorted(own - set(members)))
EOF
passthrough "$tmp/meta"
grep -q '^\(not \)\?ok' "$tmp/meta" || { nok "the metadata checks ran"; diag <"$tmp/meta"; }
PTXPOSE_LIB=/nonexistent/libptxpose.so check "wheelbuild.py without the library: exit 3" 3 python3 python/wheelbuild.py --out "$tmp/w3"
one_line "... one line naming it" "/nonexistent/libptxpose.so: no such library"

# pip_into VENV ARGS...: pip of the host installing into the venv, offline
pip_into() {
	v=$1
	shift
	python3 -m pip --python "$v/bin/python" install -q --no-index --no-deps --no-cache-dir --disable-pip-version-check "$@"
}
if ! python3 -m venv --without-pip "$tmp/venv" >"$tmp/err" 2>&1; then
	echo "ok $((n += 1)) # SKIP python3 -m venv is unavailable here ($(head -1 "$tmp/err")): apt-get install python3-venv"
	finish
fi
if ! python3 -m pip --help 2>/dev/null | grep -q -- '--python'; then
	echo "ok $((n += 1)) # SKIP this pip has no --python (pip 22.3 or later needed)"
	finish
fi
# the three installs at once (pip's start-up is most of their time)
python3 -m venv --without-pip "$tmp/venv2"
python3 -m venv --without-pip "$tmp/venv3"
PTXPOSE_LIB=$PWD/$so pip_into "$tmp/venv2" ./python >"$tmp/pip2" 2>&1 &
pip2=$!
PTXPOSE_LIB=$PWD/$so pip_into "$tmp/venv3" -e ./python >"$tmp/pip3" 2>&1 &
pip3=$!
check "pip installs the wheel into a fresh venv" 0 pip_into "$tmp/venv" "$whl"
fake=$PWD/build/fakecuda/libcuda.so.1
(cd / && PTXPOSE_LIBCUDA=$fake "$tmp/venv/bin/python" -c 'import ptxpose
p = ptxpose.library_path()
print(ptxpose.version().split()[0], p.source, p.startswith(__import__("sys").prefix), ptxpose.device().name)') >"$tmp/out" 2>"$tmp/err"
grep -qx "0\.[0-9]*\.[0-9]* bundled True Fake CUDA Device 0" "$tmp/out" &&
	ok "... from /: import, version(), the bundled library, a device on the fake driver ($(cat "$tmp/out"))" ||
	{ nok "... import in the venv"; diag <"$tmp/out"; diag <"$tmp/err"; }
(cd / && "$tmp/venv/bin/python" -m ptxpose --version) >"$tmp/out" 2>&1 && grep -q '(bundled)$' "$tmp/out" &&
	ok "... python -m ptxpose --version: $(cat "$tmp/out")" || { nok "... -m ptxpose"; diag <"$tmp/out"; }
wait $pip2 && ok "pip install ./python (the in-tree backend, offline)" || { nok "pip install ./python"; diag <"$tmp/pip2"; }
(cd / && "$tmp/venv2/bin/python" -c 'import ptxpose; print(ptxpose.library_path().source)') >"$tmp/out" 2>&1
grep -qx bundled "$tmp/out" && ok "... imports, with the library bundled" || { nok "... import"; diag <"$tmp/out"; }
wait $pip3 && ok "pip install -e ./python (PEP 660)" || { nok "pip install -e ./python"; diag <"$tmp/pip3"; }
(cd / && "$tmp/venv3/bin/python" -c 'import ptxpose; print(ptxpose.__file__, ptxpose.library_path(), ptxpose.library_path().source)') >"$tmp/out" 2>&1
[ "$(cat "$tmp/out")" = "$PWD/python/ptxpose/__init__.py $PWD/build/libptxpose.so.0.3 build folder" ] &&
	ok "... from /: the package of python/, the library of build/" || { nok "... the editable import"; diag <"$tmp/out"; }
[ -z "$(ls "$tmp/venv3"/lib/python3*/site-packages/ptxpose 2>/dev/null)" ] &&
	"$tmp/venv3/bin/python" -c 'import importlib.util as u; assert u.find_spec("wheelbuild") is None' 2>/dev/null &&
	ok "... no copy of the package in the venv, and nothing of python/ but the package importable" ||
	nok "... the editable venv holds a copy, or wheelbuild is importable"
git status --porcelain --ignored python >"$tmp/status-after"
cmp -s "$tmp/status-before" "$tmp/status-after" && ok "... python/ is left as it was" ||
	{ nok "... python/ changed"; diff "$tmp/status-before" "$tmp/status-after" | diag; }
finish
