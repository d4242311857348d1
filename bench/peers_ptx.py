"""PTX files for bench/peers.py's --ptx: their ptxpose metadata, checked before anything runs.

The kernels are timed through the ptxpose package (python/): the files are
given to the library as $PTXPOSE_PTX (added to its built-in kernels, or
replacing those of the same name) and each is planned by name
(`Plan(x, y, kernel=NAME)`), so the library computes the grid and the
arguments and launches it, as it does for a user. This module only reads a
file's `// ptxpose key=value` lines (docs/DESIGN.md), so that a file the
library would refuse is named, with why, before the GPU is touched.
"""
import os

TAG = '// ptxpose '


class PtxError(ValueError):
    """A PTX file that cannot be launched; str() is the one-line message, naming the file."""


def read_meta(path):
    """The `// ptxpose key=value` pairs of a file (the `// ptxpose-smem` lines are not metadata)."""
    meta = {}
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            lines = f.readlines()
    except OSError as e:
        raise PtxError(f'{path}: {e.strerror}') from None
    for n, line in enumerate(lines, 1):
        if not line.startswith(TAG):
            continue
        for tok in line[len(TAG):].split():
            k, eq, v = tok.partition('=')
            if not eq or not k:
                raise PtxError(f"{path}:{n}: metadata token '{tok}' is not key=value")
            if k in meta:
                raise PtxError(f"{path}:{n}: metadata key '{k}' given twice")
            meta[k] = v
    return meta


def _dims(path, key, text, count):
    parts = text.split('x')
    if not all(p.isdigit() and int(p) > 0 for p in parts) or not 1 <= len(parts) <= count:
        raise PtxError(f"{path}: metadata: {key} must be {'x'.join('N' * count)}, got '{text}'")
    return [int(p) for p in parts] + [1] * (count - len(parts))


class PtxKernel:
    """One generated kernel's metadata, checked against kernel ABI v2, v3 or v4 on construction (the
    library launches a named v3 kernel on a 2-D problem with the batch as its one dimension; a v4 one,
    grid=pack, moves N-d tiles: loader/abi.h)."""

    def __init__(self, path):
        m = read_meta(path)
        self.path, self.meta = path, m
        if 'kernel' not in m:
            raise PtxError(f"{path}: no ptxpose metadata (no '// ptxpose kernel=...' line)")
        if m.get('abi') not in ('2', '3', '4'):
            raise PtxError(f"{path}: kernel ABI {m.get('abi', '1')}; regenerate it with ptxpose gen")
        self.name = m['kernel']
        if m.get('elem') not in ('8', '16', '32', '64', '128'):
            raise PtxError(f"{path}: metadata: elem must be 8, 16, 32, 64 or 128, got '{m.get('elem')}'")
        self.elem = int(m['elem'])
        self.block = tuple(_dims(path, 'block', m.get('block', ''), 3))
        if self.block[0] * self.block[1] * self.block[2] > 1024:
            raise PtxError(f"{path}: metadata: block {m['block']} has more than 1024 threads")
        self.grid = m.get('grid')
        if self.grid == 'tile':
            self.tile = tuple(_dims(path, 'tile', m.get('tile', ''), 2))
        elif self.grid in ('linear', 'flat', 'pack'):
            if not m.get('per_block', '').isdigit() or int(m['per_block']) == 0:
                raise PtxError(f"{path}: metadata: grid={self.grid} needs per_block=N, got '{m.get('per_block')}'")
            self.per_block = int(m['per_block'])
        else:
            raise PtxError(f"{path}: metadata: grid must be tile, linear, flat or pack, got '{self.grid}'")
        if not m.get('dyn_smem', '0').isdigit():
            raise PtxError(f"{path}: metadata: dyn_smem must be a byte count, got '{m['dyn_smem']}'")
        self.dyn_smem = int(m.get('dyn_smem', '0'))

    @property
    def label(self):
        return 'ptxpose:' + self.name


def load(globs, glob_fn):
    """The 2-D transpose kernels of every file the globs name, sorted, each once (a row
    copy, op=copy, is no transpose, and a pack kernel, grid=pack, moves N-d tiles: both
    left out; the library still gets them from its built-ins). Raises PtxError for a
    glob that names nothing or a file that cannot be launched."""
    paths = set()
    for g in globs:
        hit = glob_fn(g)
        if not hit:
            raise PtxError(f"--ptx '{g}': no file matches")
        paths.update(hit)
    kernels = [PtxKernel(p) for p in sorted(paths, key=os.path.basename)]
    return [k for k in kernels if k.meta.get('op', 'transpose') == 'transpose' and k.grid != 'pack']


def ptx_path(kernels):
    """The $PTXPOSE_PTX value that gives the library these files."""
    return ':'.join(k.path for k in kernels)
