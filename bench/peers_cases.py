"""Cases for bench/peers.py: the spec syntax, the element types, the named sets.

A case is `ROWSxCOLS:DTYPE[:batch=B][:ld_in=N][:ld_out=N][:offset=N]
[:stride_in=S][:stride_out=S]`: a rows x cols row-major input with leading
dimension ld_in (elements, default cols) transposed into a cols x rows output
with leading dimension ld_out (default rows). `offset=N` puts both pointers N
elements past an aligned address. `batch=B` makes it B matrices, stride_in /
stride_out elements apart (default: the padded matrix, rows*ld_in and
cols*ld_out). The limits are those of kernel ABI v2 (docs/DESIGN.md).

Pure Python: no torch, so tests can parse cases on a machine without a GPU.
"""

import random

I32_MAX = 2**31 - 1
I63_MAX = 2**63 - 1
OFFSET_MAX = 15


class CaseError(ValueError):
    """A case spec or set name that cannot be used; str() is the one-line message."""


# name: (bytes per element, torch dtype, the real type whose normal random
#        values fill the input (None: random bytes), the cuBLAS geam routine that
#        moves elements of this width, CuPy has the type)
# The input holds finite values, so geam's 1*x + 0*z is exact and moves the
# bits of int-typed data reinterpreted as floats of the same width.
DTYPES = {
    'u8': (1, 'uint8', None, None, True),
    'i8': (1, 'int8', None, None, True),
    'f16': (2, 'float16', 'float16', None, True),
    'bf16': (2, 'bfloat16', 'bfloat16', None, False),
    'i16': (2, 'int16', 'float16', None, True),
    'f32': (4, 'float32', 'float32', 'sgeam', True),
    'i32': (4, 'int32', 'float32', 'sgeam', True),
    'f64': (8, 'float64', 'float64', 'dgeam', True),
    'c64': (8, 'complex64', 'float32', 'dgeam', True),
    'i64': (8, 'int64', 'float64', 'dgeam', True),
    'c128': (16, 'complex128', 'float64', 'zgeam', True),
}
WIDTHS = ('u8', 'f16', 'f32', 'f64', 'c128')  # one type per width: "every width"
OPTIONS = ('batch', 'ld_in', 'ld_out', 'offset', 'stride_in', 'stride_out')


class Case:
    """One parsed case; `name` is its normalized spec (defaults left out)."""

    def __init__(self, rows, cols, dtype, batch=None, ld_in=None, ld_out=None, offset=0,
                 stride_in=None, stride_out=None):
        self.rows, self.cols, self.dtype, self.offset = rows, cols, dtype, offset
        self.batched = batch is not None
        self.batch = batch if self.batched else 1
        self.ld_in = cols if ld_in is None else ld_in
        self.ld_out = rows if ld_out is None else ld_out
        self.stride_in = self.rows * self.ld_in if stride_in is None else stride_in
        self.stride_out = self.cols * self.ld_out if stride_out is None else stride_out
        self.given = {'batch': batch, 'ld_in': ld_in, 'ld_out': ld_out, 'offset': offset or None,
                      'stride_in': stride_in, 'stride_out': stride_out}
        self.sets = []
        self.eb, self.torch_dtype, self.fill_dtype, self.geam, self.cupy = DTYPES[dtype]

    @property
    def name(self):
        opts = ''.join(f':{k}={self.given[k]}' for k in OPTIONS if self.given[k] is not None)
        return f'{self.rows}x{self.cols}:{self.dtype}{opts}'

    @property
    def elem_bits(self):
        return 8 * self.eb

    @property
    def moved_bytes(self):
        """Bytes read plus bytes written by one transpose (and by the copy it is measured against)."""
        return 2 * self.batch * self.rows * self.cols * self.eb

    def span(self, side):
        """Elements from the aligned base to one past the last element of the input or output."""
        if side == 'in':
            one, stride = (self.rows - 1) * self.ld_in + self.cols, self.stride_in
        else:
            one, stride = (self.cols - 1) * self.ld_out + self.rows, self.stride_out
        return self.offset + (self.batch - 1) * stride + one

    def record(self):
        """The case's fields for the results JSON."""
        return {'case': self.name, 'sets': list(self.sets), 'dtype': self.dtype,
                'elem_bits': self.elem_bits, 'rows': self.rows, 'cols': self.cols,
                'batch': self.batch, 'ld_in': self.ld_in, 'ld_out': self.ld_out,
                'offset': self.offset, 'stride_in': self.stride_in,
                'stride_out': self.stride_out, 'bytes': self.moved_bytes}


def _number(spec, key, text, lo, hi):
    if not text.isdigit():
        raise CaseError(f"bad case '{spec}': {key} '{text}' is not a decimal number")
    v = int(text)
    if not lo <= v <= hi:
        raise CaseError(f"bad case '{spec}': {key} {v} is out of range {lo}..{hi}")
    return v


def parse_case(spec):
    """Parse one spec into a Case, or raise CaseError naming what is wrong."""
    parts = spec.split(':')
    if len(parts) < 2:
        raise CaseError(f"bad case '{spec}': want ROWSxCOLS:DTYPE[:key=N]..., e.g. 8191x8193:f32")
    dims = parts[0].lower().split('x')
    if len(dims) != 2:
        raise CaseError(f"bad case '{spec}': shape '{parts[0]}' is not ROWSxCOLS")
    rows = _number(spec, 'rows', dims[0], 1, I32_MAX)
    cols = _number(spec, 'cols', dims[1], 1, I32_MAX)
    if parts[1] not in DTYPES:
        raise CaseError(f"bad case '{spec}': unknown type '{parts[1]}' (one of {' '.join(DTYPES)})")
    opts = {}
    for p in parts[2:]:
        key, eq, text = p.partition('=')
        if key not in OPTIONS or not eq:
            raise CaseError(f"bad case '{spec}': unknown option '{p}' (batch= ld_in= ld_out= offset= "
                            f"stride_in= stride_out=)")
        if key in opts:
            raise CaseError(f"bad case '{spec}': {key} given twice")
        hi = {'offset': OFFSET_MAX, 'stride_in': I63_MAX, 'stride_out': I63_MAX}.get(key, I32_MAX)
        opts[key] = _number(spec, key, text, 0 if key == 'offset' else 1, hi)
    c = Case(rows, cols, parts[1], **opts)
    _validate(spec, c)
    return c


def _validate(spec, c):
    if c.ld_in < c.cols:
        raise CaseError(f"bad case '{spec}': ld_in {c.ld_in} is less than cols {c.cols}")
    if c.ld_out < c.rows:
        raise CaseError(f"bad case '{spec}': ld_out {c.ld_out} is less than rows {c.rows}")
    if not c.batched and (c.given['stride_in'] or c.given['stride_out']):
        raise CaseError(f"bad case '{spec}': a stride needs batch=B")
    need_in = (c.rows - 1) * c.ld_in + c.cols
    need_out = (c.cols - 1) * c.ld_out + c.rows
    if c.batch > 1 and c.stride_in < need_in:
        raise CaseError(f"bad case '{spec}': stride_in {c.stride_in} is less than the input matrix "
                        f"({need_in} elements)")
    if c.batch > 1 and c.stride_out < need_out:
        raise CaseError(f"bad case '{spec}': stride_out {c.stride_out} is less than the output matrix "
                        f"({need_out} elements)")
    for side in ('in', 'out'):
        if c.span(side) * c.eb > I63_MAX:
            raise CaseError(f"bad case '{spec}': the {side}put spans {c.span(side)} elements, "
                            f"over 2^63 bytes")


# The named sets, the one place they are defined. Each is a list of specs.
SKINNY_K = (1, 2, 3, 4, 7, 8, 16, 33, 64)
SKINNY_N = 2**20


def _each(shapes, dtypes=WIDTHS, opts=''):
    return [f'{s}:{d}{opts}' for d in dtypes for s in shapes]


def _skinny():
    return [c for k in SKINNY_K for c in _each((f'{k}x{SKINNY_N}', f'{SKINNY_N}x{k}'))]


SETS = {
    # the README's side-by-side cases: large square and near-square matrices, odd, wide and
    # tall ones, every width (issue 8's)
    'mixed': _each(('16384x16384', '8192x8192', '8191x8193', '12345x6789', '4096x4096',
                     '2048x2048', '65536x4096', '4096x65536', '30000x7', '7x30000'))
    + ['32768x32768:u8'],
    # K x N and N x K, every K and width (issue 10's)
    'skinny': _skinny(),
    # batched transposes (issue 10's)
    'batched': ['1024x1024:f32:batch=64', '64x128:f16:batch=4096', '3x3:f32:batch=1048576'],
    # the limits of the launch: a dimension of 3 or 64, over 65535 tile rows (issue 10's)
    'limits': _each(('3x1000003', '1000003x3', '4194304x3', '3x4194304', '2200000x1'))
    + ['64x1000000:u8', '1000000x64:u8', '40000000x8:c128'],
    # odd shapes for 1- and 2-byte elements, large regular shapes for every width (issue 13's)
    'small-elements': _each(('8191x8193', '12345x6789', '6000x6000'), ('u8', 'f16', 'bf16'))
    + _each(('8192x8192', '16384x16384', '65536x4096', '4096x65536')),
    # odd shapes, leading dimensions and pointers off alignment
    'odd': _each(('8191x8193', '12345x6789', '6000x6000'))
    + _each(('4097x4095',), opts=':ld_in=4100:ld_out=4099')
    + _each(('4097x4095', '4096x4096'), opts=':offset=1')
    + ['33x31:f32:batch=3:stride_in=1100:stride_out=1100', '1x7:u8:batch=1000'],
    # a few seconds on a GPU: every implementation and option once
    'smoke': ['2048x2048:f32', '1000x3:u8', '3x1000:c128', '4097x4095:f16:offset=1',
              '4097x4095:f64:ld_in=4100:ld_out=4099', '33x31:i32:batch=3:stride_in=1100:stride_out=1100',
              '64x128:bf16:batch=16', '1000x1000:c64'],
}
SETS['extremes'] = SETS['skinny'] + SETS['batched'] + SETS['limits']  # issue 10's
DEFAULT_SETS = ('mixed', 'extremes', 'small-elements')
# the names the sets had (the issues that asked for them): still taken by --set, and recorded
# under the new name
ALIASES = {'issue8': 'mixed', 'issue10': 'extremes', 'issue13': 'small-elements'}

# The plans issue's diverse benchmark: `--set diverse` (seed 2026) or `--set diverse:SEED`.
BY_WIDTH = {DTYPES[d][0]: d for d in WIDTHS}
DIVERSE_SEED = 2026
DIVERSE_COUNT = 300


def diverse_cases(seed=DIVERSE_SEED, n=DIVERSE_COUNT):
    """n distinct cases, the same for the same seed: rows and cols log-uniform over 1..2^20,
    each matrix 1 MB..1 GB, the five widths in turn; exactly a quarter with padded leading
    dimensions, a quarter with both pointers whole elements past a 256-byte boundary (off
    16-byte alignment, but for 16-byte elements), a fifth batched (1 GB at most in all)."""
    rng = random.Random(seed)
    kinds = ['padded'] * (n // 4) + ['offset'] * (n // 4)
    kinds += ['plain'] * (n - len(kinds))
    batched = [True] * (n // 5) + [False] * (n - n // 5)
    rng.shuffle(kinds)
    rng.shuffle(batched)
    out, seen = [], set()
    for i in range(n):
        eb = sorted(BY_WIDTH)[i % len(BY_WIDTH)]
        while True:
            rows, cols = (max(1, int(2 ** rng.uniform(0, 20))) for _ in range(2))
            size = rows * cols * eb
            if not (1 << 20) <= size <= (1 << 30) or (batched[i] and size > (1 << 29)):
                continue
            spec = f'{rows}x{cols}:{BY_WIDTH[eb]}'
            if kinds[i] == 'padded':
                spec += f':ld_in={cols + rng.randint(1, 64)}:ld_out={rows + rng.randint(1, 64)}'
            elif kinds[i] == 'offset':
                spec += f':offset={rng.randint(1, 16 // eb - 1) if eb < 16 else 1}'
            if batched[i]:
                spec += f':batch={rng.randint(2, min(1024, (1 << 30) // size))}'
            spec = parse_case(spec).name  # normalized: as the results name it
            if spec not in seen:
                break
        seen.add(spec)
        out.append(spec)
    return out


SETS['diverse'] = diverse_cases()


def _named(name):
    """The specs of a set name: one of SETS, or diverse[:SEED]."""
    name = ALIASES.get(name, name)
    base, _, seed = name.partition(':')
    if base == 'diverse' and seed.isdigit():
        return diverse_cases(int(seed))
    if name not in SETS:
        raise CaseError(f"unknown set '{name}' (one of {' '.join(SETS)}, diverse:SEED)")
    return SETS[name]


def expand(set_names, specs):
    """The cases of the named sets, then the specs, each once (first place kept, all sets noted)."""
    out, seen = [], {}
    todo = []
    for s in set_names:
        todo += [(spec, ALIASES.get(s, s)) for spec in _named(s)]
    todo += [(spec, 'cli') for spec in specs]
    for spec, s in todo:
        c = parse_case(spec)
        if c.name not in seen:
            seen[c.name] = c
            out.append(c)
        if s not in seen[c.name].sets:
            seen[c.name].sets.append(s)
    return out
