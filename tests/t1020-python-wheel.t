#!/bin/sh
# The Python wheel: python/wheelbuild.py (what `./build.sh wheel` runs) builds
# it with the library inside, tagged manylinux_2_N for the newest GLIBC_2.N
# symbol version the library needs (as objdump -T reads it) and needing only
# libc; the same tree gives the same bytes; every RECORD hash holds. Then, in
# a virtual environment (python3 -m venv --without-pip, pip of the host
# through --python: no download, a few seconds), the wheel installs and, from
# /, imports and finds its bundled library, and runs on the fake driver;
# `pip install ./python` (the in-tree PEP 517 backend) does the same and
# leaves python/ clean. Where venv or pip --python is missing, those steps
# say SKIP.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
so=$(ls build/libptxpose.so.*.*.* 2>/dev/null | head -1)
[ -n "$so" ] || { nok "build/libptxpose.so.X.Y.Z is not built: run ninja"; finish; }
export PYTHONDONTWRITEBYTECODE=1
unset PTXPOSE_LIB

check "wheelbuild.py: exit 0" 0 python3 python/wheelbuild.py --out "$tmp/w"
whl=$(cat "$tmp/out")
glibc=$(objdump -T "$so" | grep -o 'GLIBC_2\.[0-9]*' | sed 's/GLIBC_2\.//' | sort -n | tail -1)
case "$whl" in
*/ptxpose-*-py3-none-manylinux_2_${glibc}_x86_64.whl) ok "tagged manylinux_2_${glibc}_x86_64: GLIBC_2.$glibc is the newest version the library needs (objdump -T)" ;;
*) nok "the tag of $whl: want manylinux_2_${glibc}_x86_64" ;;
esac
needed=$(objdump -p "$so" | awk '/NEEDED/ {print $2}' | grep -v '^libc\.so\.6$\|^ld-linux-x86-64\.so\.2$\|^libm\.so\.6$\|^libdl\.so\.2$\|^libpthread\.so\.0$')
[ -z "$needed" ] && ok "the library needs only libraries manylinux allows (libcuda is opened at run time)" ||
	nok "the library needs $needed"
python3 python/wheelbuild.py --out "$tmp/w2" >/dev/null 2>&1
cmp -s "$whl" "$tmp/w2/$(basename "$whl")" && ok "the same tree gives the same wheel, byte for byte" || nok "two builds differ"
python3 - "$whl" >"$tmp/rec" 2>&1 <<'EOF'
import base64, hashlib, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
rec = [l.split(',') for l in z.read(next(n for n in z.namelist() if n.endswith('/RECORD'))).decode().splitlines()]
bad = [n for n, h, size in rec if h and h != 'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(z.read(n)).digest()).rstrip(b'=').decode()]
names = set(z.namelist())
print('bad' if bad or names != {n for n, _, _ in rec} or 'ptxpose/libptxpose.so.0.3' not in names else 'good', bad)
EOF
grep -q '^good' "$tmp/rec" && ok "RECORD lists every file with its hash; the library is inside" || { nok "RECORD"; diag <"$tmp/rec"; }
PTXPOSE_LIB=/nonexistent/libptxpose.so check "wheelbuild.py without the library: exit 3" 3 python3 python/wheelbuild.py --out "$tmp/w3"
one_line "... one line naming it" "/nonexistent/libptxpose.so: no such library"

# pip_into VENV ARGS...: pip of the host installing into the venv, offline
pip_into() {
	v=$1
	shift
	python3 -m pip --python "$v/bin/python" install -q --no-index --no-deps --disable-pip-version-check "$@"
}
if ! python3 -m venv --without-pip "$tmp/venv" >"$tmp/err" 2>&1; then
	echo "ok $((n += 1)) # SKIP python3 -m venv is unavailable here ($(head -1 "$tmp/err")): apt-get install python3-venv"
	finish
fi
if ! python3 -m pip --help 2>/dev/null | grep -q -- '--python'; then
	echo "ok $((n += 1)) # SKIP this pip has no --python (pip 22.3 or later needed)"
	finish
fi
# the two installs at once (pip's start-up is most of their time)
python3 -m venv --without-pip "$tmp/venv2"
pip_into "$tmp/venv2" ./python >"$tmp/pip2" 2>&1 &
pip2=$!
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
[ -z "$(git status --porcelain --ignored python)" ] && ok "... python/ is left as it was" ||
	{ nok "... python/ changed"; git status --porcelain --ignored python | diag; }
finish
