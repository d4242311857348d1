#!/usr/bin/env python3
# t1030-python-gpu: the ptxpose package on a real GPU with PyTorch (and CuPy
# where installed): every element type, odd, padded, batched, 4-D and
# misaligned views, each bit-exact against x.transpose(-1, -2).contiguous();
# the refusals of what cannot be done (a column-strided view, a 16-byte
# element 8-aligned); the array interface and DLPack paths; Plan (heuristic,
# measured, every kernel of a width by name); torch.cuda.graph capture and
# replay; stream order (a busy non-default stream, current or explicit: the
# transpose must see what was queued before it there). Skips where there is
# no CUDA device for PyTorch. JAX arrays where JAX sees the GPU (every
# width, x64 on; bit-exact against jnp.swapaxes; out= refused). Each
# section runs guarded: an exception is a `not ok` line naming it (its
# traceback as diagnostics), the rest still run and the plan is printed.
import os
import sys
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import finish, ok, raises, skip_all  # noqa: E402

try:
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError('torch.cuda.is_available() is False')
except Exception as e:  # noqa: BLE001
    skip_all(f'no CUDA device ({type(e).__name__}: {e})')
import ptxpose  # noqa: E402

INT = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64, 16: torch.int64}
DTYPES = (torch.uint8, torch.int8, torch.bool, torch.float16, torch.bfloat16, torch.int16, torch.float32,
          torch.int32, torch.float64, torch.complex64, torch.int64, torch.complex128)
g = torch.Generator(device='cuda').manual_seed(1)


def rand(shape, dt):
    """Random bits of any dtype (NaNs included: the comparison is of bits)."""
    n = 1
    for s in shape:
        n *= s
    w = torch.empty((), dtype=dt).element_size()
    b = torch.randint(0, 256, (n * w,), dtype=torch.uint8, device='cuda', generator=g)
    if dt == torch.bool:
        b &= 1
    return b.view(dt).view(shape)


def bits(t):
    """The bytes of t in C order. Flattened before the view: contiguous() keeps the stride of a
    dimension of size 1 (a (7, 1) transposed view has strides (1, 7)), and a view to a narrower
    dtype needs stride(-1) == 1."""
    return t.contiguous().reshape(-1).view(torch.uint8)


def exact(y, x):
    want = x.transpose(-1, -2)
    return y.shape == want.shape and y.dtype == want.dtype and torch.equal(bits(y), bits(want))


def guarded(fn):
    """Run one section; an exception is a failed line naming the section, not the end of the test."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        ok(False, f'{fn.__name__}: raised {type(e).__name__}: {e}'.splitlines()[0], traceback.format_exc())
    return fn



@guarded
def header():
    print(f'# {torch.cuda.get_device_name()}, torch {torch.__version__}, ptxpose {ptxpose.version()}, '
          f'{ptxpose.library_path()!r}')


SHAPES = [(67, 129), (1000, 3), (3, 1000), (1, 7), (7, 1), (513, 257), (2048, 2048)]
for dt in DTYPES:
    def every_shape(dt=dt):
        res = []
        for sh in SHAPES:
            x = rand(sh, dt)
            y = ptxpose.transpose(x)
            res.append(type(y) is torch.Tensor and y.dtype == dt and y.is_contiguous() and exact(y, x))
        ok(all(res), f'{dt}: {len(SHAPES)} shapes bit-exact', list(zip(SHAPES, res)))
    every_shape.__name__ = f'{dt}: {len(SHAPES)} shapes'
    guarded(every_shape)


@guarded
def views():
    big = rand((300, 520), torch.float32)
    x = big[5:260, 7:500]  # padded rows, an offset pointer
    ok(exact(ptxpose.transpose(x), x), 'a slice: padded rows, pointer 7 elements in')
    yb = torch.empty(520, 300, device='cuda')
    y = yb[:x.shape[1], :x.shape[0]]
    ok(ptxpose.transpose(x, out=y) is y and exact(y, x), 'out= a padded slice')
    x = rand((5, 67, 129), torch.float16)
    ok(exact(ptxpose.transpose(x), x), 'a batch of 5')
    x = rand((2, 3, 67, 129), torch.complex64)[:, :, 1:]
    ok(exact(ptxpose.transpose(x), x), '4-D with a row slice: a batch of 6, one batch stride')
    raises(lambda: ptxpose.transpose(rand((2, 3, 67, 129), torch.float32)[:, 1:]), ptxpose.Unsupported,
           'not one batch of evenly spaced matrices', 'leading dimensions that are not one batch: refused, named')
    x = rand((4, 300), torch.int8)[:, 1:]
    ok(exact(ptxpose.transpose(x), x), 'an odd pointer for 1-byte elements')
    for dt in (torch.float16, torch.float32, torch.float64):
        flat = rand((1 + 257 * 129,), dt)
        x = flat[1:].view(257, 129)
        ok(exact(ptxpose.transpose(x), x), f'{dt}: a pointer one element past alignment')


@guarded
def refusals():
    raises(lambda: ptxpose.transpose(rand((64, 33), torch.float32).t()), ptxpose.Unsupported,
           'the last dimension has stride 33', 'a column-strided view (x.t()): refused, named')
    base = torch.zeros(2 * 64 * 64 + 1, dtype=torch.float64, device='cuda')  # torch makes no such complex view

    class C16:
        __cuda_array_interface__ = dict(shape=(64, 64), typestr='<c16', data=(base.data_ptr() + 8, False), version=2)

    raises(lambda: ptxpose.transpose(C16(), out=torch.empty(64, 64, dtype=torch.complex128, device='cuda')),
           ptxpose.Misaligned, 'aligned to 8 bytes only', 'complex128 at an 8-byte aligned pointer: refused')
    raises(lambda: ptxpose.transpose(torch.ones(4, 4)), ptxpose.InvalidArgument, 'a host array', 'a CPU tensor')
    raises(lambda: ptxpose.transpose(torch.eye(4, device='cuda').to_sparse()), ptxpose.Unsupported,
           'layout torch.sparse_coo', 'a sparse tensor: refused, named')
    x = rand((64, 64), torch.float32)
    raises(lambda: ptxpose.transpose(x, out=x), ptxpose.InvalidArgument, 'overlap', 'out=x')


@guarded
def lazy_conjugate():
    x = torch.randn(33, 65, device='cuda', dtype=torch.complex64).conj()
    ok(exact(ptxpose.transpose(x), x.resolve_conj()), 'a lazy conjugate is resolved first')
    raises(lambda: ptxpose.transpose(x, torch.empty(65, 33, dtype=x.dtype, device='cuda').conj()),
           ptxpose.InvalidArgument, 'out: a torch.Tensor with a lazy conjugate',
           'a lazy-conjugate out: refused (it would not be written)')


class CAIOnly:
    def __init__(self, t):
        self.t, self.__cuda_array_interface__ = t, t.__cuda_array_interface__


class DLOnly:
    def __init__(self, t):
        self.t = t

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()

    def __dlpack__(self, stream=None):
        return self.t.__dlpack__(stream=stream)


@guarded
def interfaces():
    x = rand((67, 129), torch.float32)
    y = torch.empty(129, 67, device='cuda')
    ptxpose.transpose(CAIOnly(x), out=CAIOnly(y))
    ok(exact(y, x), 'the __cuda_array_interface__ path')
    y.zero_()
    ptxpose.transpose(DLOnly(x), out=y)
    ok(exact(y, x), 'the DLPack path')


@guarded
def plans():
    x, y = rand((4097, 4095), torch.float32), torch.empty(4095, 4097, device='cuda')
    p = ptxpose.Plan(x, y)
    ok(p.execute(x, y) is y and exact(y, x), f'Plan (heuristic): {p.info.kernel}')
    pm = ptxpose.Plan(x, y, mode='measure')
    y.zero_()
    pm.execute(x, y)
    ok(exact(y, x) and pm.info.measured_us > 0, f'Plan (measure): {pm.info.kernel}, {pm.info.measured_us:.1f} us, '
       f'{pm.info.timed} timed, from the cache {pm.info.from_cache}')
    bad = []
    for k in ptxpose.kernels():
        # a row copy serves N-d tiled copies, a pack kernel N-d tiles (t1031)
        if k.elem_bytes == 4 and ' op=copy' not in f' {k.meta}' and ' grid=pack' not in f' {k.meta}':
            y.zero_()
            try:
                ptxpose.Plan(x, y, kernel=k.name).execute(x, y)
            except ptxpose.Error as e:
                bad.append(f'{k.name}: {type(e).__name__}: {e}')
                continue
            if not exact(y, x):
                bad.append(f'{k.name}: not bit-exact')
    ok(not bad, 'every 4-byte transpose kernel by name, bit-exact', '\n'.join(bad))


@guarded
def graph_capture():
    x = rand((3, 1000, 999), torch.bfloat16)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        ptxpose.transpose(x)  # plans it
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y0 = ptxpose.transpose(x)
    x.copy_(rand(x.shape, x.dtype))
    graph.replay()
    torch.cuda.synchronize()
    ok(exact(y0, x), 'inside torch.cuda.graph: captured, and the replay transposes the current x')


@guarded
def streams():  # the transpose must be ordered after what is queued before it on its stream
    for how in ('current', 'explicit'):
        s = torch.cuda.Stream()
        x, src = torch.zeros(2048, 2048, device='cuda'), rand((2048, 2048), torch.float32)
        y = torch.empty(2048, 2048, device='cuda')
        torch.cuda.synchronize()
        with torch.cuda.stream(s):
            torch.cuda._sleep(50_000_000)  # tens of ms: the default stream would transpose the zeros
            x.copy_(src)
        if how == 'current':
            with torch.cuda.stream(s):
                ptxpose.transpose(x, out=y)
        else:
            ptxpose.transpose(x, out=y, stream=s)
        s.synchronize()
        ok(exact(y, src), f'a busy non-default stream ({how}): the transpose ran after the copy queued before it')
    s = torch.cuda.Stream()
    src = rand((1024, 1024), torch.complex64)
    x, y = torch.zeros_like(src), torch.empty_like(src)
    torch.cuda.synchronize()
    with torch.cuda.stream(s):
        torch.cuda._sleep(50_000_000)
        x.copy_(src)
    ptxpose.transpose(x.conj(), out=y, stream=s)
    s.synchronize()
    ok(exact(y, src.conj().resolve_conj()), 'a lazy conjugate on a busy explicit stream: resolved on it, after the copy')


@guarded
def cupy_arrays():
    try:
        import cupy
    except Exception as e:  # noqa: BLE001
        print(f'# CuPy: not installed ({type(e).__name__}), its tests left out')
        return
    res = []
    for dt in ('uint8', 'float16', 'float32', 'float64', 'complex128'):
        t = rand((67, 129), getattr(torch, dt))
        torch.cuda.synchronize()  # made on torch's stream, read on CuPy's
        a = cupy.asarray(t)
        b = ptxpose.transpose(a)
        want = cupy.ascontiguousarray(a.T)
        res.append(type(b) is cupy.ndarray and b.shape == want.shape and b.dtype == want.dtype
                   and bool((b.ravel().view(cupy.uint8) == want.ravel().view(cupy.uint8)).all()))
    ok(all(res), 'CuPy: every width, a cupy.ndarray back, bit-exact against a.T', res)
    a = cupy.arange(6 * 70 * 90, dtype=cupy.float32).reshape(6, 70, 90)[:, 3:, 5:]
    ok(bool((ptxpose.transpose(a) == a.swapaxes(-1, -2)).all()), 'CuPy: a batched, padded, offset view')
    cs = cupy.cuda.Stream(non_blocking=True)
    a = cupy.zeros((2048, 2048), dtype=cupy.float32)
    cupy.cuda.runtime.deviceSynchronize()
    with cs:
        with torch.cuda.stream(torch.cuda.ExternalStream(cs.ptr)):
            torch.cuda._sleep(50_000_000)  # the stream is busy: elsewhere, the transpose would see zeros
        a += 1
        b = ptxpose.transpose(a)
    cs.synchronize()
    ok(bool((b == 1).all()), "CuPy: on CuPy's current stream")


def jax_arrays():
    """JAX: every width (64-bit ones with jax_enable_x64), odd shapes and batches, each a jax.Array on
    x's device, bit-exact against jnp.swapaxes; out= a JAX array refused. One line per case."""
    os.environ.setdefault('XLA_PYTHON_CLIENT_PREALLOCATE', 'false')  # leave torch its memory
    try:
        import jax
        import jax.numpy as jnp
        jax.config.update('jax_enable_x64', True)
        if not jax.devices('gpu'):
            raise RuntimeError('no JAX GPU device')
    except Exception as e:  # noqa: BLE001
        print(f'# JAX: not usable on the GPU ({type(e).__name__}: {e}), its tests left out')
        return
    print(f'# jax {jax.__version__}, {jax.devices("gpu")[0]}')
    key = [jax.random.PRNGKey(1)]

    def rand_jax(shape, dt):
        """Random bits of dt on the GPU, made by JAX (still pending when ptxpose reads them)."""
        key[0], k = jax.random.split(key[0])
        dt = jnp.dtype(jnp.bool_ if dt == 'bool' else getattr(jnp, dt) if isinstance(dt, str) else dt)
        if dt == jnp.bool_:
            return (jax.random.bits(k, shape, jnp.uint8) & 1).astype(jnp.bool_)
        if jnp.issubdtype(dt, jnp.complexfloating):
            part = jnp.float32 if dt == jnp.complex64 else jnp.float64
            re, im = (rand_jax(shape, part) for _ in range(2))
            return jax.lax.complex(re, im)
        u = jax.random.bits(k, shape, jnp.dtype(f'uint{8 * dt.itemsize}'))
        return jax.lax.bitcast_convert_type(u, dt)

    def same_bits(y, want):
        if y.shape != want.shape or y.dtype != want.dtype:
            return False
        if jnp.issubdtype(y.dtype, jnp.complexfloating):
            return same_bits(jnp.real(y), jnp.real(want)) and same_bits(jnp.imag(y), jnp.imag(want))
        if y.dtype == jnp.bool_:
            return bool(jnp.array_equal(y, want))
        u = jnp.dtype(f'uint{8 * y.dtype.itemsize}')
        return bool(jnp.array_equal(jax.lax.bitcast_convert_type(y, u), jax.lax.bitcast_convert_type(want, u)))

    shapes = [(67, 129), (1000, 3), (1, 7), (7, 1), (513, 257), (3, 33, 31), (2, 3, 5, 7)]
    for dt in ('uint8', 'int8', 'bool', 'float16', 'bfloat16', 'int16', 'uint16', 'float32', 'int32', 'uint32',
               'float64', 'int64', 'complex64', 'complex128'):
        def jax_width(dt=dt):
            res = []
            for sh in shapes:
                x = rand_jax(sh, dt)
                y = ptxpose.transpose(x)
                res.append(isinstance(y, jax.Array) and y.devices() == x.devices()
                           and same_bits(y, jnp.swapaxes(x, -1, -2)))
            ok(all(res), f'JAX {dt}: {len(shapes)} shapes, a jax.Array on x\'s device, bit-exact against '
               f'jnp.swapaxes', list(zip(shapes, res)))
        jax_width.__name__ = f'JAX {dt}'
        guarded(jax_width)

    def jax_use():
        key[0], k = jax.random.split(key[0])
        x = jax.random.uniform(k, (300, 500), jnp.float32)  # no NaN: x + 1 has one set of bits
        y = ptxpose.transpose(x)
        z = ptxpose.transpose(y + 1)  # JAX computes on the result, ptxpose reads JAX's pending result
        ok(same_bits(z, x + 1) and same_bits(y, x.T), 'JAX: the result used by JAX and transposed back')
        raises(lambda: ptxpose.transpose(x, out=jnp.zeros((500, 300), jnp.float32)), ptxpose.InvalidArgument,
               'immutable', 'JAX: out= a jax.Array refused')
        del y
        ok(same_bits(x + 1, z), 'JAX: x still usable after its results are gone')
    guarded(jax_use)


guarded(jax_arrays)


finish()
