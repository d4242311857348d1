#!/usr/bin/env python3
# t1031-python-permute-gpu: ptxpose.permute on a real GPU with PyTorch, each
# result bit-exact against x.permute(p).contiguous(): every permutation of
# rank 3 and 4 on odd extents, random ones of ranks 5 to 8 (seeded), the
# deep-learning permutations (attention heads, NCHW <-> NHWC, 3-D reversal)
# at small sizes, every element width, strided and offset views, out= with
# gaps, a permutation over 2^31 elements and one whose reduced batch needs
# more than 65535 blocks of the grid's z; busy streams (current and explicit),
# torch.cuda.graph capture, CuPy and JAX arrays; none may raise (every class has
# its kernels). Skips where there is no CUDA device for PyTorch.
import itertools
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import finish, ok, skip_all  # noqa: E402

try:
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError('torch.cuda.is_available() is False')
except Exception as e:  # noqa: BLE001
    skip_all(f'no CUDA device ({type(e).__name__}: {e})')
import ptxpose  # noqa: E402

g = torch.Generator(device='cuda').manual_seed(2)
WIDTH = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64, 16: torch.complex128}
unsupported = {}


def rand(shape, dt):
    n = 1
    for s in shape:
        n *= s
    w = torch.empty((), dtype=dt).element_size()
    return torch.randint(0, 256, (n * w,), dtype=torch.uint8, device='cuda', generator=g).view(dt).view(shape)


def bits(t):
    return t.contiguous().reshape(-1).view(torch.uint8)


def case(x, perm, desc, out=None):
    want = x.permute(perm)
    try:
        y = ptxpose.permute(x, perm, out=out)
    except ptxpose.Unsupported as e:
        unsupported[desc] = e.message
        return
    torch.cuda.synchronize()
    ok(y.shape == want.shape and torch.equal(bits(y), bits(want)), f'{desc}: bit-exact')


for r, shape in ((3, (5, 7, 9)), (4, (3, 5, 4, 7))):
    for perm in itertools.permutations(range(r)):
        for w, dt in WIDTH.items():
            case(rand(shape, dt), perm, f'{shape} perm {perm} {w}B')
rng = random.Random(5)
for r in range(5, 9):
    for k in range(6):
        shape = tuple(rng.choice((1, 2, 3, 5, 7, 16)) for _ in range(r))
        perm = tuple(rng.sample(range(r), r))
        w = rng.choice(list(WIDTH))
        case(rand(shape, WIDTH[w]), perm, f'rank {r} {shape} perm {perm} {w}B')
for shape, perm in (((4, 128, 8, 64), (0, 2, 1, 3)), ((4, 32, 28, 28), (0, 2, 3, 1)), ((4, 28, 28, 32), (0, 3, 1, 2)),
                    ((64, 65, 66), (2, 1, 0)), ((64, 65, 66), (1, 0, 2))):
    for w in (1, 2, 4):
        case(rand(shape, WIDTH[w]), perm, f'{shape} perm {perm} {w}B')
# views: a strided input, an offset pointer, out= with gaps
x = rand((6, 10, 12), torch.float32)[:, 1:9, ::1]
case(x, (2, 0, 1), 'a sliced input (rows 1..8 of 10)')
x = rand((6 * 8 * 10 + 1,), torch.int16)[1:].view(6, 8, 10)
case(x, (2, 1, 0), 'an input 2 bytes past its allocation')
x = rand((5, 6, 7), torch.float64)
big = torch.empty((7, 6, 9), dtype=torch.float64, device='cuda')
out = big[:, :, :5]
case(x, (2, 1, 0), 'out= a view with gaps', out)
ok(torch.equal(bits(out), bits(x.permute(2, 1, 0))), '... and only its elements')
# huge: over 2^31 elements; a batch past 65535 matrices of the grid's z
free, _ = torch.cuda.mem_get_info()
if free > 6 * 2**30:
    x = rand((2, 1 << 15, 1 << 15), torch.uint8)  # 2^31 bytes
    case(x, (2, 1, 0), '2 x 2^15 x 2^15 bytes (2^31 elements), reversed')
    del x
x = rand((3, 70000, 4, 5), torch.int32)
case(x, (3, 1, 2, 0), '3x70000x4x5 perm (3,1,2,0): 70000 matrices along the grid\'s z')
# streams: the current one and an explicit one, busy: the permutation must run after what is queued there
for how in ('current', 'explicit'):
    st = torch.cuda.Stream()
    src = rand((64, 48, 40), torch.float32)
    x, y = torch.zeros_like(src), torch.empty((40, 64, 48), dtype=torch.float32, device='cuda')
    torch.cuda.synchronize()
    with torch.cuda.stream(st):
        torch.cuda._sleep(50_000_000)  # tens of ms: on the default stream it would permute the zeros
        x.copy_(src)
    if how == 'current':
        with torch.cuda.stream(st):
            ptxpose.permute(x, (2, 0, 1), out=y)
    else:
        ptxpose.permute(x, (2, 0, 1), out=y, stream=st)
    st.synchronize()
    ok(torch.equal(bits(y), bits(src.permute(2, 0, 1))),
       f'a busy non-default stream ({how}): the permutation ran after the copy queued before it')
# inside torch.cuda.graph: planned outside, captured, the replay permutes the current x
for shape, perm in (((8, 64, 16, 32), (0, 2, 1, 3)), ((16, 17, 18, 19), (3, 1, 2, 0))):
    x = rand(shape, torch.float16)
    st = torch.cuda.Stream()
    st.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(st):
        ptxpose.permute(x, perm)  # plans it
    torch.cuda.current_stream().wait_stream(st)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y0 = ptxpose.permute(x, perm)
    x.copy_(rand(shape, torch.float16))
    graph.replay()
    torch.cuda.synchronize()
    ok(torch.equal(bits(y0), bits(x.permute(perm))), f'{shape} perm {perm}: captured in torch.cuda.graph, replayed')
# CuPy and JAX arrays, where they are installed: a result of their kind, bit-exact
try:
    import cupy
    a = cupy.asarray(rand((6, 7, 8, 9), torch.int32))
    b = ptxpose.permute(a, (3, 1, 0, 2))
    cupy.cuda.runtime.deviceSynchronize()
    want = cupy.ascontiguousarray(a.transpose(3, 1, 0, 2))
    ok(type(b) is cupy.ndarray and b.shape == want.shape and bool((b == want).all()), 'CuPy: a cupy.ndarray back, exact')
except ImportError:
    print('# CuPy not installed: left out')
os.environ.setdefault('XLA_PYTHON_CLIENT_PREALLOCATE', 'false')
try:
    import jax
    import jax.numpy as jnp
    jax_gpu = bool(jax.devices('gpu'))
except Exception as e:  # noqa: BLE001
    jax_gpu = False
    print(f'# JAX: not usable on the GPU ({type(e).__name__}), left out')
if jax_gpu:
    for shape, perm, dt in (((5, 6, 7), (2, 0, 1), jnp.float32), ((4, 128, 8, 64), (0, 2, 1, 3), jnp.int16),
                            ((3, 4, 5, 6), (3, 2, 1, 0), jnp.uint8)):
        u = jnp.dtype(f'uint{8 * jnp.dtype(dt).itemsize}')  # the bits: random, and compared, as unsigned
        xj = jax.lax.bitcast_convert_type(jax.random.bits(jax.random.PRNGKey(3), shape, u), dt)
        yj = ptxpose.permute(xj, perm)
        want = jnp.transpose(xj, perm)
        same = yj.shape == want.shape and bool(jnp.array_equal(jax.lax.bitcast_convert_type(yj, u),
                                                               jax.lax.bitcast_convert_type(want, u)))
        ok(isinstance(yj, jax.Array) and same, f'JAX {jnp.dtype(dt).name} {shape} perm {perm}: a jax.Array, exact')
print(f'# Unsupported in this build: {len(unsupported)} cases')
for k, v in list(unsupported.items())[:8]:
    print(f'#   {k}: {v}')
ok(not unsupported, f'no case Unsupported ({len(unsupported)})')
finish()
