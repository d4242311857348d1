"""ptxpose kernels for bench/peers.py: metadata, launch grid and arguments (kernel ABI v2).

A generated file describes its launch in `// ptxpose key=value` lines
(docs/DESIGN.md). This module reads them and computes, in plain Python, what
the loader computes in C: the grid (as meta_grid_dims does) and the packed
parameters. Only `bind` touches CuPy; the rest is tested without a GPU.

Kernel ABI v2, parameters in order:
    u64 in, u64 out, u32 rows, u32 cols, u32 ld_in, u32 ld_out, u32 batch,
    u64 stride_in, u64 stride_out
Grid: grid=tile tile=TMxTN: (ceil(cols/TN), min(ceil(rows/TM), 65535), min(batch, 65535));
      grid=linear per_block=P: (min(ceil(rows*cols/P), 2^31-1), 1, min(batch, 65535)).
Kernels loop over what a clamped grid leaves out, so every valid shape launches.
"""
import os

TAG = '// ptxpose '
GRID_X_MAX = 2**31 - 1
GRID_YZ_MAX = 65535


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
    """One generated kernel, checked against kernel ABI v2 on construction."""

    def __init__(self, path):
        m = read_meta(path)
        self.path, self.meta = path, m
        if 'kernel' not in m:
            raise PtxError(f"{path}: no ptxpose metadata (no '// ptxpose kernel=...' line)")
        if m.get('abi') != '2':
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
        elif self.grid == 'linear':
            if not m.get('per_block', '').isdigit() or int(m['per_block']) == 0:
                raise PtxError(f"{path}: metadata: grid=linear needs per_block=N, got '{m.get('per_block')}'")
            self.per_block = int(m['per_block'])
        else:
            raise PtxError(f"{path}: metadata: grid must be tile or linear, got '{self.grid}'")
        if not m.get('dyn_smem', '0').isdigit():
            raise PtxError(f"{path}: metadata: dyn_smem must be a byte count, got '{m['dyn_smem']}'")
        self.dyn_smem = int(m.get('dyn_smem', '0'))
        self.fn = None

    @property
    def label(self):
        return 'ptxpose:' + self.name

    def grid_dims(self, rows, cols, batch):
        """The launch grid for a shape, computed as the loader's meta_grid_dims does."""
        gz = min(batch, GRID_YZ_MAX)
        if self.grid == 'tile':
            tm, tn = self.tile
            return (-(-cols // tn), min(-(-rows // tm), GRID_YZ_MAX), gz)
        return (min(-(-(rows * cols) // self.per_block), GRID_X_MAX), 1, gz)

    def bind(self, cupy):
        """Load the module (the driver JITs the PTX) and keep the function."""
        self.fn = cupy.RawModule(path=self.path).get_function(self.name)
        if self.dyn_smem > 48 * 1024:
            self.fn.max_dynamic_shared_size_bytes = self.dyn_smem


def launch_args(in_ptr, out_ptr, case):
    """The kernel's parameters in ABI v2 order, as (type, value) pairs; pointers in bytes, the rest in elements."""
    return (('u64', in_ptr), ('u64', out_ptr), ('u32', case.rows), ('u32', case.cols),
            ('u32', case.ld_in), ('u32', case.ld_out), ('u32', case.batch),
            ('u64', case.stride_in), ('u64', case.stride_out))


def load(globs, glob_fn):
    """The kernels of every file the globs name, sorted, each once. Raises PtxError
    for a glob that names nothing or a file that cannot be launched."""
    paths = set()
    for g in globs:
        hit = glob_fn(g)
        if not hit:
            raise PtxError(f"--ptx '{g}': no file matches")
        paths.update(hit)
    return [PtxKernel(p) for p in sorted(paths, key=os.path.basename)]
