#!/usr/bin/env python3
# t0800-bench-report: the side-by-side harness and its report, without a GPU.
# bench/peers.py: case specs and named sets (and their old names), PTX
# metadata and refused PTX (ptxpose itself is timed through its package), one-line errors and exit codes,
# that it needs no torch until it measures, cuBLAS geam through ctypes (with a
# stand-in for libcublas: the call's arguments, the handle, the library
# search), and (with a stand-in for Triton where Triton is absent) the Triton
# peer's sweep (configs that fit shared memory, a refused launch n/a, not a
# failure), grid and parameters; the commit a run records (git HEAD, -dirty
# when ptx/ or bench/ differ; the binary's, then unknown). bench/report.py: from canned
# results (tests/data/peers-*.json, figures chosen so that every ratio is
# computed by hand here), the Markdown's ratios and geometric means, the CSV,
# the per-device folders, and the SVG chart: every value printed, no bar past
# the plot, legend names equal to the table's columns, warm-L2 note, split
# charts for a large set, titles with every run's date; each run's options and
# the noise sentence in the method paragraph. bench/pick.py (with a stand-in
# ptxpose): the pick, the ptxpose and model that picked, which cases the model
# was fitted on; and in the report the pick's kernel, its geometric means, pick
# / oracle (within 3%, worst) and the figures over the cases not fitted on, and
# a tie that the pick does not win.
import contextlib
import json
import lzma
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True  # no __pycache__ left in bench/
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(ROOT)
sys.path.insert(0, os.path.join(ROOT, 'bench'))
SVG = '{http://www.w3.org/2000/svg}'
n = fails = 0


def ok(cond, desc, diag=''):
    global n, fails
    n += 1
    if not cond:
        fails += 1
    print(f"{'ok' if cond else 'not ok'} {n} - {desc}")
    if not cond and diag:
        print('\n'.join('# ' + line for line in str(diag).splitlines()))


def run(*args):
    p = subprocess.run([sys.executable, '-B', *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def one_line_error(desc, args, code, pattern):
    rc, out, err = run(*args)
    lines = err.strip().splitlines()
    ok(rc == code and len(lines) == 1 and re.search(pattern, err), desc, f'exit {rc}, stderr:\n{err}')


import peers_cases as pc  # noqa: E402
import peers_ptx as pp  # noqa: E402

tmp = tempfile.mkdtemp(prefix='t0800.')

# ---- case specs ------------------------------------------------------------
c = pc.parse_case('33x31:i32:offset=1:batch=3:stride_out=1100:ld_in=40')
ok((c.rows, c.cols, c.batch, c.ld_in, c.ld_out, c.offset, c.stride_in, c.stride_out, c.eb)
   == (33, 31, 3, 40, 33, 1, 33 * 40, 1100, 4), 'a spec with options parses, defaults filled in')
ok(c.name == '33x31:i32:batch=3:ld_in=40:offset=1:stride_out=1100', 'the name is normalized (option order, defaults left out)', c.name)
ok(c.moved_bytes == 2 * 3 * 33 * 31 * 4, 'bytes moved: read + written, every matrix')
ok(c.span('in') == 1 + 2 * 1320 + 32 * 40 + 31 and c.span('out') == 1 + 2 * 1100 + 30 * 33 + 33,
   'the spans cover offset, batch strides and the last row')
ok(c.span('in', whole_rows=True) == c.span('in') + 40 - 31 and c.span('out', whole_rows=True) == c.span('out'),
   "the harness's buffers: to the last row's end, its padding included (as a padded view has)")
c = pc.parse_case('8191x8193:c128')
ok((c.batch, c.batched, c.ld_in, c.ld_out, c.geam, c.elem_bits) == (1, False, 8193, 8191, 'zgeam', 128),
   'a plain spec: one matrix, packed, 16-byte geam')
ok(pc.parse_case('3x3:f32:batch=1').batched, 'batch=1 given is a batched (3-D) case')
bad = {
    '100:f32': 'not ROWSxCOLS', '100x:f32': "cols '' is not", '0x5:f32': 'rows 0 is out of range',
    '5x5': 'want ROWSxCOLS:DTYPE', '5x5:f128': "unknown type 'f128'", '5x5:f32:ld=7': "unknown option 'ld=7'",
    '5x5:f32:ld_in=4': 'ld_in 4 is less than cols 5', '5x5:f32:ld_out=4': 'ld_out 4 is less than rows 5',
    '5x5:f32:offset=16': 'offset 16 is out of range 0..15', '5x5:f32:batch=0': 'batch 0 is out of range',
    '5x5:f32:batch=2:stride_in=24': 'stride_in 24 is less than the input matrix .25 elements',
    '5x5:f32:batch=2:stride_out=7': 'stride_out 7 is less than the output matrix',
    '5x5:f32:stride_in=30': 'a stride needs batch', '5x5:f32:batch=2:batch=3': 'batch given twice',
    '2147483648x1:u8': 'rows 2147483648 is out of range',
    '2147483647x2147483647:c128:batch=2147483647': 'spans .* over 2\\^63 bytes',
}
for spec, why in bad.items():
    try:
        pc.parse_case(spec)
        ok(False, f"'{spec}' is refused ({why})")
    except pc.CaseError as e:
        ok(re.search(why, str(e)) and str(e).startswith(f"bad case '{spec}'"), f"'{spec}' is refused: {e}", e)
ok(pc.parse_case('2147483647x1:u8').rows == 2**31 - 1, 'rows 2^31-1 is accepted')

# ---- named sets ------------------------------------------------------------
for name, specs in pc.SETS.items():
    try:
        cases = pc.expand([name], [])
        ok(len(cases) == len(specs), f'set {name}: {len(specs)} specs, all parse, none twice',
           f'{len(cases)} unique')
    except pc.CaseError as e:
        ok(False, f'set {name} parses', e)
skinny = {x.name for x in pc.expand(['skinny'], [])}
want = {f'{a}x{b}:{w}' for k in (1, 2, 3, 4, 7, 8, 16, 33, 64) for a, b in ((k, 2**20), (2**20, k))
        for w in ('u8', 'f16', 'f32', 'f64', 'c128')}
ok(skinny == want, 'set skinny is K x N and N x K, every K and width', sorted(want ^ skinny)[:5])
ok({x.name for x in pc.expand(['batched'], [])}
   == {'1024x1024:f32:batch=64', '64x128:f16:batch=4096', '3x3:f32:batch=1048576'}, 'set batched is its three')
i8 = {x.name for x in pc.expand(['mixed'], [])}
ok(len(i8) == 51 and '32768x32768:u8' in i8 and '7x30000:c128' in i8, 'set mixed is its 51 cases')
both = pc.expand(['mixed', 'small-elements'], ['16384x16384:f32'])
dup = [x for x in both if x.name == '16384x16384:f32']
ok(len(dup) == 1 and dup[0].sets == ['mixed', 'small-elements', 'cli'], 'a case in two sets and on the command line runs once, all three noted',
   dup[0].sets if dup else 'missing')
try:
    pc.expand(['nosuch'], [])
    ok(False, 'an unknown set is refused')
except pc.CaseError as e:
    ok("unknown set 'nosuch'" in str(e), 'an unknown set is refused', e)

# ---- --ptx files: kernel ABI v2, v3 or v4 metadata --------------------------


def ptx(name, meta):
    path = os.path.join(tmp, name + '.ptx')
    with open(path, 'w') as f:
        f.write(f'//\n// Generated by ptxpose (a test fixture)\n//\n// ptxpose {meta}\n'
                '// ptxpose-smem id=s op=st bytes=16 wavefronts=4 ideal=4 requests=1 total=4\n.version 8.0\n')
    return path


tile = pp.PtxKernel(ptx('tile', 'kernel=t_b32 elem=32 grid=tile tile=32x64 block=32x8 abi=2 dyn_smem=65536'))
ok((tile.block, tile.tile, tile.dyn_smem, tile.label) == ((32, 8, 1), (32, 64), 65536, 'ptxpose:t_b32'),
   'metadata: block (z filled in), tile, dynamic shared memory, label')
lin = pp.PtxKernel(ptx('lin', 'kernel=l_b8 elem=8 grid=linear per_block=1024 block=256 abi=2'))
ok((lin.per_block, lin.elem, pp.ptx_path([tile, lin])) == (1024, 8, f'{tile.path}:{lin.path}'),
   'grid=linear: per_block; the files as $PTXPOSE_PTX for the library')
pk = ptx('pack', 'kernel=p_b32 elem=32 grid=pack per_block=2048 block=256 abi=4')
ok(pp.PtxKernel(pk).per_block == 2048 and [k.name for k in pp.load([lin.path, pk], lambda g: [g])] == ['l_b8'],
   'grid=pack (kernel ABI v4) is read, and left out of the 2-D kernels timed by name')
abi1 = ptx('old', 'kernel=o_b32 elem=32 grid=tile tile=32x32 block=32x8')
for path, why in [(abi1, 'kernel ABI 1; regenerate it with ptxpose gen$'),
                  (ptx('abi5', 'kernel=x elem=32 grid=tile tile=32x32 block=32x8 abi=5'), 'kernel ABI 5;'),
                  (ptx('nometa', 'nothing=here'), 'no ptxpose metadata'),
                  (ptx('badelem', 'kernel=x elem=24 grid=tile tile=32x32 block=32x8 abi=2'), 'elem must be'),
                  (ptx('badgrid', 'kernel=x elem=32 grid=tile block=32x8 abi=2'), 'tile must be NxN'),
                  (ptx('bigblock', 'kernel=x elem=32 grid=tile tile=32x32 block=64x32 abi=2'), 'more than 1024 threads'),
                  (ptx('nopb', 'kernel=x elem=32 grid=linear block=64 abi=2'), 'needs per_block'),
                  (os.path.join(tmp, 'missing.ptx'), 'No such file')]:
    try:
        pp.PtxKernel(path)
        ok(False, f'{os.path.basename(path)} is refused ({why})')
    except pp.PtxError as e:
        ok(str(e).startswith(path) and re.search(why, str(e)), f'{os.path.basename(path)} is refused: {e}', e)

# ---- peers.py as a command, without torch ----------------------------------
rc, out, err = run('bench/peers.py', '--help')
ok(rc == 0 and '--ptx GLOB' in out and 'extremes' in out, 'peers.py --help', err)
one_line_error('a bad case: one line, exit 2', ['bench/peers.py', '5x5:f32:ld_in=4'], 2, "ld_in 4 is less than cols 5")
one_line_error('an unknown set: one line, exit 2', ['bench/peers.py', '--set', 'nosuch'], 2, "unknown set 'nosuch'")
one_line_error('an unknown flag: one line, exit 2', ['bench/peers.py', '--bogus'], 2, 'unrecognized arguments: --bogus')
one_line_error('too few replays: one line, exit 2', ['bench/peers.py', '--replays', '5', '5x5:f32'], 2, 'at least 15')
one_line_error('an ABI 1 file: one line, exit 3', ['bench/peers.py', '--ptx', abi1, '5x5:f32'], 3,
               'old.ptx: kernel ABI 1; regenerate it with ptxpose gen')
one_line_error('a glob that names nothing: exit 3', ['bench/peers.py', '--ptx', tmp + '/none*.ptx', '5x5:f32'], 3,
               "no file matches")
with open(os.path.join(tmp, 'old.json'), 'w') as f:
    f.write('{"format": "ptxpose-peers 1"}')
one_line_error('--resume from a file that is not results: exit 2',
               ['bench/peers.py', '--resume', '--out', tmp + '/old.json', '5x5:f32'], 2, 'is not a results file')
rc, out, err = run('bench/peers.py', '--dry-run', '--ptx', tmp + '/tile.ptx', '--ptx', tmp + '/lin.ptx',
                   '4194304x3:f32', '3x3:f32:batch=1048576', '1000x3:u8')
via = ' (the package plans and launches them)'
ok(rc == 0 and out.splitlines() == [
    '4194304x3:f32  (cli; 100663296 bytes moved)',
    '  cublas_geam: cublasSgeam T N m 4194304 n 3 lda 3 ldb 4194304 ldc 4194304',
    '  cutensor: R_32F, A extents [3, 4194304] strides [1, 3] modes [1, 0], B extents [4194304, 3] strides '
    '[1, 4194304] modes [0, 1], compute 32F',
    '  ptxpose: Plan(x, y) heuristic and measured, then by name: t_b32' + via,
    '3x3:f32:batch=1048576  (cli; 75497472 bytes moved)',
    '  cublas_geam: n/a (cuBLAS geam has no batched form)',
    '  cutensor: R_32F, A extents [3, 3, 1048576] strides [1, 3, 9] modes [2, 1, 0], B extents [3, 3, 1048576] '
    'strides [1, 3, 9] modes [1, 2, 0], compute 32F',
    '  ptxpose: Plan(x, y) heuristic and measured, then by name: t_b32' + via,
    '1000x3:u8  (cli; 6000 bytes moved)',
    '  cublas_geam: n/a (cuBLAS has no geam for 1-byte elements)',
    '  cutensor: n/a (cuTENSOR has no permutation of 1-byte (u8) elements)',
    '  ptxpose: Plan(x, y) heuristic and measured, then by name: l_b8' + via],
   "--dry-run: each case, cuBLAS geam's call (transposed A, m = rows, n = cols, lda = ld_in, ldb = ldc = ld_out), "
   "cuTENSOR's descriptors and the ptxpose plans of its width, no GPU", out + err)
probe = ("import sys; sys.path.insert(0, 'bench'); import peers; peers.main(['--dry-run', '--set', 'smoke']); "
         "bad = [m for m in ('torch', 'numpy', 'cupy', 'triton') if m in sys.modules]; print('imported:', bad)")
rc, out, err = run('-c', probe)
ok(rc == 0 and out.rstrip().endswith('imported: []'), 'parsing and a dry run import no torch, numpy, cupy or triton',
   out[-300:] + err)
rc, _, _ = run('-c', 'import torch')
if rc != 0:
    one_line_error('without torch, a real run stops with exit 4', ['bench/peers.py', '5x5:f32'], 4,
                   'no CUDA device for PyTorch')

# ---- the commit a run records -----------------------------------------------
import peers_run  # noqa: E402

repo = os.path.join(tmp, 'repo')
for d in ('ptx', 'bench', 'build'):
    os.makedirs(os.path.join(repo, d))
for f in ('ptx/k.ptx', 'bench/peers.py', 'README.md'):
    with open(os.path.join(repo, f), 'w') as fh:
        fh.write('x\n')
with open(os.path.join(repo, 'build', 'ptxpose'), 'w') as fh:  # a binary built from another commit
    fh.write('#!/bin/sh\necho "ptxpose 0.3.0 (commit dd5c927-dirty)"\n')
os.chmod(os.path.join(repo, 'build', 'ptxpose'), 0o755)
with open(os.path.join(repo, '.gitignore'), 'w') as fh:
    fh.write('build/\n')
git = ['git', '-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com']
env_commit = os.environ.pop('PTXPOSE_COMMIT', None)
rc, _, _ = run('-c', 'import shutil, sys; sys.exit(shutil.which("git") is None)')
if rc == 0:
    os.environ['GIT_CEILING_DIRECTORIES'] = tmp
    subprocess.run(git + ['init', '-q'], check=True)
    subprocess.run(git + ['add', '-A'], check=True)
    subprocess.run(git + ['commit', '-qm', 'c'], check=True)
    head = subprocess.run(git + ['rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()
    got = peers_run.ptxpose_commit(repo)
    ok(got[0] == head and 'as committed' in got[1], "commit: git's HEAD, not the binary's", got)
    with open(os.path.join(repo, 'README.md'), 'a') as fh:
        fh.write('y\n')
    got = peers_run.ptxpose_commit(repo)
    ok(got[0] == head, 'commit: a change outside ptx/ and bench/ leaves it clean', got)
    for f in ('bench/peers.py', 'ptx/new.ptx'):
        with open(os.path.join(repo, f), 'a') as fh:
            fh.write('y\n')
        got = peers_run.ptxpose_commit(repo)
        ok(got[0] == head + '-dirty' and 'differ' in got[1], f'commit: {f} changed or new: HEAD-dirty', got)
        subprocess.run(git + ['checkout', '-q', '--', '.'], check=True)
        subprocess.run(git + ['clean', '-qfd', 'ptx'], check=True)
    subprocess.run(['rm', '-rf', os.path.join(repo, '.git')], check=True)
got = peers_run.ptxpose_commit(repo)
ok(got == ('dd5c927-dirty', 'build/ptxpose --version (ptxpose 0.3.0 (commit dd5c927-dirty)); no git checkout'),
   "commit: without git, the binary's commit, -dirty kept, and where it came from", got)
os.unlink(os.path.join(repo, 'build', 'ptxpose'))
got = peers_run.ptxpose_commit(repo)
ok(got[0] == 'unknown' and got[1].startswith('none'), 'commit: neither: unknown', got)
if env_commit is not None:
    os.environ['PTXPOSE_COMMIT'] = env_commit

# ---- cuBLAS geam through ctypes, with a stand-in for libcublas -------------
import ctypes  # noqa: E402
import types  # noqa: E402

import peers_cublas as pcb  # noqa: E402

blas_calls = []  # (function, args), in call order


def fake_blas_fn(name, status=0):
    def f(*args):
        if name == 'cublasCreate_v2':
            args[0]._obj.value = 0x1234  # the handle cublasCreate writes through its pointer
        blas_calls.append((name, args))
        return status
    return f


fake_blas = types.SimpleNamespace(**{f: fake_blas_fn(f) for f in (
    'cublasCreate_v2', 'cublasDestroy_v2', 'cublasSetStream_v2', 'cublasSetPointerMode_v2', 'cublasSgeam',
    'cublasDgeam', 'cublasZgeam')})
h = pcb.Handle(fake_blas, 0x5000)
ok([f for f, _ in blas_calls] == ['cublasCreate_v2', 'cublasSetPointerMode_v2', 'cublasSetStream_v2']
   and all(a[0].value == 0x1234 for _, a in blas_calls[1:]) and blas_calls[1][1][1] == pcb.POINTER_MODE_HOST
   and blas_calls[2][1][1].value == 0x5000,
   "cublas: a handle of its own, host pointer mode, bound to the harness's stream", blas_calls)
for spec, routine, scalar in [('7x9:c64:ld_in=11:ld_out=13', 'cublasDgeam', [1.0]),
                              ('5x6:c128:offset=1', 'cublasZgeam', [1.0, 0.0]),
                              ('4194304x3:i32', 'cublasSgeam', [1.0])]:
    blas_calls.clear()
    c = pc.parse_case(spec)
    fn = h.geam(c, 0x7000, 0x9000)
    fn()
    f, args = blas_calls[0] if blas_calls else ('none', ())
    alpha, beta = list(fn.scalars[0]), list(fn.scalars[1])
    got = (f, args[0].value, args[1:5], args[5] == ctypes.addressof(fn.scalars[0]), args[6].value, args[7],
           args[8] == ctypes.addressof(fn.scalars[1]), args[9].value, args[10], args[11].value, args[12])
    ok(got == (routine, 0x1234, (pcb.OP_T, pcb.OP_N, c.rows, c.cols), True, 0x7000, c.ld_in, True, 0x9000, c.ld_out,
               0x9000, c.ld_out) and alpha == scalar and beta == [0.0] * len(scalar),
       f'cublas {spec}: {routine}(h, T, N, rows, cols, &1, x, ld_in, &0, y, ld_out, y, ld_out), host scalars',
       (got, alpha, beta))
bad_blas = types.SimpleNamespace(**dict(vars(fake_blas), cublasSgeam=fake_blas_fn('cublasSgeam', 13)))
try:
    pcb.Handle(bad_blas, 0).geam(pc.parse_case('3x3:f32'), 1, 2)()
    ok(False, 'cublas: a failed status is an error')
except pcb.CublasError as e:
    ok(str(e) == 'cublasSgeam: CUBLAS_STATUS_EXECUTION_FAILED (13)', 'cublas: a failed status is an error naming it', e)
fake_wheel = types.ModuleType('nvidia.cublas')
fake_wheel.__path__ = [os.path.join(tmp, 'wheel')]
os.makedirs(os.path.join(tmp, 'wheel', 'lib'))
open(os.path.join(tmp, 'wheel', 'lib', 'libcublas.so.12'), 'w').close()
sys.modules['nvidia'], sys.modules['nvidia.cublas'] = types.ModuleType('nvidia'), fake_wheel
cands = pcb.library_candidates()
ok(cands[0] == os.path.join(tmp, 'wheel', 'lib', 'libcublas.so.12') and cands[-2:] == ['libcublas.so.13', 'libcublas.so.12'],
   "cublas: the library from the nvidia-cublas wheel's lib folder first, the sonames last", cands)
del sys.modules['nvidia'], sys.modules['nvidia.cublas']
try:
    pcb.load_library([os.path.join(tmp, 'wheel', 'lib', 'libcublas.so.12')])
    ok(False, 'cublas: a library that cannot be loaded is an OSError')
except OSError as e:
    ok(str(e).startswith('no libcublas could be loaded ('), 'cublas: a library that cannot be loaded is an OSError', e)

# ---- the Triton peer's sweep and grid, with a stand-in for Triton ----------
rc, _, _ = run('-c', 'import triton')
if rc != 0:
    import types

    launches = []  # (kernel name, grid, args, kw), in launch order

    class FakeJit:
        def __init__(self, fn):
            self.name = fn.__name__

        def __getitem__(self, grid):
            def launch(*args, **kw):
                if refuse_launches:
                    refuse()
                launches.append((self.name, grid, args, kw))
            return launch
    refuse_launches = False
    fake, fake_tl = types.ModuleType('triton'), types.ModuleType('triton.language')
    fake.jit, fake.language, fake_tl.constexpr = FakeJit, fake_tl, int
    fake.cdiv = lambda a, b: -(-a // b)
    fake.next_power_of_2 = lambda v: 1 << (v - 1).bit_length()
    sys.modules['triton'], sys.modules['triton.language'] = fake, fake_tl
    import peers_triton as pt
    ok(pt.configs(4096, 4096, False) == list(pt.BASE) and pt.configs(4096, 4096, True) == list(pt.QUICK),
       'triton: the six base configs, two with --quick')
    ok(pt.configs(3, 2**20, False) == [(4, 64, 4), (4, 256, 4), (4, 1024, 8)]
       and pt.configs(2**20, 7, False) == [(32, 8, 4), (128, 8, 4), (512, 8, 8)]
       and pt.configs(3, 3, False) == [(4, 4, 1)] and pt.configs(1, 2**20, True) == [(1, 256, 4), (1, 1024, 4)],
       'triton: skinny tiles where a side is under 32', [pt.configs(3, 2**20, False), pt.configs(2**20, 7, False)])
    for spec, want in [('3x4194304:f32', (1, 65535, 1)), ('4194304x3:f32', (65536, 1, 1)),
                       ('3x3:f32:batch=1048576', (1, 1, 65535)), ('40000000x8:c128', (1250000, 1, 1))]:
        c = pc.parse_case(spec)
        fns = pt.launchers('X', 'Y', c, True)
        for _, fn in fns:
            fn()
        name, grid, args, kw = launches[-len(fns)]  # the first config's
        if name == 'tl_transpose_2d':  # one matrix whose grid fits: the plain kernel, no batch parameters
            ok(grid == want and args == ('X', 'Y', c.rows, c.cols, c.ld_in, c.ld_out) and 'LANES' not in kw,
               f'triton {spec}: the plain 2-D kernel, grid {want}', (grid, args, kw))
        else:
            ok(grid == want and args == ('X', 'Y', c.rows, c.cols, c.ld_in, c.ld_out, c.batch, c.stride_in,
                                         c.stride_out) and kw['LANES'] == (2 if c.eb == 16 else 1),
               f'triton {spec}: grid {want} (y, z clamped to 65535), all parameters, 16-byte elements as int64 '
               'pairs', (grid, args, kw))
        launches.clear()
    # 16-byte elements: 128x128 needs 262144 B of shared memory, over an H100's 232448
    H100 = 232448
    want16 = [(32, 32, 4), (64, 64, 4), (64, 64, 8), (128, 64, 8), (64, 128, 8), (32, 64, 4)]
    ok(pt.configs(4096, 4096, False, 16, H100) == want16 and all(pt.configs(4096, 4096, False, eb, H100) == list(pt.BASE)
                                                                 for eb in (1, 2, 4, 8)),
       'triton: 16-byte elements leave 128x128 out and take 32x64 in its place, six configs as for every width',
       pt.configs(4096, 4096, False, 16, H100))
    ok(pt.configs(4096, 4096, True, 16, H100) == [(64, 64, 4), (32, 64, 4)]
       and pt.configs(4096, 4096, False, 16, 99 * 1024) == [(32, 32, 4), (64, 64, 4), (64, 64, 8), (32, 64, 4),
                                                           (64, 32, 4), (32, 128, 4)],
       'triton: as many configs with --quick and on a device of 99 KiB', pt.configs(4096, 4096, False, 16, 99 * 1024))
    ok(pt.left_out(4096, 4096, False, 16, H100) == ['128x128/w8 (262144 B of shared memory, over 232448)']
       and pt.left_out(4096, 4096, False, 8, H100) == [], 'triton: the note names what was left out and why',
       pt.left_out(4096, 4096, False, 16, H100))
    c = pc.parse_case('8191x8193:c128')
    labels16 = [label for label, _ in pt.launchers('X', 'Y', c, False, H100)]
    ok(labels16 == ['32x32/w4', '64x64/w4', '64x64/w8', '128x64/w8', '64x128/w8', '32x64/w4'],
       'triton 8191x8193:c128: no config over the limit is launched', labels16)

    class FakeOutOfResources(Exception):
        pass
    pt.OutOfResources = FakeOutOfResources

    def refuse():
        raise FakeOutOfResources('out of resource: shared memory, Required: 262144, Hardware limit: 232448')
    import peers_impls  # noqa: E402
    try:
        pt.refused_as_not_applicable(refuse, '128x128/w8')()
        ok(False, "triton: a launch Triton refuses for resources is n/a")
    except peers_impls.NotApplicable as e:
        ok(str(e) == '128x128/w8: out of resource: shared memory, Required: 262144, Hardware limit: 232448',
           "triton: a launch Triton refuses for resources is n/a", e)

    refuse_launches = True
    try:
        pt.launchers('X', 'Y', c, False, H100)[0][1]()
        ok(False, 'triton: every launcher of the sweep turns the refusal into n/a')
    except peers_impls.NotApplicable as e:
        ok(str(e).startswith('32x32/w4: out of resource'), 'triton: every launcher of the sweep turns the refusal into n/a', e)
    except FakeOutOfResources as e:
        ok(False, 'triton: every launcher of the sweep turns the refusal into n/a', e)
    refuse_launches = False

    # a sweep with a refused candidate: not a failure (the harness's loop, with stand-ins for the GPU)
    said = []
    cr = object.__new__(peers_run.CaseRun)
    cr.torch = types.SimpleNamespace(cuda=types.SimpleNamespace(synchronize=lambda: None))
    cr.timer = types.SimpleNamespace(on_stream=contextlib.nullcontext, calls_for=lambda fn: 10,
                                     best_ms=lambda fn, calls: (0.01, 'graph'))
    cr.buf = types.SimpleNamespace(poison=lambda: None, verdict=lambda: None)
    cr.case, cr.calls, cr.failures = pc.parse_case('8191x8193:c128'), 10, 0
    cr.say_failure = lambda *a, **k: said.append(a)
    big = pt.refused_as_not_applicable(refuse, '128x128/w8')
    e = cr.attempt('triton', lambda: [('triton 128x128/w8', big, '128x128/w8'), ('triton 64x64/w4', lambda: None,
                                                                              '64x64/w4')])
    ok(e['status'] == 'ok' and e['note'].startswith('best of 1: 64x64/w4; n/a: 128x128/w8: out of resource')
       and not said and cr.failures == 0, 'a sweep with a refused config: the others timed, the refusal noted, no failure',
       (e, said))
    e = cr.attempt('triton', lambda: [('triton 128x128/w8', big, '128x128/w8')])
    ok(e['status'] == 'n/a' and not said, 'a sweep of refused configs only: n/a, no failure', (e, said))
    del sys.modules['triton'], sys.modules['triton.language']

# ---- report.py: tables from canned results ---------------------------------
a, b, other = 'tests/data/peers-test-a.json', 'tests/data/peers-test-b.json', 'tests/data/peers-other.json'
out_dir = os.path.join(tmp, 'results')
rc, out, err = run('bench/report.py', '--out', out_dir, a, b, other)
ok(rc == 0, 'report.py on three files of two devices', err)
dev, dev2 = os.path.join(out_dir, 'nvidia-test-gpu'), os.path.join(out_dir, 'nvidia-other-gpu-h200')
ok(sorted(os.listdir(dev)) == ['chart-batched.svg', 'chart-mixed.svg', 'chart-skinny.svg', 'chart-small-elements.svg',
                               'peers.json', 'side-by-side.csv', 'side-by-side.md'],
   'one folder per device: Markdown, CSV, JSON, a chart per set (no selection table: plans choose)', os.listdir(dev) if os.path.isdir(dev) else 'none')
md = open(os.path.join(dev, 'side-by-side.md')).read() if rc == 0 else ''
ok(md.startswith('# ptxpose and its peers, side by side: NVIDIA Test GPU') and 'driver 580.00' in md
   and 'Run of 2026-11-23 10:00 UTC: ptxpose commit abc1234' in md and 'Run of 2026-11-23 11:00 UTC' in md
   and 'Method: canned figures for the report test' in md, 'the device, dates, commit and method at the top')
ok('matrices that fit in the L2 (50 MiB here) can pass 100% of the copy' in md, 'the warm-L2 sentence')
rows = {r.split(' | ')[0][2:]: [x.strip() for x in r.strip('| \n').split(' | ')] for r in md.splitlines()
        if r.startswith('| ') and not r.startswith('| case')}
header = next((r for r in md.splitlines() if r.startswith('| case')), '')
cols = [x.strip() for x in header.strip('| ').split(' | ')]
ok(cols == ['case', 'copy GB/s', 'torch', 'cupy', 'cublas_geam', 'triton', 'ptxpose best', 'kernel', 'winner',
            'ptxpose best / best peer'], 'table columns: copy, each peer, ptxpose best, kernel, winner, ratio', cols)
# hand-computed: ratio = best peer us / ptxpose best us; % = copy us / us
expect = {'4096x4096:f32': ['4096x4096:f32', '1342', '50.0', '40.0', '80.0', '90.9', '100.0', 'fast_b32', 'ptxpose best', '1.10x'],
          '8191x8193:f16': ['8191x8193:f16', '5369', '50.0', '40.0', 'n/a', '100.0', '80.0', 'narrow_b16', 'triton', '0.80x'],
          '3x3:f32:batch=1048576': ['3x3:f32:batch=1048576', '3775', '80.0', '50.0', 'n/a', 'error', '125.0', 'narrow_b32',
                                    'ptxpose best', '1.56x'],
          '1x1048576:u8': ['1x1048576:u8', '210', '80.0', '50.0', 'n/a', '100.0', 'WRONG', 'fast_b8', 'triton', '—'],
          '1048576x1:c128': ['1048576x1:c128', 'failed'] + ['—'] * 8}
for case, want in expect.items():
    ok(rows.get(case) == want, f'row {case}: ' + ' | '.join(want[2:]), rows.get(case))
ok('Geometric mean of ptxpose best / best peer: 1.11x over 3 cases.' in md,
   'geometric mean over all cases: (1.10 * 0.80 * 1.5625)^(1/3) = 1.11x')
ok('## mixed (2 cases)\n\nGeometric mean of ptxpose best / best peer: 0.94x over 2 cases.' in md,
   'per set: mixed sqrt(1.10 * 0.80) = 0.94x')
ok('## skinny (2 cases)\n\nGeometric mean of ptxpose best / best peer: none' in md, 'a set without any ratio says so')
ok('## small-elements (1 case)' in md and md.count('| 8191x8193:f16 | 5369 |') == 2,
   'a case measured twice keeps its first figures and both sets')
ok('- 1x1048576:u8 ptxpose:fast_b8: WRONG: 1 of 1048576 elements differ' in md
   and '- 1048576x1:c128: OutOfMemoryError' in md and '- 3x3:f32:batch=1048576 triton: error: CompilationError' in md,
   'failures are listed under their set')
csv_lines = open(os.path.join(dev, 'side-by-side.csv')).read().splitlines() if rc == 0 else ['']
ok(csv_lines[0] == 'sets,' + ','.join(cols) and len(csv_lines) == 6
   and 'mixed small-elements,8191x8193:f16,5369,50.0,40.0,n/a,100.0,80.0,narrow_b16,triton,0.80x' in csv_lines,
   'CSV: the same columns and cells, one row per case', '\n'.join(csv_lines))
ok(open(os.path.join(dev2, 'peers.json')).read() == open(other).read() if rc == 0 else False,
   'one input file for a device is copied unchanged')
merged = json.load(open(os.path.join(dev, 'peers.json'))) if rc == 0 else {'cases': []}
ok([x['case'] for x in merged['cases']] == ['4096x4096:f32', '8191x8193:f16', '3x3:f32:batch=1048576',
                                             '1x1048576:u8', '1048576x1:c128'], 'two files of one device are merged')

# ---- the chart -------------------------------------------------------------


def svg_parts(path):
    root = ET.parse(path).getroot()
    texts = {}
    for t in root.iter(SVG + 'text'):
        texts.setdefault(t.get('class'), []).append(t.text)
    plot = next(r for r in root.iter(SVG + 'rect') if r.get('class') == 'plot')
    bars = [r for r in root.iter(SVG + 'rect') if r.get('class') == 'bar']
    return root, texts, plot, bars


labels = {'chart-mixed.svg': ['50.0%', '40.0%', '80.0%', '90.9%', '100.0%', '50.0%', '40.0%', '100.0%', '80.0%'],
          'chart-batched.svg': ['80.0%', '50.0%', '125.0%'],
          'chart-skinny.svg': ['80.0%', '50.0%', '100.0%']}
for name, want in labels.items():
    root, texts, plot, bars = svg_parts(os.path.join(dev, name))
    right = float(plot.get('x')) + float(plot.get('width'))
    ok(root.get('width') == '900', f'{name}: 900 px wide')
    ok(texts.get('val') == want and len(bars) == len(want), f'{name}: every bar has its value printed: {" ".join(want)}',
       texts.get('val'))
    ok(all(float(r.get('x')) + float(r.get('width')) <= right + 1e-6 for r in bars), f'{name}: no bar past the plot')
    ok(texts.get('legend') == cols[2:7], f'{name}: legend names are the table columns', texts.get('legend'))
    ok(any('can pass 100% of the copy' in (t or '') for t in texts.get(None, [])), f'{name}: the warm-L2 note')
_, texts, plot, bars = svg_parts(os.path.join(dev, 'chart-batched.svg'))
wide = max(float(r.get('width')) for r in bars)
ok(abs(wide - float(plot.get('width')) * 125 / 140) < 0.1, 'a value past 100% is drawn to scale (125 of 140%)', wide)
_, texts, _, _ = svg_parts(os.path.join(dev, 'chart-skinny.svg'))
ok(texts.get('missing') == ['cublas_geam: n/a', 'ptxpose best: WRONG', 'case failed: OutOfMemoryError: CUDA out of memory'],
   'values that are not numbers are printed where their bar would be', texts.get('missing'))

# a set of 45 cases: three charts of at most 20
big = json.load(open(a))
big['device']['name'] = 'Many'
big['cases'] = []
for i in range(45):
    c = json.loads(json.dumps(json.load(open(a))['cases'][0]))
    c['case'], c['sets'] = f'{4096 + i}x4096:f32', ['many']
    big['cases'].append(c)
with open(os.path.join(tmp, 'many.json'), 'w') as f:
    json.dump(big, f)
rc, out, err = run('bench/report.py', '--out', out_dir, os.path.join(tmp, 'many.json'))
many = os.path.join(out_dir, 'many')
charts = sorted(x for x in os.listdir(many) if x.endswith('.svg')) if rc == 0 else []
ok(charts == ['chart-many-1.svg', 'chart-many-2.svg', 'chart-many-3.svg'], 'a set of 45 cases is split into 3 charts', charts)
sizes = [len(svg_parts(os.path.join(many, x))[1].get('case', [])) for x in charts]
ok(sizes == [20, 20, 5], 'of 20, 20 and 5 cases', sizes)
md = open(os.path.join(many, 'side-by-side.md')).read() if rc == 0 else ''
ok(all(f'![many: % of copy per case and implementation]({x})' in md for x in charts), 'the Markdown shows each part')

# ---- bench/pick.py and the pick in the report ------------------------------
# A stand-in ptxpose: --version, and `plan --json --device D --cases FILE` choosing by width,
# its model fitted from a committed training file and one that is not there.
FITTED = ('lib/model_data/h100-2026-11-22-smoke.json.xz (NVIDIA H100 80GB HBM3; CUDA graphs; 8 cases); '
          'lib/model_data/gone.json (NVIDIA H100 80GB HBM3; CUDA graphs; 1 case); ptxpose e97b273')
fake_px = os.path.join(tmp, 'ptxpose')
with open(fake_px, 'w') as f:
    f.write(f"""#!{sys.executable}
import json, sys
a = sys.argv[1:]
if a == ['--version']:
    print('ptxpose 0.3.0 (commit e0e0e0e)')
    sys.exit(0)
assert a[:4] == ['plan', '--json', '--device', 'Pick'], a
rows = open(a[a.index('--cases') + 1]).read().splitlines()
choice = {{'32': 'narrow_b32', '16': 'narrow_b16'}}
print(json.dumps({{'format': 'ptxpose-plan 1', 'model': {{'params': 'lib/model_params.tsv', 'fitted_from': {FITTED!r},
                  'unsure_margin': 0.1}}, 'cases': [{{'choice': choice[r.split()[1]]}} for r in rows]}}))
""")
os.chmod(fake_px, 0o755)
smoke = json.load(lzma.open('lib/model_data/h100-2026-11-22-smoke.json.xz'))
pick = json.load(open(a))
pick['device']['name'] = 'Pick'
pick['cases'][0]['case'] = smoke['cases'][0]['case']  # a case the model was fitted on ('2048x2048:f32')
# 8191x8193:f16: the oracle fast_b16 at 61 us, the pick (narrow_b16, 62.5 us) 2.5% slower: within 3%
pick['cases'][1]['impls']['ptxpose:fast_b16'] = {'status': 'ok', 'us': 61.0, 'GBps': 1000.0, 'pct_copy': 82.0,
                                                 'timing': 'graph', 'note': ''}
with open(os.path.join(tmp, 'pick.json'), 'w') as f:
    json.dump(pick, f)
with lzma.open(os.path.join(tmp, 'pick.json.xz'), 'wt') as f:  # the same, stored compressed
    json.dump(pick, f)
os.chmod(os.path.join(tmp, 'pick.json.xz'), 0o640)
rc, out, err = run('bench/pick.py', '--ptxpose', fake_px, os.path.join(tmp, 'pick.json'), os.path.join(tmp, 'pick.json.xz'))
picked = json.load(open(os.path.join(tmp, 'pick.json')))
ok(rc == 0 and picked.get('pick') == {
    'ptxpose': 'ptxpose 0.3.0 (commit e0e0e0e)', 'commit': 'e0e0e0e', 'params': 'lib/model_params.tsv',
    'fitted_from': FITTED, 'fitted_files': {'lib/model_data/h100-2026-11-22-smoke.json.xz': 8,
                                            'lib/model_data/gone.json': 'missing'}},
   "pick.py: the results name the ptxpose that picked, its model's fitted-from and those files", (err, picked.get('pick')))
try:
    packed = json.load(lzma.open(os.path.join(tmp, 'pick.json.xz'), 'rt'))
except (OSError, ValueError, EOFError, lzma.LZMAError) as e:
    packed = {'error': repr(e)}
ok(packed == picked and os.stat(os.path.join(tmp, 'pick.json.xz')).st_mode & 0o777 == 0o640
   and sorted(os.listdir(tmp)).count('pick.json.xz') == 1 and not [x for x in os.listdir(tmp) if x.startswith('.')],
   'pick.py: a .json.xz file is read and written back compressed, the same picks, its mode kept, no temporary left',
   packed.get('error', ''))
pk = [c['impls'].get('ptxpose-pick', {}) for c in picked['cases']]
ok([(e.get('kernel'), e.get('us'), e.get('fitted')) for e in pk]
   == [('narrow_b32', 160, True), ('narrow_b16', 62.5, False), ('narrow_b32', 16, False)],
   "pick.py: each case's pick, its kernel's figures, and whether the model was fitted on it (by case name)",
   [(e.get('kernel'), e.get('us'), e.get('fitted')) for e in pk])
rc, out, err = run('bench/report.py', '--out', out_dir, os.path.join(tmp, 'pick.json'))
md = open(os.path.join(out_dir, 'pick', 'side-by-side.md')).read() if rc == 0 else ''
ok('| case | copy GB/s | torch | cupy | cublas_geam | triton | ptxpose best | ptxpose-pick | kernel | pick kernel | '
   'winner | ptxpose best / best peer | ptxpose-pick / best peer |' in md
   and '| 2048x2048:f32 | 1342 | 50.0 | 40.0 | 80.0 | 90.9 | 100.0 | 62.5 | fast_b32 | narrow_b32 | ptxpose best | '
   '1.10x | 0.69x |' in md,
   "the pick gets its own column, its kernel and its ratio (110 / 160 = 0.69x)", md[-1500:] + err)
ok('| 3x3:f32:batch=1048576 | 3775 | 80.0 | 50.0 | n/a | error | 125.0 | 125.0 | narrow_b32 | narrow_b32 | '
   'ptxpose best | 1.56x | 1.56x |' in md, 'a tie of the pick and the kernel it picked: the winner is ptxpose best')
ok('**Geometric mean of ptxpose-pick / best peer: 0.95x over 3 cases.**' in md
   and '## batched (1 case)\n\nGeometric mean of ptxpose best / best peer: 1.56x over 1 case.\n'
   'Geometric mean of ptxpose-pick / best peer: 1.56x over 1 case.' in md,
   "the pick's geometric mean over all cases ((0.6875 * 0.8 * 1.5625)^(1/3)) and per set", md[:2500])
ok('**ptxpose-pick / ptxpose best (the oracle: the fastest kernel this run timed): geometric mean 0.85x over 3 cases; '
   'within 3% of the oracle in 2 of 3 (67%); worst 0.62x (2048x2048:f32).**' in md,
   'pick / oracle: (0.625 * 0.976 * 1)^(1/3) = 0.85x, 2 of 3 within 3% (61 / 62.5 is), the worst named', md[:2500])
ok('**On the 2 cases the model was not fitted on: ptxpose-pick / best peer 1.12x over 2 cases; '
   'ptxpose-pick / ptxpose best 0.99x over 2 cases.**' in md,
   'over the cases the model was not fitted on: sqrt(0.8 * 1.5625) = 1.12x, sqrt(0.976) = 0.99x', md[:2500])
ok("Its ptxpose-pick column: the plan of ptxpose e0e0e0e (ptxpose 0.3.0 (commit e0e0e0e)), model lib/model_params.tsv, "
   "fitted from: lib/model_data/h100-2026-11-22-smoke.json.xz" in md, 'the header names the ptxpose and model that picked')
_, texts, _, _ = svg_parts(os.path.join(out_dir, 'pick', 'chart-mixed.svg')) if rc == 0 else (0, {}, 0, 0)
ok(texts.get('legend') == ['torch', 'cupy', 'cublas_geam', 'triton', 'ptxpose best', 'ptxpose-pick'],
   'and a legend entry of the same name', texts.get('legend'))
del picked['cases'][1]['impls']['ptxpose-pick']['fitted']
with open(os.path.join(tmp, 'pick.json'), 'w') as f:
    json.dump(picked, f)
rc, out, err = run('bench/report.py', '--out', out_dir, os.path.join(tmp, 'pick.json'))
md = open(os.path.join(out_dir, 'pick', 'side-by-side.md')).read() if rc == 0 else ''
ok('The results do not say which cases the model was fitted on' in md and 'not fitted on:' not in md,
   'results that do not say which cases were fitted on get no held-out figure')
with open(os.path.join(tmp, 'notres.json'), 'w') as f:
    f.write('{"format": "something else", "cases": []}')
one_line_error('pick.py: not a results file, exit 3', ['bench/pick.py', '--ptxpose', fake_px, tmp + '/notres.json'], 3,
               'notres.json: not a bench/peers.py results file')

# ---- report.py: the run's options, the noise, every run's date -------------
later = json.load(open(b))
later['date'] = '2026-11-24 09:00 UTC'
later['args'] = dict(later.get('args') or json.load(open(a))['args'], replays=20, target_ms=0.5)
with open(os.path.join(tmp, 'later.json'), 'w') as f:
    json.dump(later, f)
rc, out, err = run('bench/report.py', '--out', os.path.join(tmp, 'dates'), a, os.path.join(tmp, 'later.json'))
ddir = os.path.join(tmp, 'dates', 'nvidia-test-gpu')
md = open(os.path.join(ddir, 'side-by-side.md')).read() if rc == 0 else ''
ok("Run with: `bench/peers.py --replays 30 --target-ms 1 --max-calls 1000 --ptx 'ptx/*.ptx'`; "
   "`bench/peers.py --replays 20 --target-ms 0.5 --max-calls 1000 --ptx 'ptx/*.ptx'`." in md,
   "the method paragraph gives each run's options as flags", md[:1800])
ok('Noise: two runs of the same case on one device differed by up to 3-5%' in md and 'are ties.' in md,
   'the method paragraph says what counts as a tie')
root = ET.parse(os.path.join(ddir, 'chart-small-elements.svg')).getroot() if rc == 0 else None
title = next(t.text for t in root.iter(SVG + 'text')) if root is not None else ''
ok(title == 'small-elements: % of the same-run copy, NVIDIA Test GPU, 2026-11-23, 2026-11-24', "a chart's title names every run's date",
   title)

# ---- report.py: bad input --------------------------------------------------
with open(os.path.join(tmp, 'notjson.json'), 'w') as f:
    f.write('{"format": ')
with open(os.path.join(tmp, 'other.json'), 'w') as f:
    f.write('{"format": "something else", "cases": []}')
one_line_error('report: a missing file, exit 3', ['bench/report.py', '--out', out_dir, tmp + '/none.json'], 3,
               'none.json: No such file')
one_line_error('report: not JSON, exit 3', ['bench/report.py', '--out', out_dir, tmp + '/notjson.json'], 3,
               'notjson.json: not JSON')
one_line_error('report: another format, exit 3', ['bench/report.py', '--out', out_dir, tmp + '/other.json'], 3,
               "other.json: not a bench/peers.py results file")
broken = json.load(open(a))
del broken['cases'][0]['impls']['torch']['pct_copy']
with open(os.path.join(tmp, 'broken.json'), 'w') as f:
    json.dump(broken, f)
one_line_error('report: a malformed entry, exit 3', ['bench/report.py', '--out', out_dir, tmp + '/broken.json'], 3,
               "broken.json: malformed results for NVIDIA Test GPU .KeyError: 'pct_copy'")
one_line_error('report: no input, one line, exit 2', ['bench/report.py', '--out', out_dir], 2, 'RESULTS.json')

subprocess.run(['rm', '-rf', tmp])
print(f'1..{n}')
sys.exit(1 if fails else 0)
