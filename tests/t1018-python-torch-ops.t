#!/usr/bin/env python3
# t1018-python-torch-ops: ptxpose.torch's operators where torch imports, without a GPU: on
# meta tensors, which run the fake (meta) implementations. Registered only when torch is
# imported (the package alone imports no framework); their schemas (out= variants mutate
# out); torch.library.opcheck (schema, autograd registration, fake tensors, AOT dispatch
# with dynamic shapes); torch.compile(fullgraph=True, dynamic=True) of a function that
# permutes, transposes and makes contiguous: one graph, no break, the operators in it, no
# recompilation for a second shape; the fake results' shapes and strides against torch's
# own; autograd: the backward of a permutation is the inverse permutation through the same
# operator, of a transpose the same transpose. The eager CUDA path is t1035's (GPU).
# Skips, saying so, where torch is not installed (CI: its wheel pulls gigabytes of CUDA
# libraries); PTXPOSE_TEST_PYTHON names an interpreter that has it.
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok, raises  # noqa: E402

other = os.environ.get('PTXPOSE_TEST_PYTHON')
if other and os.path.abspath(other) != os.path.abspath(sys.executable):
    sys.exit(subprocess.run([other, os.path.abspath(__file__)], env=dict(os.environ, PTXPOSE_TEST_PYTHON='')).returncode)

code = ('import sys; sys.path.insert(0, sys.argv[1]); import ptxpose; '
        'print(sorted(m for m in ("torch", "jax", "numpy", "ptxpose.torch") if m in sys.modules))')
r = subprocess.run([sys.executable, '-c', code, os.path.join(ROOT, 'python')], capture_output=True, text=True)
try:
    import torch  # noqa: E402
except ImportError as e:
    ok(r.returncode == 0 and r.stdout.strip() == '[]', 'import ptxpose imports no framework', r.stdout + r.stderr)
    print(f'# SKIP the rest: torch is not installed here ({e}); bench/gpu-session.sh pycompile runs it on a GPU machine')
    finish()
ok(r.returncode == 0 and r.stdout.strip() == '[]', 'import ptxpose imports no framework (torch is installed)',
   r.stdout + r.stderr)

import ptxpose  # noqa: E402  (torch imported first: the operators are registered)
from torch.library import opcheck  # noqa: E402

ok('ptxpose.torch' in sys.modules and hasattr(torch.ops.ptxpose, 'permute'),
   'import ptxpose after torch registers torch.ops.ptxpose')
import ptxpose.torch as pt  # noqa: E402

names = ('permute', 'permute_out', 'transpose', 'transpose_out', 'contiguous', 'contiguous_out')
schemas = {n: str(getattr(torch.ops.ptxpose, n).default._schema) for n in names}
ok(all('Tensor(a' in schemas[n] and '!) out' in schemas[n] and schemas[n].endswith('-> ()') for n in names[1::2])
   and all('!' not in schemas[n] for n in names[::2]), 'out= variants declared as mutating out; the others pure',
   schemas)

x = torch.randn(3, 4, 5, device='meta', requires_grad=True)
for name, args in (('permute', (x, [2, 0, 1])), ('transpose', (x, 0, 2)), ('contiguous', (x,)),
                   ('permute_out', (x.detach(), [2, 0, 1], torch.empty(5, 3, 4, device='meta')))):
    try:
        res = opcheck(getattr(torch.ops.ptxpose, name).default, args)
        ok(all(v == 'SUCCESS' for v in res.values()), f'opcheck {name}: {", ".join(sorted(res))}', res)
    except Exception as e:
        ok(False, f'opcheck {name}', f'{type(e).__name__}: {e}')

# ---- fake results: torch's own shapes, contiguous
v = torch.randn(2, 3, 4, 5, device='meta')[:, ::2]
for what, got, want in (('permute', pt.permute(v, (3, 1, 0, 2)), v.permute(3, 1, 0, 2).contiguous()),
                        ('permute None', pt.permute(v), v.permute(3, 2, 1, 0).contiguous()),
                        ('permute negative', pt.permute(v, (-1, 0, -2, 1)), v.permute(3, 0, 2, 1).contiguous()),
                        ('transpose', pt.transpose(v, 0, 2), v.transpose(0, 2).contiguous()),
                        ('transpose last two', pt.transpose(v), v.transpose(-2, -1).contiguous()),
                        ('contiguous', pt.contiguous(v), v.contiguous())):
    ok(got.shape == want.shape and got.stride() == want.stride() and got.dtype == want.dtype,
       f'{what}: shape {tuple(got.shape)}, strides {got.stride()} as torch\'s own', (got.stride(), want.stride()))
c = torch.randn(3, 4, device='meta')
ok(pt.contiguous(c) is c, 'contiguous of a contiguous tensor: the tensor itself')
out = torch.empty(5, 3, 4, device='meta')
ok(pt.permute(x.detach(), (2, 0, 1), out=out) is out, 'permute(x, axes, out=y) returns y')
raises(lambda: pt.permute(x, (0, 1)), ptxpose.InvalidArgument, r'axes: \(0, 1\) has 2 entries', 'a bad axes, named')
raises(lambda: pt.transpose(x, 0, 3), ptxpose.InvalidArgument, 'dim1 3 is out of range', 'a bad dim, named')

# ---- torch.compile: one graph, no break, dynamic shapes
graphs = []


def backend(gm, inputs):
    graphs.append(gm)
    return gm.forward


def f(x):
    a = pt.permute(x, (2, 0, 1))
    b = pt.transpose(a, 0, 1)
    return pt.contiguous(b.transpose(1, 2)) * 2


cf = torch.compile(f, backend=backend, fullgraph=True, dynamic=True)
shapes = []
for shape in ((3, 4, 5), (6, 7, 9)):
    y = cf(torch.randn(*shape, device='meta'))
    shapes.append(tuple(y.shape))
code = graphs[0].code if graphs else ''
ok(len(graphs) == 1 and shapes == [(3, 4, 5), (6, 7, 9)] and all(
   f'torch.ops.ptxpose.{n}' in code for n in ('permute', 'transpose', 'contiguous')),
   'torch.compile(fullgraph=True, dynamic=True): one graph holding the three operators, for two shapes', code)
ex = torch._dynamo.explain(f)(torch.randn(3, 4, 5, device='meta'))
ok(ex.graph_count == 1 and ex.graph_break_count == 0, f'torch._dynamo.explain: {ex.graph_count} graph, '
   f'{ex.graph_break_count} breaks')

# ---- autograd: the inverse permutation through the same operator
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: E402


class Calls(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if 'ptxpose' in str(func):
            self.seen.append((str(func), args[1:]))
        return func(*args, **(kwargs or {}))


for what, fn, want in (('permute (2, 0, 3, 1)', lambda t: pt.permute(t, (2, 0, 3, 1)),
                        ('ptxpose.permute.default', ([1, 3, 0, 2],))),
                       ('transpose (0, 2)', lambda t: pt.transpose(t, 0, 2), ('ptxpose.transpose.default', (0, 2)))):
    xg = torch.randn(2, 3, 4, 5, device='meta', requires_grad=True)
    y = fn(xg)
    with Calls() as calls:
        g, = torch.autograd.grad(y, xg, torch.randn(y.shape, device='meta'))
    ok(calls.seen == [want] and g.shape == xg.shape, f'backward of {what}: {calls.seen}', calls.seen)
xg = torch.randn(3, 4, device='meta', requires_grad=True)
ok(pt.contiguous(xg.t()).grad_fn is not None, 'contiguous keeps the graph (its backward: the gradient itself)')
finish()
