#!/usr/bin/env python3
# t1035-python-compile-gpu: ptxpose inside compiled and differentiated programs, on a GPU.
# torch: torch.compile(fullgraph=True, dynamic=True) (Inductor) of a function that permutes,
# transposes and makes contiguous: no graph break, bit-exact against torch's own ops on random
# bits, for shapes of several sizes; autograd: gradcheck in f64 and a training step whose
# gradients equal those through torch's own ops; the operators captured in a CUDA graph and
# replayed. JAX (where JAX sees the GPU): jit, vmap and grad bit-exact against jnp.transpose.
# Host overhead, medians of interleaved rounds: the compiled operator path against torch's own
# x.permute(p).contiguous() compiled the same way, and eager ptxpose.permute(x, p, out=y)
# against y.copy_(x.permute(p)) (within 1 us). Each section runs guarded; skips where torch has
# no CUDA device. The package page's torch.compile and jax.jit examples run as written. Figures go to $OUT/t1035-figures.txt where $OUT is set, and last, as a table.
import os
import statistics
import sys
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import cuda_torch, finish, gpu_jax, ok  # noqa: E402

torch = cuda_torch()
import ptxpose  # noqa: E402
import ptxpose.torch as pt  # noqa: E402

g = torch.Generator(device='cuda').manual_seed(35)
table = []


def rand(shape, dt=torch.float32):
    """Random bits of a dtype (NaNs included: comparisons are of bits)."""
    w = torch.empty((), dtype=dt).element_size()
    ints = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[w]
    n = 1
    for s in shape:
        n *= s
    b = torch.randint(0, 256, (n * w,), dtype=torch.uint8, device='cuda', generator=g)
    return b.view(ints).view(dt).reshape(shape)


def same(a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    w = a.element_size()
    ints = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[w]
    return bool(torch.equal(a.contiguous().view(ints), b.contiguous().view(ints)))


def section(name, fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        ok(False, f'{name}: {type(e).__name__}: {e}', traceback.format_exc())


# ---- torch.compile: no graph break, bit-exact, dynamic shapes
def f(x):
    a = pt.permute(x, (2, 0, 1))
    b = pt.transpose(a, 0, 1)
    return pt.contiguous(b.transpose(1, 2))


def ref(x):
    return x.permute(2, 0, 1).transpose(0, 1).contiguous().transpose(1, 2).contiguous()


def compiled():
    torch._dynamo.reset()
    ex = torch._dynamo.explain(f)(rand((3, 4, 5)))
    ok(ex.graph_count == 1 and ex.graph_break_count == 0, f'explain: {ex.graph_count} graph, '
       f'{ex.graph_break_count} breaks', ex.break_reasons)
    cf = torch.compile(f, fullgraph=True, dynamic=True)
    res = []
    for shape, dt in (((3, 4, 5), torch.float32), ((67, 129, 33), torch.float32), ((17, 1, 1000), torch.float16),
                      ((64, 256, 96), torch.bfloat16), ((5, 7, 9), torch.float64), ((2, 513, 4), torch.uint8)):
        x = rand(shape, dt)
        res.append((shape, str(dt), same(cf(x), ref(x))))
    ok(all(r[2] for r in res), 'torch.compile(fullgraph=True, dynamic=True): bit-exact on 6 shapes and dtypes', res)
    frames = torch._dynamo.utils.counters['stats']['unique_graphs']
    ok(frames <= 3, f'dynamic shapes: {frames} graphs compiled for 6 shapes (dtype changes recompile)', frames)


section('torch.compile', compiled)


# ---- autograd
def autograd():
    x = torch.randn(3, 4, 5, dtype=torch.float64, device='cuda', requires_grad=True)
    ok(torch.autograd.gradcheck(lambda t: pt.permute(t, (2, 0, 1)), (x,)), 'gradcheck (f64): permute')
    ok(torch.autograd.gradcheck(lambda t: pt.transpose(t, 0, 2), (x,)), 'gradcheck (f64): transpose')
    ok(torch.autograd.gradcheck(lambda t: pt.contiguous(t.transpose(0, 1)), (x,)), 'gradcheck (f64): contiguous')
    torch.manual_seed(3)
    w1 = torch.randn(32, 48, device='cuda', requires_grad=True)
    w2 = w1.detach().clone().requires_grad_(True)
    xb = torch.randn(8, 16, 32, device='cuda')
    loss1 = (pt.permute(xb @ w1, (0, 2, 1)) ** 2).mean()
    loss2 = ((xb @ w2).permute(0, 2, 1).contiguous() ** 2).mean()
    loss1.backward()
    loss2.backward()
    ok(torch.equal(loss1, loss2) and torch.equal(w1.grad, w2.grad), 'a training step: the loss and the gradient '
       'equal those through torch\'s own permute, bit for bit')


section('autograd', autograd)


# ---- CUDA graphs
def graphs():
    x = rand((33, 65, 7))
    y = torch.empty(7, 33, 65, device='cuda')
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        pt.permute(x, (2, 0, 1), out=y)  # planned outside the capture
        z = pt.transpose(x, 0, 1)
    torch.cuda.current_stream().wait_stream(s)
    gr = torch.cuda.CUDAGraph()
    with torch.cuda.graph(gr):
        pt.permute(x, (2, 0, 1), out=y)
        z = pt.transpose(x, 0, 1)
    x.copy_(rand((33, 65, 7)))
    y.zero_()
    gr.replay()
    torch.cuda.synchronize()
    ok(same(y, x.permute(2, 0, 1)) and same(z, x.transpose(0, 1)), 'captured in a CUDA graph: replayed on new '
       'values, bit-exact')


section('CUDA graphs', graphs)


# ---- JAX
def jax_section():
    jax = gpu_jax('JAX')
    if jax is None:
        return
    import jax.numpy as jnp
    import numpy as np
    import ptxpose.jax as pj
    key = jax.random.PRNGKey(0)
    res = []
    for shape, perm, dt in (((3, 4, 5), (2, 0, 1), jnp.float32), ((67, 129), (1, 0), jnp.float16),
                            ((2, 3, 4, 5), (3, 1, 0, 2), jnp.int32), ((1000, 17), None, jnp.bfloat16)):
        x = jax.random.bits(key, shape, jnp.uint32 if jnp.dtype(dt).itemsize == 4 else jnp.uint16).view(dt) \
            if jnp.dtype(dt).itemsize in (2, 4) else jnp.arange(np.prod(shape), dtype=dt).reshape(shape)
        y = jax.jit(lambda a: pj.permute(a, perm))(x)
        res.append(bool(np.array_equal(np.asarray(y).view(np.uint8), np.asarray(jnp.transpose(x, perm)).view(np.uint8))))
    ok(all(res), 'jax.jit: bit-exact against jnp.transpose (4 shapes and dtypes)', res)
    xs = jax.random.normal(key, (6, 33, 17))
    ok(bool(jnp.array_equal(jax.jit(jax.vmap(lambda a: pj.transpose(a)))(xs), jnp.swapaxes(xs, -1, -2))),
       'jax.vmap (in jit): bit-exact against jnp.swapaxes')
    w = jax.random.normal(key, (5, 7, 3))
    gp = jax.grad(lambda a: (pj.permute(a, (2, 0, 1)) * jnp.transpose(w, (2, 0, 1))).sum())(w * 0 + 1)
    gj = jax.grad(lambda a: (jnp.transpose(a, (2, 0, 1)) * jnp.transpose(w, (2, 0, 1))).sum())(w * 0 + 1)
    ok(bool(jnp.array_equal(gp, gj)), 'jax.grad: bit-exact against jnp.transpose\'s')


section('JAX', jax_section)


# ---- the examples of python/README.md (the package's page): each block run as it is
def readme():
    import re
    from pytap import ROOT
    text = open(os.path.join(ROOT, 'python', 'README.md')).read()
    blocks = re.findall(r'```python\n(.*?)```', text, re.S)
    tb = [b for b in blocks if 'torch.compile' in b]
    ns = {}
    exec(tb[0], ns)
    x = ns['y'].detach()
    ok(len(tb) == 1 and tuple(x.shape) == (8, 16, 128, 64), "the page's torch.compile example runs", x.shape)
    jb = [b for b in blocks if 'jax.jit' in b]
    if gpu_jax('the jax.jit example') is None:
        return
    ns = {}
    exec(jb[0], ns)
    ok(len(jb) == 1 and ns['y'].shape == (4, 512, 256) and bool((ns['y'] == 1).all()),
       "the page's jax.jit example runs", ns['y'].shape)


section('README examples', readme)


# ---- host overhead
def timed(fn, n=200):
    for _ in range(20):
        fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    us = (time.perf_counter() - t0) / n * 1e6
    torch.cuda.synchronize()
    return us


def overhead():
    x = rand((64, 64, 8))
    y = torch.empty(8, 64, 64, device='cuda')
    p = (2, 0, 1)
    own = torch.compile(lambda a: a.permute(2, 0, 1).contiguous(), fullgraph=True)
    ours = torch.compile(lambda a: pt.permute(a, p), fullgraph=True)
    cases = {'torch.compile: x.permute(p).contiguous()': lambda: own(x),
             'torch.compile: ptxpose.torch.permute(x, p)': lambda: ours(x),
             'eager: y.copy_(x.permute(p))': lambda: y.copy_(x.permute(p)),
             'eager: x.permute(p).contiguous()': lambda: x.permute(p).contiguous(),
             'eager: ptxpose.permute(x, p, out=y)': lambda: ptxpose.permute(x, p, out=y),
             'eager: torch.ops.ptxpose.permute(x, p)': lambda: torch.ops.ptxpose.permute(x, list(p))}
    rounds = {k: [] for k in cases}
    for _ in range(5):
        for k, fn in cases.items():
            rounds[k].append(timed(fn))
    fig = {k: statistics.median(v) for k, v in rounds.items()}
    for k, v in fig.items():
        table.append((k, v))
    ok(fig['torch.compile: ptxpose.torch.permute(x, p)'] <= fig['torch.compile: x.permute(p).contiguous()'],
       'the compiled operator path is no slower than torch\'s own, compiled the same way', fig)
    ok(fig['eager: ptxpose.permute(x, p, out=y)'] <= fig['eager: y.copy_(x.permute(p))'] + 1.0,
       'eager ptxpose.permute(x, p, out=y) within 1 us of y.copy_(x.permute(p))', fig)


section('host overhead', overhead)

dev = torch.cuda.get_device_name()
lines = [f'# {dev}, torch {torch.__version__}, ptxpose {ptxpose.version()}; 64x64x8 float32, perm (2, 0, 1), '
         f'median of 5 rounds of 200 calls, us a call'] + [f'# {k:48s} {v:8.2f}' for k, v in table]
out = os.environ.get('OUT')
if out:
    with open(os.path.join(out, 't1035-figures.txt'), 'w') as fh:
        fh.write('\n'.join(lines) + '\n')
print('\n'.join(lines))
finish()
