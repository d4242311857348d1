#!/usr/bin/env python3
# t1041-python-overhead-script: bench/py_overhead.py (the breakdown of
# ptxpose.transpose(x)'s host time that t1040 runs on a GPU) checked on the
# fake driver, where its figures mean nothing: interleaved() times every
# figure once a round, in a rotated order, a sync after each batch, the
# median round; the script runs with tests/lib's stand-in torch (--fake) and
# with a stand-in `torch` module that has what a real one gives it (randn,
# empty, cuda.synchronize, t, copy_, contiguous), writes every line of its
# breakdown, the totals' spread, the C library's figures and the target's verdict (which, on
# the fake's slow allocations, may be either); usage: exit 2.
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, 'bench'))
import py_overhead  # noqa: E402

SCRIPT = os.path.join(ROOT, 'bench', 'py_overhead.py')
order, syncs = [], []
items = [(name, (lambda n: lambda: order.append(n))(name)) for name in 'abc']
fig = py_overhead.interleaved(items, 4, 2, lambda: syncs.append(1))
rounds = [''.join(order[i:i + 6:2]) for i in range(0, len(order), 6)]
ok(rounds == ['abc', 'bca', 'cab', 'abc', 'bca', 'cab', 'abc'] and len(syncs) == 21 and sorted(fig) == list('abc')
   and all(v >= 0 for v in fig.values()),
   'interleaved(): 3 + 4 rounds, each figure once a round in a rotated order, a sync after each batch', rounds)

STUB = '''import sys
sys.path.insert(0, %r)
import fakearrays  # the fake driver, device 0 current
import faketorch  # becomes sys.modules['torch'], which this import returns
t = sys.modules['torch']
t.__version__ = 'stub'
t.cuda = type(sys)('torch.cuda')
t.cuda.is_available = lambda: True
t.cuda.synchronize = lambda: fakearrays.cu('cuStreamSynchronize', None)
t.randn = t.empty = lambda *shape, device=None: faketorch.Tensor(shape)
T = faketorch.Tensor
T.t = lambda self: T(self.shape[::-1], self.dtype, self._strides[::-1], self.mem)
T.copy_ = lambda self, src: self
T.contiguous = lambda self: T(self.shape, self.dtype)
''' % os.path.join(ROOT, 'tests', 'lib')
NAMES = ['loop: a lambda returning None', 'torch: x.is_conj()', 'torch: x.stride()', 'ptxpose: _torch_key(x)',
         'ptxpose: the warm lookup', 'torch: x.new_empty(shape), then freed', 'torch: the current raw stream',
         'ctypes: ptxpose_execute(plan, x, y, stream)', 'ptxpose.transpose(x)', 'ptxpose.transpose(x, out)',
         'ptxpose.Plan.execute(x, out)', 'derived: the parts of transpose(x), summed',
         'derived: glue (transpose(x) less its parts)', 'derived: ctypes and Python (the call less C execute_legacy)',
         'C: execute', 'C: execute_legacy', 'C: launch_floor', 'C: launch_floor_legacy', 'C: library_own']
env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(ROOT, 'build', 'fakecuda'))
with tempfile.TemporaryDirectory() as tmp:
    os.mkdir(os.path.join(tmp, 'torch'))
    with open(os.path.join(tmp, 'torch', '__init__.py'), 'w') as f:
        f.write(STUB)
    for how, args, extra in (('--fake', ['--fake'], []),
                             ('a stand-in torch module', [], ["torch: y.copy_(x.t())", 'torch: x.t().contiguous()'])):
        out = os.path.join(tmp, 'o.txt')
        e = dict(env, PYTHONPATH=tmp) if not args else env
        c = subprocess.run([sys.executable, SCRIPT, out, '--runs', '3', '--batch', '5'] + args, capture_output=True,
                           text=True, env=e, timeout=120)
        text = open(out).read() if os.path.exists(out) else ''
        ok(c.returncode == 0 and text == c.stdout, f'py_overhead.py {how}: exit 0, the file is what it printed',
           c.stderr + c.stdout)
        lines = text.splitlines()
        missing = [n for n in NAMES + extra
                   if not any(line.startswith(n + ' ') and line.endswith(' us') for line in lines)]
        missing += [f'the spread of {n}' for n in NAMES[8:11] + extra
                    if f'# spread of the rounds, {n}: first quartile ' not in text]
        ok(not missing and any(re.match(r'target ptxpose\.transpose\(x\) <= 10 us: (ok|MISSED) \([0-9.]+ us\)$', line)
                               for line in lines),
           '... every figure of the breakdown, the C figures and the verdict', f'missing: {missing}\n{text}')
        os.remove(out)
c = subprocess.run([sys.executable, SCRIPT, '/dev/null', '--runs', '0'], capture_output=True, text=True)
ok(c.returncode == 2 and '--runs and --batch' in c.stderr, 'py_overhead.py --runs 0: exit 2, saying why', c.stderr)
finish()
