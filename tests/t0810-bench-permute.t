#!/usr/bin/env python3
# t0810-bench-permute: bench/peers.py's N-d permutation cases and its cuTENSOR
# peer, without a GPU. The case syntax D0x...xDn:DTYPE:perm=...[:offset=N]
# (hand-worked layouts, one-line errors naming the bad token, exit 2), the
# named permute-* sets (sizes, ranks, seeds); cuTENSOR's tensor descriptors
# for 2-D, padded, batched and N-d cases, checked by hand and by replaying
# them element by element against a naive permutation; the calls made through
# a stand-in libcutensor (descriptors, modes, compute type and its fallback,
# alpha of the scalar type, plan, the timed call on the harness's stream,
# errors, nothing leaked); n/a for 1-byte types and without the library;
# ptxpose's N-d entry (n/a until the package has ptxpose.permute); pick.py
# and the report's columns with N-d and cuTENSOR entries.
import ctypes
import itertools
import json
import os
import random
import re
import subprocess
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok, scratch, raises  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, 'bench'))
import peers_cases as pc  # noqa: E402
import peers_cutensor as pct  # noqa: E402
import peers_impls  # noqa: E402
import peers_model as pm  # noqa: E402

tmp = scratch('t0810')


def run(*args):
    p = subprocess.run([sys.executable, '-B', *args], capture_output=True, text=True, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr


# ---- the N-d case syntax -----------------------------------------------------
c = pc.parse_case('2x3x4:f32:offset=2:perm=2,0,1')
ok(c.nd and c.name == '2x3x4:f32:perm=2,0,1:offset=2' and c.layout() == ((2, 3, 4), (12, 4, 1), (2, 0, 1),
                                                                         (4, 2, 3), (6, 3, 1)),
   'an N-d spec parses: packed row-major in and out, output dimension j is input dimension perm[j]; name normalized',
   (c.name, c.layout()))
ok((c.span('in'), c.span('out'), c.moved_bytes, c.elem_bits) == (26, 26, 2 * 24 * 4, 32),
   'its spans (offset + elements) and bytes moved')
ok(c.record() == {'case': '2x3x4:f32:perm=2,0,1:offset=2', 'sets': [], 'dtype': 'f32', 'elem_bits': 32,
                  'dims': [2, 3, 4], 'perm': [2, 0, 1], 'offset': 2, 'bytes': 192}, 'its record for the results')
ok(pc.parse_case('7:u8:perm=0').layout() == ((7,), (1,), (0,), (7,), (1,))
   and pc.parse_case('4097x4095:u8:perm=1,0').nd and not pc.parse_case('4097x4095:u8').nd,
   'rank 1 parses; a 2-dimension shape with perm= is an N-d case, without it the 2-D one')
ok(pc.parse_case('5x7:f32:ld_in=9:batch=2').layout() == ((2, 5, 7), (45, 9, 1), (0, 2, 1), (2, 7, 5), (35, 5, 1))
   and pc.parse_case('5x7:f32:ld_out=6').layout() == ((5, 7), (7, 1), (1, 0), (7, 5), (6, 1)),
   'a 2-D case as a permutation: (1, 0), or (0, 2, 1) for a batch, with its leading dimensions and strides')
bad = {
    '2x3x4:f32': "shape '2x3x4' is not ROWSxCOLS .an N-d shape needs :perm=",
    '2x3x4:f32:perm=0,1': "perm '0,1' has 2 entries for 3 dimensions",
    '2x3x4:f32:perm=0,0,1': "perm '0,0,1' is not a permutation of 0..2",
    '2x3x4:f32:perm=0,1,x': "perm entry 'x' is not a decimal number",
    '2x3x4:f32:perm=0,1,3': 'perm entry 3 is out of range 0..2',
    '2x3x4:f32:perm=': "perm '' has 1 entries for 3 dimensions",
    '3:f32:perm=': "perm entry '' is not a decimal number",
    '2x0x4:f32:perm=0,1,2': 'dimension 1 extent 0 is out of range',
    '2xax4:f32:perm=0,1,2': "dimension 1 extent 'a' is not a decimal number",
    '2x3x4:f32:perm=0,1,2:ld_in=5': "option 'ld_in=5' does not apply to an N-d case",
    '2x3x4:f32:perm=0,1,2:batch=2': "option 'batch=2' does not apply to an N-d case",
    '2x3x4:f32:perm=0,1,2:foo=1': "unknown option 'foo=1' .an N-d case takes perm= and offset=",
    '2x3x4:f32:perm=0,1,2:perm=0,1,2': 'perm given twice',
    '2x3x4:f32:perm=0,1,2:offset=16': 'offset 16 is out of range 0..15',
    '2x3x4:f64x:perm=0,1,2': "unknown type 'f64x'",
    '1x1x1x1x1x1x1x1x1:u8:perm=0,1,2,3,4,5,6,7,8': 'rank 9 is out of range 1..8',
    '4294967296x4294967296:c128:perm=1,0': 'spans 18446744073709551616 elements, over 2.63 bytes',
}
for spec, why in bad.items():
    raises(lambda: pc.parse_case(spec), pc.CaseError, f"^bad case '{re.escape(spec)}': [^\n]*{why}[^\n]*$",
           f"'{spec}' is refused, one line naming the token")
rc, out, err = run('bench/peers.py', '2x3x4:f32:perm=0,0,1')
ok(rc == 2 and err.strip() == "peers.py: bad case '2x3x4:f32:perm=0,0,1': perm '0,0,1' is not a permutation of 0..2",
   'peers.py: a bad N-d case is one line naming it, exit 2', f'exit {rc}: {err}')

# ---- the named N-d sets ------------------------------------------------------
sizes = {}
for name in ('permute-dl', 'permute-3d', 'permute-tn', 'permute-odd', 'permute-random'):
    cases = pc.expand([name], [])
    sizes[name] = cases
    ok(len(cases) == len(pc.SETS[name]) and all(x.nd for x in cases), f'set {name}: {len(cases)} N-d cases, none twice')
dl = {x.name for x in sizes['permute-dl']}
ok({'8x2048x16x128:f16:perm=0,2,1,3', '8x2048x16x128:bf16:perm=0,2,1,3', '8x2048x16x128:f32:perm=0,2,1,3',
    '32x256x56x56:u8:perm=0,2,3,1', '64x112x112x64:f32:perm=0,3,1,2'} <= dl and len(dl) == 18,
   'permute-dl: attention (0,2,1,3) in f16 bf16 f32, NCHW<->NHWC in f16 f32 u8', sorted(dl)[:4])
d3 = sizes['permute-3d']
ok({x.perm for x in d3} == {(2, 1, 0), (1, 0, 2), (0, 2, 1)} and {x.dtype for x in d3} == set(pc.WIDTHS),
   'permute-3d: (2,1,0), (1,0,2), (0,2,1) in every width')
tn = sizes['permute-tn']
ok(all(4 <= len(x.dims) <= 6 and all(2 <= d <= 64 for d in x.dims) and list(x.perm) != sorted(x.perm)
       and 2**20 <= x.moved_bytes // 2 <= 2**28 for x in tn) and {len(x.dims) for x in tn} == {4, 5, 6},
   'permute-tn: ranks 4-6, extents 2-64, 1-256 MB, no identity', [x.name for x in tn[:3]])
odd = sizes['permute-odd']
ok(sum(x.offset == 1 for x in odd) >= 25 and any(x.perm == (0, 1, 2) for x in odd),
   'permute-odd: odd extents one element off alignment, and a permutation that is a copy')
rnd = sizes['permute-random']
ok(all(2 <= len(x.dims) <= 6 and 2**20 <= x.moved_bytes // 2 <= 2**28 and list(x.perm) != sorted(x.perm) for x in rnd)
   and {x.eb for x in rnd} == {1, 2, 4, 8, 16} and {len(x.dims) for x in rnd} == {2, 3, 4, 5, 6}
   and len(rnd) == 60 and sum(x.offset > 0 for x in rnd) == 12,
   'permute-random: 60 cases, ranks 2-6, widths 1-16 bytes, 1-256 MB, no identity, a fifth off alignment')
again = [x.name for x in pc.expand(['permute-random:2026'], [])]
other = [x.name for x in pc.expand(['permute-random:7'], [])]
ok(again == [x.name for x in rnd] and other != again and len(set(other)) == 60,
   'permute-random is the same for the same seed (permute-random:SEED draws another)')

# ---- cuTENSOR's descriptors ----------------------------------------------------
cases = {  # spec: (A extents, strides, modes), (B ...), data type, computes (hand-worked)
    '5x7:f32': (((7, 5), (1, 7), (1, 0)), ((5, 7), (1, 5), (0, 1)), pct.R_32F, ('32F',)),
    '5x7:f16:ld_in=9:ld_out=6:offset=1': (((7, 5), (1, 9), (1, 0)), ((5, 7), (1, 6), (0, 1)), pct.R_16F,
                                          ('16F', '32F')),
    '3x4:c128:batch=2:stride_in=20:stride_out=30': (((4, 3, 2), (1, 4, 20), (2, 1, 0)),
                                                    ((3, 4, 2), (1, 3, 30), (1, 2, 0)), pct.C_64F, ('64F',)),
    '2x3x4:i32:perm=2,0,1': (((4, 3, 2), (1, 4, 12), (2, 1, 0)), ((3, 2, 4), (1, 3, 6), (1, 0, 2)), pct.R_32F, ('32F',)),
    '8x16x32x64:bf16:perm=0,2,1,3': (((64, 32, 16, 8), (1, 64, 2048, 32768), (3, 2, 1, 0)),
                                     ((64, 16, 32, 8), (1, 64, 1024, 32768), (3, 1, 2, 0)), pct.R_16BF, ('16BF', '32F')),
}
for spec, (a, b, dt, comp) in cases.items():
    args, why = pct.permute_args(pc.parse_case(spec))
    ok(args is not None and (args.a, args.b, args.dtype, args.computes) == (a, b, dt, comp),
       f'cutensor {spec}: fastest mode first, explicit strides, input dimension i is mode i, output j is mode perm[j]',
       why or (args.a, args.b, args.dtype, args.computes))
ok([pct.permute_args(pc.parse_case(s))[0].dtype for s in ('3x3:i16', '3x3:i64', '3x3:c64')] == [pct.R_16F, pct.R_64F,
                                                                                                pct.C_32F],
   'cutensor: integer types move as the float type of their width, c64 as C_32F')
for spec in ('4x5:u8', '2x3x4:i8:perm=1,2,0'):
    args, why = pct.permute_args(pc.parse_case(spec))
    ok(args is None and why.startswith('cuTENSOR has no permutation of 1-byte'), f'cutensor {spec}: n/a ({why})')


def replay(case, args):
    """out[] as cuTENSOR's descriptors say: B at its offset gets A at its offset, for every index of every mode."""
    (ea, sa, ma), (eb, sb, mb) = args.a, args.b
    ext = dict(zip(ma, ea))
    ok_modes = ext == dict(zip(mb, eb))
    labels = sorted(ext)
    out = {}
    for idx in itertools.product(*(range(ext[m]) for m in labels)):
        at = dict(zip(labels, idx))
        out[sum(at[m] * s for m, s in zip(mb, sb))] = sum(at[m] * s for m, s in zip(ma, sa))
    return ok_modes, out


def naive(case):
    """out[] of a naive row-major permutation: output position -> input position (offsets in elements)."""
    shape_in, st_in, perm, shape_out, st_out = case.layout()
    out = {}
    for j in itertools.product(*(range(d) for d in shape_out)):
        i = [0] * len(perm)
        for k, p in enumerate(perm):
            i[p] = j[k]
        out[sum(a * s for a, s in zip(j, st_out))] = sum(a * s for a, s in zip(i, st_in))
    return out


rng = random.Random(5)
specs = ['5x7:f32', '5x7:f64:ld_in=9:ld_out=6', '3x4:f32:batch=3:stride_in=13:stride_out=14', '1x9:f16']
for _ in range(12):
    r = rng.randint(1, 6)
    p = list(range(r))
    rng.shuffle(p)
    specs.append(f"{'x'.join(str(rng.randint(1, 4)) for _ in range(r))}:c64:perm={','.join(map(str, p))}")
bad_specs = [s for s in specs if (lambda x: replay(x, pct.permute_args(x)[0]) != (True, naive(x)))(pc.parse_case(s))]
ok(not bad_specs, f'cutensor: the descriptors of {len(specs)} cases (2-D, padded, batched, ranks 1-6) move every '
   'element where a naive permutation does', bad_specs)

# ---- the calls, through a stand-in libcutensor -------------------------------
calls = []  # (function, args)
NOT_SUPPORTED = set()  # compute descriptors the stand-in refuses


class FakeCutensor:
    CUTENSOR_COMPUTE_DESC_16F, CUTENSOR_COMPUTE_DESC_16BF = 0x16F, 0x16BF
    CUTENSOR_COMPUTE_DESC_32F, CUTENSOR_COMPUTE_DESC_64F = 0x32F, 0x64F

    def __init__(self, fail=None, scalar=pct.R_32F):
        self.fail, self.scalar, self.next = fail or {}, scalar, 0x100
        for name in pct.SIGNATURES:
            setattr(self, name, self._fn(name))
        self.cutensorGetVersion = lambda: 20801
        self.cutensorGetErrorString = lambda status: b'CUTENSOR_STATUS_NOT_SUPPORTED'

    def _fn(self, name):
        def f(*args):
            calls.append((name, args))
            if name == 'cutensorCreate':
                args[0]._obj.value = 0x1234
            elif name == 'cutensorCreatePermutation' and args[-1].value in NOT_SUPPORTED:
                return 15  # CUTENSOR_STATUS_NOT_SUPPORTED
            elif name.startswith('cutensorCreate') and name not in self.fail:
                self.next += 0x10  # the object it makes, written through its pointer
                args[1]._obj.value = self.next
            if name == 'cutensorOperationDescriptorGetAttribute':
                ctypes.cast(args[3], ctypes.POINTER(ctypes.c_int))[0] = self.scalar
            return self.fail.get(name, 0)
        f.argtypes = f.restype = None
        return f


def named(name):
    return [a for f, a in calls if f == name]


lib = FakeCutensor()
h = pct.Handle(lib)
ok(h.version == '2.8.1' and h.h.value == 0x1234 and [f for f, _ in calls] == ['cutensorCreate'],
   'cutensor: a handle of its own; the version from cutensorGetVersion', (h.version, calls))
x_ptr, y_ptr, stream = 0x7000_0000, 0x9000_0004, 0x5000
calls.clear()
case = pc.parse_case('2x3x4:f32:perm=2,0,1:offset=1')
args = pct.permute_args(case)[0]
fn = h.permute(args, x_ptr, y_ptr, stream)
descs = named('cutensorCreateTensorDescriptor')
got = [(d[2], list(d[3][:d[2]]), list(d[4][:d[2]]), d[5], d[6]) for d in descs]
ok(got == [(3, [4, 3, 2], [1, 4, 12], pct.R_32F, 256), (3, [3, 2, 4], [1, 3, 6], pct.R_32F, 4)],
   'cutensor: two tensor descriptors, extents and strides as worked out, the alignment each pointer has', got)
perm_calls = named('cutensorCreatePermutation')
pa = perm_calls[0] if perm_calls else None
ok(pa and list(pa[3][:3]) == [2, 1, 0] and pa[4] == pct.OP_IDENTITY and list(pa[6][:3]) == [1, 0, 2]
   and pa[7].value == 0x32F and pa[2].value == descs[0][1]._obj.value and pa[5].value == descs[1][1]._obj.value,
   'cutensor: cutensorCreatePermutation(A, modes, IDENTITY, B, modes, COMPUTE_DESC_32F)', pa)
pref = named('cutensorCreatePlanPreference')
plan = named('cutensorCreatePlan')
ok(pref and pref[0][2:] == (pct.ALGO_DEFAULT, pct.JIT_MODE_NONE) and plan and plan[0][4] == 0
   and plan[0][2].value == pa[1]._obj.value,
   'cutensor: a plan preference (default algorithm, no JIT) and a plan of no workspace', (pref, plan))
calls.clear()
fn()
ok([f for f, _ in calls] == ['cutensorPermute'] and calls[0][1][0].value == 0x1234
   and calls[0][1][1].value == plan[0][1]._obj.value and calls[0][1][2] == ctypes.addressof(fn.alpha)
   and fn.alpha.value == 1.0 and [a.value for a in calls[0][1][3:]] == [x_ptr, y_ptr, stream],
   "cutensor: the timed call is cutensorPermute alone, alpha 1 on the host, x to y on the harness's stream", calls)
for scalar, want in ((pct.R_64F, [1.0]), (pct.C_64F, [1.0, 0.0]), (pct.R_16F, [0x3C00]), (pct.R_16BF, [0x3F80])):
    lib.scalar = scalar
    f2 = h.permute(args, x_ptr, y_ptr, stream)
    got = list(f2.alpha) if isinstance(f2.alpha, ctypes.Array) else [f2.alpha.value]
    ok(got == want, f'cutensor: alpha is 1 in the scalar type the operation reports ({pct.TYPE_NAMES[scalar]})', got)
lib.scalar = pct.R_32F
calls.clear()
NOT_SUPPORTED.add(0x16F)
f3 = h.permute(pct.permute_args(pc.parse_case('64x33:f16'))[0], x_ptr, y_ptr, stream)
ok([a[7].value for a in named('cutensorCreatePermutation')] == [0x16F, 0x32F] and f3.compute == '32F',
   'cutensor: f16 asks for COMPUTE_DESC_16F, and takes 32F where that is refused', calls[:6])
NOT_SUPPORTED.clear()
calls.clear()
bad = pct.Handle(FakeCutensor(fail={'cutensorCreatePlan': 15}))
calls.clear()
raises(lambda: bad.permute(args, x_ptr, y_ptr, stream), pct.CutensorError,
       r'^cutensorCreatePlan: CUTENSOR_STATUS_NOT_SUPPORTED \(15\)$', 'cutensor: a failed status is an error naming it')
made = [a[1]._obj.value for f, a in calls if f.startswith('cutensorCreate') and f != 'cutensorCreatePlan']
freed = [a[0].value for f, a in calls if f.startswith('cutensorDestroy')]
ok(sorted(made) == sorted(freed) and len(made) == 4 and not bad.plans,
   'cutensor: a plan that fails frees what it made (two descriptors, the operation, the preference)', (made, freed))
calls.clear()
h.close()
ok(len(named('cutensorDestroyPlan')) == 6 and named('cutensorDestroy')[0][0].value == 0x1234 and not h.h,
   'cutensor: close frees every plan, then the handle', [f for f, _ in calls])
ok(pct.alignment(0x7000_0000) == 256 and pct.alignment(0x7000_0008) == 8 and pct.alignment(0x7000_0002) == 2,
   'cutensor: the alignment promised is what the pointer has, at most 256')

# ---- loading, and n/a ----------------------------------------------------------
opened = []


def fake_dll(name, mode=0):
    opened.append((name, mode))
    if name == 'lt-ok':
        return 'lt'
    raise OSError(f'{name}: cannot open shared object file: No such file or directory')


old = os.environ.pop('PTXPOSE_CUTENSOR', None)
gone = os.path.join(tmp, 'none', 'libcutensor.so.2')  # a path that does not exist
e = raises(lambda: pct.load_library([gone], ['lt-missing', 'lt-ok'], fake_dll), OSError,
           r'^no libcutensor could be loaded \(\$PTXPOSE_CUTENSOR is not set; ' + re.escape(gone) + ': cannot open',
           'cutensor: no library is an OSError of one line')
ok(e is not None and '\n' not in str(e) and opened == [('lt-missing', ctypes.RTLD_GLOBAL), ('lt-ok', ctypes.RTLD_GLOBAL),
                                                       (gone, ctypes.RTLD_GLOBAL)],
   'cutensor: libcublasLt.so.13 is loaded first, RTLD_GLOBAL, then libcutensor', opened)
os.environ['PTXPOSE_CUTENSOR'] = os.path.join(tmp, 'libcutensor.so.2')
ok(pct.library_candidates()[0] == os.path.join(tmp, 'libcutensor.so.2') and pct.library_candidates()[-1] ==
   'libcutensor.so.2', 'cutensor: $PTXPOSE_CUTENSOR first, the soname last')
env = types.SimpleNamespace(cutensor=None, stream=0x5000)
buf = types.SimpleNamespace(x=None, y=None, perm=(1, 0))
raises(lambda: peers_impls.setup_cutensor(env, pc.parse_case('64x64:f32'), buf), peers_impls.NotApplicable,
       r'^no libcutensor could be loaded \(', 'cutensor: without the library the peer is n/a, with the reason')
raises(lambda: peers_impls.setup_cutensor(env, pc.parse_case('64x64:u8'), buf), peers_impls.NotApplicable,
       r'^cuTENSOR has no permutation of 1-byte \(u8\) elements$', 'cutensor: 1-byte types are n/a')
if old is None:
    del os.environ['PTXPOSE_CUTENSOR']
else:
    os.environ['PTXPOSE_CUTENSOR'] = old
env.cutensor = pct.Handle(FakeCutensor())
buf = types.SimpleNamespace(x=types.SimpleNamespace(data_ptr=lambda: 0x7000_0000),
                            y=types.SimpleNamespace(data_ptr=lambda: 0x9000_0000), perm=(0, 2, 1))
(label, fn, note), = peers_impls.setup_cutensor(env, pc.parse_case('3x4:f64:batch=2'), buf)
env2 = types.SimpleNamespace(cutensor=pct.Handle(FakeCutensor(fail={'cutensorCreatePlan': 15})), stream=0x5000)
raises(lambda: peers_impls.setup_cutensor(env2, pc.parse_case('3x4:f64:batch=2'), buf), peers_impls.NotApplicable,
       r'^cutensorCreatePlan: CUTENSOR_STATUS_NOT_SUPPORTED \(15\)$', 'cutensor: a case it will not plan is n/a')
env2.cutensor = pct.Handle(FakeCutensor(fail={'cutensorCreatePlan': 7}))
raises(lambda: peers_impls.setup_cutensor(env2, pc.parse_case('3x4:f64:batch=2'), buf), pct.CutensorError,
       r'^cutensorCreatePlan: .*\(7\)$', 'cutensor: any other failed status is an error')
ok(label == 'cutensor' and note.startswith('cutensorPermute through ctypes, libcutensor 2.8.1: R_64F, A extents [4, 3, 2]')
   and note.endswith('compute 64F (alpha 1 on finite values: exact)'), f'cutensor: the note says how and which library: {note}')

# ---- the other implementations on N-d cases --------------------------------------
nd = pc.parse_case('2x3x4:f32:perm=2,0,1')
for setup, why in ((peers_impls.setup_triton, 'the Triton peer is a 2-D'), (peers_impls.setup_cublas_geam,
                                                                            'cuBLAS geam is a 2-D transpose')):
    raises(lambda: setup(types.SimpleNamespace(), nd, buf), peers_impls.NotApplicable, why,
           f'{setup.__name__}: n/a on an N-d case')
nopermute = types.ModuleType('ptxpose')
env = types.SimpleNamespace(need=lambda name: nopermute, stream=0x5000)
raises(lambda: peers_impls.setup_ptxpose_permute(env, nd, buf, 'ptxpose-heuristic', {}), peers_impls.NotApplicable,
       r'^ptxpose.permute is not in this build$', 'ptxpose on an N-d case: n/a until the package has ptxpose.permute')
got = []
onecall = types.ModuleType('ptxpose')
onecall.Plan = lambda x, out=None, mode='heuristic', kernel=None: None
onecall.permute = lambda x, perm, out, stream=None: got.append((x, perm, out, stream))
env.need = lambda name: onecall
buf = types.SimpleNamespace(x='X', y='Y', perm=(2, 0, 1))
(label, fn, note), = peers_impls.setup_ptxpose_permute(env, nd, buf, 'ptxpose-heuristic', {})
fn()
ok(got == [('X', [2, 0, 1], 'Y', 0x5000)] and 'ptxpose.permute(x, perm, out, stream)' in note,
   "ptxpose on an N-d case: ptxpose.permute(x, perm, out, stream=the harness's) where Plan takes no perm", got)
raises(lambda: peers_impls.setup_ptxpose_permute(env, nd, buf, 'ptxpose-measured', {}, mode='measure'),
       peers_impls.NotApplicable, 'takes no perm=', '... and the measured plan is n/a then')
planned = []


class PermPlan:
    def __init__(self, x, out=None, *, mode='heuristic', kernel=None, perm=None):
        planned.append((x, out, mode, perm))
        self.info = types.SimpleNamespace(kernel='k_b32', grid=(1, 2, 3), block=(32, 8, 1), timed=2, from_cache=False,
                                          measure_ms=1.0)

    def execute(self, x, out, stream):
        planned.append(('execute', x, out, stream))


onecall.Plan = PermPlan
(label, fn, note), = peers_impls.setup_ptxpose_permute(env, nd, buf, 'ptxpose-measured', {}, mode='measure')
fn()
ok(planned == [('X', 'Y', 'measure', [2, 0, 1]), ('execute', 'X', 'Y', 0x5000)] and note.startswith('k_b32: grid 1x2x3'),
   'ptxpose on an N-d case: Plan(x, y, perm=...) where Plan takes perm=, executed on the stream', planned)

# ---- dry run, pick.py and the report's columns ---------------------------------
rc, out, err = run('bench/peers.py', '--dry-run', '2x3x4:f32:perm=2,0,1', '4x5:u8')
ok(rc == 0 and out.splitlines()[:4] == [
    '2x3x4:f32:perm=2,0,1  (cli; 192 bytes moved)',
    '  cublas_geam: n/a (cuBLAS geam is a 2-D transpose, not an N-d permutation)',
    '  cutensor: R_32F, A extents [4, 3, 2] strides [1, 4, 12] modes [2, 1, 0], B extents [3, 2, 4] strides [1, 3, 6] '
    'modes [1, 0, 2], compute 32F',
    '  ptxpose: ptxpose.permute (Plan(x, y, perm=...) where it takes perm=), heuristic and measured']
   and '  cutensor: n/a (cuTENSOR has no permutation of 1-byte (u8) elements)' in out,
   "--dry-run: an N-d case's cuTENSOR descriptors, no GPU", out + err)
sys.path.insert(0, os.path.join(ROOT, 'bench'))
import pick  # noqa: E402
res = {'cases': [dict(nd.record(), impls={'copy': {'status': 'ok', 'us': 1.0}})], 'device': {'name': 'x'}}
pick.add_picks(res, os.path.join(tmp, 'no-ptxpose'))
ok(res['cases'][0]['impls'][pick.PICK] == {'status': 'n/a', 'note': 'ptxpose plan takes 2-D problems only',
                                           'fitted': False}, 'pick.py: an N-d case gets an n/a pick, no plan run')
import fit_data  # noqa: E402
fitted, _ = fit_data.load_json('nd.json', {'format': 'ptxpose-peers 1', 'device': {'name': 'x'}, 'cases': [
    {'case': '64x32:f32', 'impls': {'ptxpose:k_b32': {'status': 'ok', 'us': 2.0}}},
    dict(nd.record(), impls={'ptxpose-heuristic': {'status': 'n/a'}})]})
ok([(c.rows, c.times) for c in fitted] == [(64, {'k_b32': 2.0})], 'fit_data.py: the N-d cases of results are left out',
   fitted)
old_res = [{'impls': {p: {} for p in ('torch', 'cupy', 'cublas_geam', 'triton')}}]
ok(pm.columns(old_res) == ['torch', 'cupy', 'cublas_geam', 'triton', pm.BEST]
   and pm.columns(old_res + [{'impls': {'cutensor': {}}}])[4] == 'cutensor',
   'report: a cutensor column only where a case has a cutensor entry (older results keep their columns)')


def entry(us):
    return {'status': 'ok', 'us': us, 'GBps': 1.0, 'timing': 'graph', 'note': ''}


na = {'status': 'n/a', 'note': 'why'}
base = json.load(open(os.path.join(ROOT, 'tests', 'data', 'peers-test-a.json')))
two_d = dict(base['cases'][0])
two_d['impls'] = dict(two_d['impls'], cutensor=entry(90))
ndrec = dict(pc.parse_case('8x2048x16x128:f16:perm=0,2,1,3').record(), sets=['permute-dl'], calls=10, replays=30)
ndrec['impls'] = {'copy': entry(100), 'torch': entry(200), 'cupy': entry(250), 'cublas_geam': na, 'triton': na,
                  'cutensor': entry(125), 'ptxpose-heuristic': dict(na, path='package'),
                  'ptxpose-measured': dict(na, path='package')}
for c in (two_d, ndrec):
    pm.fill_derived(c['impls'])
res = dict(base, cases=[two_d, ndrec], versions=dict(base['versions'], cutensor='2.8.1'))
with open(os.path.join(tmp, 'nd.json'), 'w') as f:
    json.dump(res, f)
rc, out, err = run('bench/report.py', '--out', os.path.join(tmp, 'rep'), os.path.join(tmp, 'nd.json'))
md = open(os.path.join(tmp, 'rep', 'nvidia-test-gpu', 'side-by-side.md')).read() if rc == 0 else err
rows = [line for line in md.splitlines() if line.startswith('| 8x2048x16x128:f16:perm=0,2,1,3 |')]
ok(rc == 0 and '| case | copy GB/s | torch | cupy | cublas_geam | triton | cutensor | ptxpose best |' in md
   and rows and rows[0].startswith('| 8x2048x16x128:f16:perm=0,2,1,3 | 1 | 50.0 | 40.0 | n/a | n/a | 80.0 | — |')
   and '| cutensor |' in rows[0] and 'the best peer is the fastest of torch, cupy, cublas_geam, triton, cutensor' in md
   and 'cutensor 2.8.1' in md, 'report: an N-d case and a cutensor column; cuTENSOR wins the N-d case as the best peer',
   (rows, md[:1500]))
finish()
