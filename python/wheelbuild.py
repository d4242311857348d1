"""Build the ptxpose wheel: the package with libptxpose inside. Standard library only.

    python3 python/wheelbuild.py [--lib LIBRARY] [--out DIR]      (./build.sh wheel runs this)

It is also the PEP 517 backend of python/pyproject.toml, so `pip install ./python`
builds the same wheel, offline, with nothing to download. The library is $PTXPOSE_LIB
or --lib, else the clone's build/libptxpose.so.MAJOR.MINOR (run ./build.sh first);
the wheel's version is the library's (its file name, libptxpose.so.X.Y.Z).

The platform tag is read from the library itself: manylinux_2_N for the newest
GLIBC_2.N symbol version it needs (built on Debian 12, dlopen and pthread_* are
GLIBC_2.34, so manylinux_2_34), for the machine its ELF header names. The wheel
holds no Python extension, so it is py3-none: any CPython 3.8 or later. The
library needs only libc (libcuda is opened at run time), which manylinux allows.
"""
from __future__ import annotations

import base64
import glob
import hashlib
import io
import os
import re
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from ptxpose._lib import SONAME  # noqa: E402  (the soname these bindings load)

MACHINES = {62: 'x86_64', 183: 'aarch64'}  # ELF e_machine
STAMP = (1980, 1, 1, 0, 0, 0)  # every member's date: the same input gives the same wheel


class BuildError(Exception):
    """One line: what is missing or wrong."""


def find_library(explicit=None):
    lib = explicit or os.environ.get('PTXPOSE_LIB') or os.path.join(ROOT, 'build', SONAME)
    if not os.path.isfile(lib):
        raise BuildError(f'{lib}: no such library: run ./build.sh (or ninja) first, or give --lib / $PTXPOSE_LIB')
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


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
    return f'{name},sha256={digest},{len(data)}'


def build(out_dir, lib=None):
    """Write the wheel into out_dir; returns its file name."""
    real = find_library(lib)
    version = library_version(real)
    with open(real, 'rb') as f:
        so = f.read()
    tag = f'py3-none-{platform_tag(so)}'
    dist = f'ptxpose-{version}.dist-info'
    files = []
    for path in sorted(glob.glob(os.path.join(HERE, 'ptxpose', '*'))):
        name = os.path.basename(path)
        if name.endswith(('.py', '.typed')):
            with open(path, 'rb') as f:
                files.append((f'ptxpose/{name}', f.read(), 0o644))
    files.append((f'ptxpose/{SONAME}', so, 0o755))
    xla = os.path.join(os.path.dirname(real), 'libptxpose_xla.so')
    if os.path.isfile(xla):  # ptxpose.jax's XLA FFI handler, where it was built beside the library
        with open(xla, 'rb') as f:
            files.append(('ptxpose/libptxpose_xla.so', f.read(), 0o755))
    with open(os.path.join(HERE, 'README.md'), 'rb') as f:
        readme = f.read().decode()
    meta = (f'Metadata-Version: 2.1\nName: ptxpose\nVersion: {version}\n'
            'Summary: Out-of-place transposes of CUDA arrays (PyTorch, CuPy, Numba, DLPack) through '
            'hand-scheduled PTX kernels\nRequires-Python: >=3.8\nDescription-Content-Type: text/markdown\n\n'
            + readme)
    wheel = f'Wheel-Version: 1.0\nGenerator: ptxpose wheelbuild.py\nRoot-Is-Purelib: false\nTag: {tag}\n'
    files += [(f'{dist}/METADATA', meta.encode(), 0o644), (f'{dist}/WHEEL', wheel.encode(), 0o644),
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
    os.makedirs(out_dir, exist_ok=True)
    tmp = os.path.join(out_dir, f'.{name}.tmp.{os.getpid()}')
    with open(tmp, 'wb') as f:
        f.write(buf.getvalue())
    os.replace(tmp, os.path.join(out_dir, name))  # all or nothing
    return name


# ---- PEP 517 hooks (pyproject.toml: build-backend = "wheelbuild", backend-path = ["."]) ----

def get_requires_for_build_wheel(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    try:
        return build(wheel_directory)
    except BuildError as e:
        raise SystemExit(f'ptxpose wheel: {e}') from None


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog='wheelbuild.py', description='build the ptxpose wheel')
    ap.add_argument('--lib', help=f'the library to bundle (default $PTXPOSE_LIB, else build/{SONAME})')
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'wheel'), help='the folder (default build/wheel)')
    a = ap.parse_args(argv)
    try:
        print(os.path.join(a.out, build(a.out, a.lib)))
    except BuildError as e:
        print(f'wheelbuild.py: {e}', file=sys.stderr)
        return 3
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
