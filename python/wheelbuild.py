"""Build the ptxpose wheel and sdist: the package with libptxpose inside. Standard library only.

    python3 python/wheelbuild.py [--lib LIBRARY] [--out DIR] [--sdist]   (./build.sh wheel runs this)

It is also the PEP 517 and PEP 660 backend of python/pyproject.toml, so `pip install ./python`
and `pip install -e ./python` work offline, with nothing to download. The library is $PTXPOSE_LIB
or --lib when given; else the backend builds it with the project's own build (build-aux/ninja.sh:
`ninja lib`, which reruns configure.py as needed), in the clone (python/'s parent) or, from an sdist,
in its src/ folder, and bundles build/libptxpose.so.MAJOR.MINOR. The wheel's version is the
library's (its file name, libptxpose.so.X.Y.Z); its metadata is pyproject.toml's [project] table,
with README.md as the long description and the LICENSE beside it.

The platform tag is read from the library itself: manylinux_2_N for the newest
GLIBC_2.N symbol version it needs (built on Debian 12, dlopen and pthread_* are
GLIBC_2.34, so manylinux_2_34), for the machine its ELF header names. The wheel
holds no Python extension, so it is py3-none: any CPython 3.8 or later. The
library needs only libc (libcuda is opened at run time), which manylinux allows.

The sdist holds the package, and in src/ what building the library reads (configure.py
--library-inputs names it) with the commit it came from. An editable install (PEP 660) loads the
package from python/ and the library from the clone's build/ (the package's last place to look),
so that `ninja lib` updates what it loads; it needs a clone.
"""
from __future__ import annotations

import base64
import glob
import gzip
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ptxpose._lib import SONAME  # noqa: E402  (the soname these bindings load)

MACHINES = {62: 'x86_64', 183: 'aarch64'}  # ELF e_machine
STAMP = (1980, 1, 1, 0, 0, 0)  # every member's date: the same input gives the same wheel and sdist
STAMP_EPOCH = 315532800         # the same, in seconds
EDITABLE_TAG = 'py3-none-any'


class BuildError(Exception):
    """One line: what is missing or wrong."""


def source_root():
    """The tree the library is built in: an sdist's src/, else the clone (python/'s parent).
    None when neither holds configure.py (pip before 21.3 copies python/ away alone)."""
    for root in (os.path.join(HERE, 'src'), os.path.dirname(HERE)):
        if os.path.isfile(os.path.join(root, 'configure.py')):
            return root
    return None


def _root_or_fail():
    root = source_root()
    if root is None:
        raise BuildError(f'{HERE}: neither a clone (no ../configure.py) nor an sdist (no src/): '
                         'pip before 21.3 copies python/ away; upgrade pip, or give $PTXPOSE_LIB')
    return root


# ---- pyproject.toml's [project]: the metadata, written once --------------------------------

_STR = r'"((?:[^"\\]|\\.)*)"'


def _toml_string(s):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), s)


def _uncomment(line):
    """line without a comment (a '#' outside a string)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote and line[i - 1] != '\\' else quote
        elif c in '"\'':
            quote = c
        elif c == '#':
            return line[:i].rstrip()
    return line.rstrip()


def _toml_value(text, where):
    text = text.strip()
    m = re.fullmatch(_STR, text)
    if m:
        return _toml_string(m.group(1))
    if text.startswith('[') and text.endswith(']'):
        return [_toml_string(v) for v in re.findall(_STR, text)]
    if text.startswith('{') and text.endswith('}'):
        return {k: _toml_string(v) for k, v in re.findall(r'([\w-]+)\s*=\s*' + _STR, text)}
    raise BuildError(f'pyproject.toml:{where}: a value this backend does not read: {text[:40]}')


def read_project(path):
    """pyproject.toml's [project] and [project.urls] tables, of the TOML they use: strings,
    arrays of strings (over several lines), inline tables of strings. Other tables are skipped."""
    with open(path, encoding='utf-8') as f:
        lines = [_uncomment(line) for line in f.read().splitlines()]
    tables, table, i = {}, None, 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        m = re.fullmatch(r'\[([\w.-]+)\]', line)
        if m:
            table = tables.setdefault(m.group(1), {}) if m.group(1) in ('project', 'project.urls') else None
        elif line and table is not None:
            m = re.fullmatch(r'("[^"]+"|[\w-]+)\s*=\s*(.*)', line)
            if not m:
                raise BuildError(f'pyproject.toml:{i}: not a key = value line')
            key, value, at = m.group(1).strip('"'), m.group(2), i
            while value.count('[') > value.count(']') and i < len(lines):  # an array over lines
                value += ' ' + lines[i]
                i += 1
            table[key] = _toml_value(value, f'{at}: {key}')
    project = tables.get('project', {})
    project['urls'] = tables.get('project.urls', {})
    return project


def metadata(version, root=None):
    """The core metadata (METADATA, PKG-INFO) of this version, from pyproject.toml and README.md."""
    p = read_project(os.path.join(HERE, 'pyproject.toml'))
    lines = ['Metadata-Version: 2.1', f'Name: {p["name"]}', f'Version: {version}', f'Summary: {p["description"]}']
    lic = p.get('license', {})
    if lic.get('text'):
        lines.append(f'License: {lic["text"]}')
    lines += [f'Project-URL: {k}, {v}' for k, v in p['urls'].items()]
    lines += [f'Classifier: {c}' for c in p.get('classifiers', [])]
    lines.append(f'Requires-Python: {p["requires-python"]}')
    readme = p.get('readme')
    if not readme:
        return '\n'.join(lines) + '\n'
    with open(os.path.join(HERE, readme), encoding='utf-8') as f:
        body = f.read()
    return '\n'.join(lines + ['Description-Content-Type: text/markdown']) + '\n\n' + body


def license_file():
    """The LICENSE: the sdist's, else the clone's."""
    for path in (os.path.join(HERE, 'LICENSE'), os.path.join(os.path.dirname(HERE), 'LICENSE')):
        if os.path.isfile(path):
            return path
    raise BuildError(f'no LICENSE beside {HERE} or in its parent')


def header_version(root):
    """MAJOR.MINOR.PATCH of include/ptxpose.h, the one place they are kept."""
    with open(os.path.join(root, 'include', 'ptxpose.h'), encoding='utf-8') as f:
        text = f.read()
    return '.'.join(re.search(rf'#define PTXPOSE_VERSION_{k} (\d+)', text).group(1) for k in ('MAJOR', 'MINOR', 'PATCH'))


# ---- the library --------------------------------------------------------------------------------

def build_library(root):
    """`ninja lib` in root through build-aux/ninja.sh (progress lines on stderr); the library's path."""
    missing = [t for t in ('ninja', 'cc', 'python3') if shutil.which(t) is None]
    if missing:
        raise BuildError(f'no {" or ".join(missing)} here to build the library: install them '
                         '(Debian: apt-get install ninja-build gcc python3), or give $PTXPOSE_LIB')
    env = dict(os.environ)
    commit = os.path.join(root, 'COMMIT')
    if os.path.isfile(commit):  # an sdist: its commit, and no git repository around it asked
        with open(commit, encoding='utf-8') as f:
            env['PTXPOSE_COMMIT'] = f.read().strip()
        env['GIT_CEILING_DIRECTORIES'] = os.path.dirname(os.path.abspath(root))
    print(f'ptxpose: building {SONAME} in {root} (ninja lib)', file=sys.stderr, flush=True)
    rc = subprocess.call(['sh', 'build-aux/ninja.sh', 'lib'], cwd=root, env=env, stdout=sys.stderr)
    lib = os.path.join(root, 'build', SONAME)
    if rc or not os.path.isfile(lib):
        raise BuildError(f'building the library failed (ninja lib in {root}, exit {rc}: its output is above)')
    return lib


def find_library(explicit=None):
    """The library to bundle: the one given ($PTXPOSE_LIB, --lib), else the one built."""
    lib = explicit or os.environ.get('PTXPOSE_LIB')
    if not lib:
        lib = build_library(_root_or_fail())
    if not os.path.isfile(lib):
        raise BuildError(f'{lib}: no such library: give --lib / $PTXPOSE_LIB a built libptxpose.so.X.Y.Z')
    return os.path.realpath(lib)


def library_version(real):
    m = re.search(r'\.so\.(\d+\.\d+\.\d+)$', real)
    if not m:
        raise BuildError(f'{real}: not named libptxpose.so.X.Y.Z: cannot tell its version')
    return m.group(1)


def platform_tag(data):
    """manylinux_2_N_MACHINE from the library's bytes (an ELF shared object)."""
    if data[:4] != b'\x7fELF' or data[4] != 2:
        raise BuildError('the library is not a 64-bit ELF file')
    machine = MACHINES.get(int.from_bytes(data[18:20], 'little'))
    if machine is None:
        raise BuildError(f'the library is for ELF machine {int.from_bytes(data[18:20], "little")}, not x86_64 or aarch64')
    needs = [int(m) for m in re.findall(rb'GLIBC_2\.(\d+)', data)]  # .dynstr's version-need names
    return f'manylinux_2_{max(needs, default=17)}_{machine}'


# ---- wheels ---------------------------------------------------------------------------------

def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
    return f'{name},sha256={digest},{len(data)}'


def _package_files():
    files = []
    for path in sorted(glob.glob(os.path.join(HERE, 'ptxpose', '*'))):
        name = os.path.basename(path)
        if name.endswith(('.py', '.typed')):
            with open(path, 'rb') as f:
                files.append((f'ptxpose/{name}', f.read(), 0o644))
    return files


def _write_atomic(out_dir, name, data):
    os.makedirs(out_dir, exist_ok=True)
    tmp = os.path.join(out_dir, f'.{name}.tmp.{os.getpid()}')
    with open(tmp, 'wb') as f:
        f.write(data)
    os.replace(tmp, os.path.join(out_dir, name))  # all or nothing


def write_wheel(out_dir, version, tag, files):
    """The wheel of files (name, bytes, mode) with its dist-info; returns its file name."""
    dist = f'ptxpose-{version}.dist-info'
    with open(license_file(), 'rb') as f:
        files = files + [(f'{dist}/LICENSE', f.read(), 0o644)]
    wheel = f'Wheel-Version: 1.0\nGenerator: ptxpose wheelbuild.py\nRoot-Is-Purelib: false\nTag: {tag}\n'
    files += [(f'{dist}/METADATA', metadata(version).encode(), 0o644), (f'{dist}/WHEEL', wheel.encode(), 0o644),
              (f'{dist}/top_level.txt', b'ptxpose\n', 0o644)]
    record = '\n'.join([_record_line(n, d) for n, d, _ in files] + [f'{dist}/RECORD,,']) + '\n'
    files.append((f'{dist}/RECORD', record.encode(), 0o644))
    name = f'ptxpose-{version}-{tag}.whl'
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as z:
        for n, d, mode in files:
            zi = zipfile.ZipInfo(n, STAMP)
            zi.external_attr = (0o100000 | mode) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, d)
    _write_atomic(out_dir, name, buf.getvalue())
    return name


def build(out_dir, lib=None):
    """Write the wheel into out_dir; returns its file name."""
    real = find_library(lib)
    version = library_version(real)
    with open(real, 'rb') as f:
        so = f.read()
    files = _package_files() + [(f'ptxpose/{SONAME}', so, 0o755)]
    xla = os.path.join(os.path.dirname(real), 'libptxpose_xla.so')
    if os.path.isfile(xla):  # ptxpose.jax's XLA FFI handler, where it was built beside the library
        with open(xla, 'rb') as f:
            files.append(('ptxpose/libptxpose_xla.so', f.read(), 0o755))
    return write_wheel(out_dir, version, f'py3-none-{platform_tag(so)}', files)


# The editable install's hook: a finder that loads `ptxpose` (and nothing else) from python/.
EDITABLE_FINDER = '''"""ptxpose installed in editable mode: the package is loaded from {path!r}."""
import importlib.util
import sys

PATH = {path!r}


class _Finder:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != 'ptxpose':
            return None
        return importlib.util.spec_from_file_location(name, PATH + '/__init__.py', submodule_search_locations=[PATH])


sys.meta_path.append(_Finder)
'''


def build_editable_wheel(out_dir, lib=None):
    """The editable wheel: a finder for python/ptxpose and the dist-info; the library built in the
    clone's build/ (where the package looks last), unless $PTXPOSE_LIB or lib names one."""
    root = source_root()
    if root != os.path.dirname(HERE):
        raise BuildError(f'{HERE}: an editable install needs a clone (python/ beside configure.py); '
                         'install an sdist without -e')
    real = find_library(lib)
    finder = EDITABLE_FINDER.format(path=os.path.join(HERE, 'ptxpose'))
    return write_wheel(out_dir, library_version(real), EDITABLE_TAG,
                       [('_ptxpose_editable.py', finder.encode(), 0o644),
                        ('_ptxpose_editable.pth', b'import _ptxpose_editable\n', 0o644)])


# ---- the sdist ----------------------------------------------------------------------------------

def _git_commit(root):
    try:
        out = subprocess.run(['git', 'describe', '--always', '--dirty'], cwd=root, capture_output=True, text=True,
                             timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return 'unknown'
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else 'unknown'


def build_sdist_file(out_dir):
    """Write ptxpose-VERSION.tar.gz into out_dir; returns its file name. Made from a clone: the
    package, and in src/ the files building the library reads and the commit."""
    root = os.path.dirname(HERE)
    if not os.path.isfile(os.path.join(root, 'configure.py')):
        raise BuildError(f'{HERE}: an sdist is made from a clone (python/ beside configure.py)')
    version = header_version(root)
    p = subprocess.run([sys.executable, 'configure.py', '--library-inputs'], cwd=root, capture_output=True,
                       text=True)
    if p.returncode:
        raise BuildError(f'configure.py --library-inputs failed: {p.stderr.strip().splitlines()[-1:]}')
    top = f'ptxpose-{version}'
    members = [(f'{top}/PKG-INFO', metadata(version).encode(), 0o644)]
    own = ['pyproject.toml', 'wheelbuild.py', 'README.md'] + [n for n, _, _ in _package_files()]
    for rel in own:
        with open(os.path.join(HERE, rel), 'rb') as f:
            members.append((f'{top}/{rel}', f.read(), 0o644))
    with open(license_file(), 'rb') as f:
        members.append((f'{top}/LICENSE', f.read(), 0o644))
    for rel in p.stdout.split():
        path = os.path.join(root, rel)
        with open(path, 'rb') as f:
            members.append((f'{top}/src/{rel}', f.read(), 0o755 if os.access(path, os.X_OK) else 0o644))
    members.append((f'{top}/src/COMMIT', (_git_commit(root) + '\n').encode(), 0o644))
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode='w', format=tarfile.PAX_FORMAT) as t:
        for name, data, mode in sorted(members):
            ti = tarfile.TarInfo(name)
            ti.size, ti.mode, ti.mtime = len(data), mode, STAMP_EPOCH
            t.addfile(ti, io.BytesIO(data))
    gz = io.BytesIO()
    with gzip.GzipFile(fileobj=gz, mode='wb', mtime=0) as g:
        g.write(tar.getvalue())
    name = f'{top}.tar.gz'
    _write_atomic(out_dir, name, gz.getvalue())
    return name


# ---- PEP 517 and PEP 660 hooks (pyproject.toml: build-backend = "wheelbuild", backend-path = ["."]) ----

def _hook(fn, *args):
    try:
        return fn(*args)
    except BuildError as e:
        raise SystemExit(f'ptxpose wheel: {e}') from None


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _hook(build, wheel_directory)


def build_sdist(sdist_directory, config_settings=None):
    return _hook(build_sdist_file, sdist_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _hook(build_editable_wheel, wheel_directory)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog='wheelbuild.py', description='build the ptxpose wheel (or sdist)')
    ap.add_argument('--lib', help='the library to bundle (default $PTXPOSE_LIB, else the one ninja lib builds)')
    ap.add_argument('--out', default=os.path.join(os.path.dirname(HERE), 'build', 'wheel'),
                    help='the folder (default build/wheel)')
    ap.add_argument('--sdist', action='store_true', help='the sdist (ptxpose-VERSION.tar.gz) instead')
    a = ap.parse_args(argv)
    try:
        print(os.path.join(a.out, build_sdist_file(a.out) if a.sdist else build(a.out, a.lib)))
    except BuildError as e:
        print(f'wheelbuild.py: {e}', file=sys.stderr)
        return 3
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
