"""Cases for bench/peers.py: the spec syntax, the element types, the named sets.

A 2-D case is `ROWSxCOLS:DTYPE[:batch=B][:ld_in=N][:ld_out=N][:offset=N]
[:stride_in=S][:stride_out=S]`: a rows x cols row-major input with leading
dimension ld_in (elements, default cols) transposed into a cols x rows output
with leading dimension ld_out (default rows). `offset=N` puts both pointers N
elements past an aligned address. `batch=B` makes it B matrices, stride_in /
stride_out elements apart (default: the padded matrix, rows*ld_in and
cols*ld_out). The limits are those of kernel ABI v2 (docs/DESIGN.md).

An N-d case is `D0xD1x...xDn:DTYPE:perm=p0,p1,...[:offset=N]` (rank 1 to 8):
a packed row-major input of extents D0..Dn permuted into a packed row-major
output, out = x.permute(perm) made contiguous (NumPy's convention: output
dimension j is input dimension perm[j]).

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
RANK_MAX = 8


def packed(shape):
    """Row-major strides (elements) of a packed tensor of this shape."""
    out, step = [], 1
    for d in reversed(shape):
        out.insert(0, step)
        step *= d
    return tuple(out)


class _Typed:
    """What every case has from its element type."""

    def __init__(self, dtype):
        self.dtype, self.sets = dtype, []
        self.eb, self.torch_dtype, self.fill_dtype, self.geam, self.cupy = DTYPES[dtype]

    @property
    def elem_bits(self):
        return 8 * self.eb

    @property
    def moved_bytes(self):
        """Bytes read plus bytes written by one transpose (and by the copy it is measured against)."""
        return 2 * self.elements * self.eb


class Case(_Typed):
    """One parsed 2-D (or batched) case; `name` is its normalized spec (defaults left out)."""
    nd = False

    def __init__(self, rows, cols, dtype, batch=None, ld_in=None, ld_out=None, offset=0,
                 stride_in=None, stride_out=None):
        super().__init__(dtype)
        self.rows, self.cols, self.offset = rows, cols, offset
        self.batched = batch is not None
        self.batch = batch if self.batched else 1
        self.ld_in = cols if ld_in is None else ld_in
        self.ld_out = rows if ld_out is None else ld_out
        self.stride_in = self.rows * self.ld_in if stride_in is None else stride_in
        self.stride_out = self.cols * self.ld_out if stride_out is None else stride_out
        self.given = {'batch': batch, 'ld_in': ld_in, 'ld_out': ld_out, 'offset': offset or None,
                      'stride_in': stride_in, 'stride_out': stride_out}

    @property
    def name(self):
        opts = ''.join(f':{k}={self.given[k]}' for k in OPTIONS if self.given[k] is not None)
        return f'{self.rows}x{self.cols}:{self.dtype}{opts}'

    @property
    def elements(self):
        return self.batch * self.rows * self.cols

    def layout(self):
        """(input shape, input strides, perm, output shape, output strides) in elements, past
        `offset`: the transpose as a permutation, (1, 0), or (0, 2, 1) for a batch."""
        if self.batched:
            return ((self.batch, self.rows, self.cols), (self.stride_in, self.ld_in, 1), (0, 2, 1),
                    (self.batch, self.cols, self.rows), (self.stride_out, self.ld_out, 1))
        return (self.rows, self.cols), (self.ld_in, 1), (1, 0), (self.cols, self.rows), (self.ld_out, 1)

    def span(self, side, whole_rows=False):
        """Elements from the aligned base to one past the last element of the input or output;
        whole_rows: to the end of the last row's padding, as a padded view of a larger tensor
        has (the harness's buffers: ptxpose_execute itself needs only up to the last element)."""
        if side == 'in':
            one, stride, pad = (self.rows - 1) * self.ld_in + self.cols, self.stride_in, self.ld_in - self.cols
        else:
            one, stride, pad = (self.cols - 1) * self.ld_out + self.rows, self.stride_out, self.ld_out - self.rows
        return self.offset + (self.batch - 1) * stride + one + (pad if whole_rows else 0)

    def record(self):
        """The case's fields for the results JSON."""
        return {'case': self.name, 'sets': list(self.sets), 'dtype': self.dtype,
                'elem_bits': self.elem_bits, 'rows': self.rows, 'cols': self.cols,
                'batch': self.batch, 'ld_in': self.ld_in, 'ld_out': self.ld_out,
                'offset': self.offset, 'stride_in': self.stride_in,
                'stride_out': self.stride_out, 'bytes': self.moved_bytes}


class PermCase(_Typed):
    """One parsed N-d case: a packed row-major tensor permuted into a packed one."""
    nd = True
    batched = False

    def __init__(self, dims, perm, dtype, offset=0):
        super().__init__(dtype)
        self.dims, self.perm, self.offset = tuple(dims), tuple(perm), offset

    @property
    def name(self):
        return (f"{'x'.join(map(str, self.dims))}:{self.dtype}:perm={','.join(map(str, self.perm))}"
                + (f':offset={self.offset}' if self.offset else ''))

    @property
    def elements(self):
        n = 1
        for d in self.dims:
            n *= d
        return n

    def layout(self):
        out = tuple(self.dims[p] for p in self.perm)
        return self.dims, packed(self.dims), self.perm, out, packed(out)

    def span(self, side, whole_rows=False):
        return self.offset + self.elements

    def record(self):
        return {'case': self.name, 'sets': list(self.sets), 'dtype': self.dtype,
                'elem_bits': self.elem_bits, 'dims': list(self.dims), 'perm': list(self.perm),
                'offset': self.offset, 'bytes': self.moved_bytes}


def _number(spec, key, text, lo, hi):
    if not text.isdigit():
        raise CaseError(f"bad case '{spec}': {key} '{text}' is not a decimal number")
    v = int(text)
    if not lo <= v <= hi:
        raise CaseError(f"bad case '{spec}': {key} {v} is out of range {lo}..{hi}")
    return v


def parse_case(spec):
    """Parse one spec into a Case or a PermCase, or raise CaseError naming what is wrong."""
    parts = spec.split(':')
    if len(parts) < 2:
        raise CaseError(f"bad case '{spec}': want ROWSxCOLS:DTYPE[:key=N]... or D0x...xDn:DTYPE:perm=P,..., "
                        f"e.g. 8191x8193:f32")
    if parts[1] not in DTYPES:
        raise CaseError(f"bad case '{spec}': unknown type '{parts[1]}' (one of {' '.join(DTYPES)})")
    dims = parts[0].lower().split('x')
    if any(p.startswith('perm=') for p in parts[2:]):
        return _parse_nd(spec, dims, parts[1], parts[2:])
    if len(dims) != 2:
        raise CaseError(f"bad case '{spec}': shape '{parts[0]}' is not ROWSxCOLS (an N-d shape needs :perm=)")
    rows = _number(spec, 'rows', dims[0], 1, I32_MAX)
    cols = _number(spec, 'cols', dims[1], 1, I32_MAX)
    opts = {}
    for p in parts[2:]:
        key, eq, text = p.partition('=')
        if key not in OPTIONS or not eq:
            raise CaseError(f"bad case '{spec}': unknown option '{p}' (batch= ld_in= ld_out= offset= "
                            f"stride_in= stride_out=, or perm= for an N-d case)")
        if key in opts:
            raise CaseError(f"bad case '{spec}': {key} given twice")
        hi = {'offset': OFFSET_MAX, 'stride_in': I63_MAX, 'stride_out': I63_MAX}.get(key, I32_MAX)
        opts[key] = _number(spec, key, text, 0 if key == 'offset' else 1, hi)
    c = Case(rows, cols, parts[1], **opts)
    _validate(spec, c)
    return c


def _parse_nd(spec, dims, dtype, options):
    """D0x...xDn:DTYPE:perm=...[:offset=N] (options already split)."""
    if not 1 <= len(dims) <= RANK_MAX:
        raise CaseError(f"bad case '{spec}': rank {len(dims)} is out of range 1..{RANK_MAX}")
    ext = [_number(spec, f'dimension {i} extent', d, 1, I63_MAX) for i, d in enumerate(dims)]
    opts = {}
    for p in options:
        key, eq, text = p.partition('=')
        if key in OPTIONS and key != 'offset':
            raise CaseError(f"bad case '{spec}': option '{p}' does not apply to an N-d case (perm= takes only "
                            f"offset=)")
        if key not in ('perm', 'offset') or not eq:
            raise CaseError(f"bad case '{spec}': unknown option '{p}' (an N-d case takes perm= and offset=)")
        if key in opts:
            raise CaseError(f"bad case '{spec}': {key} given twice")
        opts[key] = text
    perm = opts['perm'].split(',')
    if len(perm) != len(ext):
        raise CaseError(f"bad case '{spec}': perm '{opts['perm']}' has {len(perm)} entries for {len(ext)} "
                        f"dimensions")
    perm = [_number(spec, 'perm entry', t, 0, len(ext) - 1) for t in perm]
    if sorted(perm) != list(range(len(ext))):
        raise CaseError(f"bad case '{spec}': perm '{opts['perm']}' is not a permutation of 0..{len(ext) - 1}")
    offset = _number(spec, 'offset', opts['offset'], 0, OFFSET_MAX) if 'offset' in opts else 0
    c = PermCase(ext, perm, dtype, offset)
    if c.span('in') * c.eb > I63_MAX:
        raise CaseError(f"bad case '{spec}': the tensor spans {c.span('in')} elements, over 2^63 bytes")
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
    # large square and near-square matrices, odd, wide and
    # tall ones, every width
    'mixed': _each(('16384x16384', '8192x8192', '8191x8193', '12345x6789', '4096x4096',
                     '2048x2048', '65536x4096', '4096x65536', '30000x7', '7x30000'))
    + ['32768x32768:u8'],
    # K x N and N x K, every K and width
    'skinny': _skinny(),
    # batched transposes
    'batched': ['1024x1024:f32:batch=64', '64x128:f16:batch=4096', '3x3:f32:batch=1048576'],
    # the limits of the launch: a dimension of 3 or 64, over 65535 tile rows
    'limits': _each(('3x1000003', '1000003x3', '4194304x3', '3x4194304', '2200000x1'))
    + ['64x1000000:u8', '1000000x64:u8', '40000000x8:c128'],
    # odd shapes for 1- and 2-byte elements, large regular shapes for every width
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
              '64x128:bf16:batch=16', '1000x1000:c64', '64x33x17:f32:perm=2,0,1',
              '33x31x7x5:f16:perm=3,1,0,2:offset=1'],
}
SETS['extremes'] = SETS['skinny'] + SETS['batched'] + SETS['limits']
DEFAULT_SETS = ('mixed', 'extremes', 'small-elements')

# The diverse benchmark, shapes drawn at random: `--set diverse` (seed 2026) or `--set diverse:SEED`.
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


# ---- the sets bench/judge.py judges: small matrices, tiny batches, skinny, large, a held-out set ----

def _side(n):
    return max(1, round(n ** 0.5))


def small_cases():
    """Every width, 256 KB to 32 MB a matrix: a square and a 1:8 rectangle of each size."""
    out = []
    for d in WIDTHS:
        n = [kib * 1024 // DTYPES[d][0] for kib in (256, 1024, 4096, 16384, 32768)]
        out += [f'{_side(e)}x{_side(e)}:{d}' for e in n] + [f'{_side(e / 8)}x{8 * _side(e / 8)}:{d}' for e in n]
    return out


TINY = ((3, 3), (8, 8), (16, 16), (32, 32), (64, 128))


def tiny_cases():
    """Batches of 10^3 to 10^6 tiny matrices, every width, at most 1 GiB a side."""
    return [f'{r}x{c}:{d}:batch={b}' for d in WIDTHS for r, c in TINY for b in (1000, 10000, 100000, 1000000)
            if r * c * b * DTYPES[d][0] <= 1 << 30]


SKINNY_MID_K = (9, 12, 17, 24, 48)
HOLDOUT_SEED = 22022  # the held-out set: never used to fit or tune anything
SETS.update({
    'small': small_cases(),
    'tiny': tiny_cases(),
    # K x N and N x K for the K between `skinny`'s, where narrow types lost
    'skinny-mid': [c for k in SKINNY_MID_K for c in _each((f'{k}x{SKINNY_N}', f'{SKINNY_N}x{k}'))],
    'large': _each(('8192x8192', '16384x16384', '8192x32768', '32768x8192'))
    + ['32768x32768:u8', '32768x32768:f16'],
    'holdout': diverse_cases(HOLDOUT_SEED, 200),
})


# ---- N-d permutations ---------------------------------------------------------


def _perms(pairs, dtypes, opts=''):
    """Specs of (shape, perm) pairs in every dtype."""
    return [f"{s}:{d}:perm={','.join(map(str, p))}{opts}" for d in dtypes for s, p in pairs]


def _perm_of(rng, rank):
    """A random permutation of 0..rank-1 other than the identity (rank >= 2)."""
    p = list(range(rank))
    while p == sorted(p):
        rng.shuffle(p)
    return p


def _offset(rng, eb):
    """Whole elements past a 256-byte boundary: off 16-byte alignment (but for 16-byte elements)."""
    return rng.randint(1, 16 // eb - 1) if eb < 16 else 1


MB = 1 << 20


def tn_cases(seed=21, n=24):
    """Tensor-network shapes: ranks 4, 5, 6 in turn, extents 2-64 (log-uniform), 1-256 MB,
    a random permutation, f64 c128 f32 c64 in turn."""
    rng, out = random.Random(seed), []
    types = ('f64', 'c128', 'f32', 'c64')
    for i in range(n):
        rank, dt = 4 + i % 3, types[i % len(types)]
        while True:
            dims = [min(64, max(2, int(2 ** rng.uniform(1, 6.01)))) for _ in range(rank)]
            size = DTYPES[dt][0]
            for d in dims:
                size *= d
            if MB <= size <= 256 * MB:
                break
        out.append(f"{'x'.join(map(str, dims))}:{dt}:perm={','.join(map(str, _perm_of(rng, rank)))}")
    return out


def random_perm_cases(seed=2026, n=60):
    """n distinct N-d cases, the same for the same seed, never tuned on: ranks 2-6, the five
    widths in turn, 1-256 MB (log-uniform), extents from a random split of the element count,
    a random permutation other than the identity, a fifth off alignment."""
    rng = random.Random(seed)
    offs = [True] * (n // 5) + [False] * (n - n // 5)
    rng.shuffle(offs)
    out, seen = [], set()
    for i in range(n):
        dt = WIDTHS[i % len(WIDTHS)]
        eb = DTYPES[dt][0]
        while True:
            rank = rng.randint(2, 6)
            bits = rng.uniform(20, 28) - (eb.bit_length() - 1)  # log2 of the element count
            w = [rng.random() + 0.05 for _ in range(rank)]
            dims = [max(1, round(2 ** (bits * x / sum(w)) * rng.uniform(0.8, 1.25))) for x in w]
            size = eb
            for d in dims:
                size *= d
            spec = f"{'x'.join(map(str, dims))}:{dt}:perm={','.join(map(str, _perm_of(rng, rank)))}"
            if offs[i]:
                spec += f':offset={_offset(rng, eb)}'
            if MB <= size <= 256 * MB and spec not in seen:
                break
        seen.add(spec)
        out.append(spec)
    return out


# attention's [B,S,H,D] <-> [B,H,S,D], and NCHW <-> NHWC, at the sizes networks run
DL = ([(s, (0, 2, 1, 3)) for s in ('8x2048x16x128', '8x16x2048x128')],
      [('32x256x56x56', (0, 2, 3, 1)), ('64x64x112x112', (0, 2, 3, 1)),
       ('32x56x56x256', (0, 3, 1, 2)), ('64x112x112x64', (0, 3, 1, 2))])
ODD = [('127x129x131', (2, 0, 1)), ('1001x3x997', (1, 2, 0)), ('3x5x7x11x13x17', (5, 3, 1, 0, 2, 4)),
       ('33x4097x65', (0, 2, 1)), ('257x255x3x129', (3, 1, 2, 0))]
SETS.update({
    'permute-dl': _perms(DL[0], ('f16', 'bf16', 'f32')) + _perms(DL[1], ('f16', 'f32', 'u8')),
    'permute-3d': _perms([(s, p) for p in ((2, 1, 0), (1, 0, 2), (0, 2, 1))
                          for s in ('256x256x256', '1024x1024x8', '8x1024x1024')], WIDTHS),
    'permute-tn': tn_cases(),
    # odd extents with both pointers one element off alignment; a permutation that is a copy
    # once merged, extents of 1, and a rank-2 case beside the 2-D ones
    'permute-odd': _perms(ODD, WIDTHS, ':offset=1')
    + ['3x5x7:f32:perm=0,1,2', '1x4097x1x4095:f16:perm=3,2,1,0', '4097x4095:u8:perm=1,0:offset=3'],
    'permute-random': random_perm_cases(),
})
SEEDED = {'diverse': diverse_cases, 'permute-random': random_perm_cases}


def _named(name):
    """The specs of a set name: one of SETS, or diverse:SEED, permute-random:SEED."""
    base, _, seed = name.partition(':')
    if base in SEEDED and seed.isdigit():
        return SEEDED[base](int(seed))
    if name not in SETS:
        raise CaseError(f"unknown set '{name}' (one of {' '.join(SETS)}, diverse:SEED, permute-random:SEED)")
    return SETS[name]


def expand(set_names, specs):
    """The cases of the named sets, then the specs, each once (first place kept, all sets noted)."""
    out, seen = [], {}
    todo = []
    for s in set_names:
        todo += [(spec, s) for spec in _named(s)]
    todo += [(spec, 'cli') for spec in specs]
    for spec, s in todo:
        c = parse_case(spec)
        if c.name not in seen:
            seen[c.name] = c
            out.append(c)
        if s not in seen[c.name].sets:
            seen[c.name].sets.append(s)
    return out
