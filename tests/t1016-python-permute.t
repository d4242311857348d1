#!/usr/bin/env python3
# t1016-python-permute: ptxpose.permute(x, perm, out=y) against the fake driver
# (tests/fakecuda: a CPU transpose per kernel ABI v2 for a kernel, host
# memory for device memory), on CAI arrays it allocates: every permutation of
# rank 2 and 3 and a set of rank 4-5 ones whose reduction the library serves
# with kernel ABI v2 (a copy, or a transpose over at most one batch dim),
# every width, padded and offset views, out=, transposes over a batch of
# several dims (kernel ABI v3), tiled copies; each result checked element by
# element against the permutation computed here. Every bad input is an
# Error naming the value, before anything reaches the device.
import ctypes
import itertools
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import finish, ok, raises  # noqa: E402

import fakearrays  # noqa: E402
from fakearrays import WIDTH, Arr, Dev, cu  # noqa: E402
import ptxpose  # noqa: E402


def permuted(x, perm):
    """The elements of x.transpose(perm), in C order of the result."""
    e, shape = x.elements(), x.shape
    st = [1] * len(shape)  # C-order element strides of x's element list
    for k in range(len(shape) - 2, -1, -1):
        st[k] = st[k + 1] * shape[k + 1]
    out_shape = [shape[p] for p in perm]
    return [e[sum(i * st[p] for i, p in zip(idx, perm))] for idx in itertools.product(*map(range, out_shape))]


def padded(shape, dtype):
    """A C-contiguous result with room past its span (the fake checks whole rows of its 2-D view)."""
    w = WIDTH.get(dtype, int(dtype[2:]))
    n = w
    for s in shape:
        n *= s
    return Arr(shape, dtype, mem=Dev(4 * n + 4096))


def check(shape, perm, dt, seed, strides=None, offset=0, desc=''):
    x = Arr(shape, dt, strides=strides, offset=offset, mem=Dev(8 * (offset + 64 + WIDTH[dt] * (
        1 + sum((n - 1) * (s if strides else 1) for n, s in zip(shape, strides or [1] * len(shape)))) * 64)))
    x.fill(seed)
    y = padded(tuple(shape[p] for p in perm), dt)
    got = ptxpose.permute(x, perm, out=y)
    cu('cuStreamSynchronize', None)
    ok(got is y and y.elements() == permuted(x, perm), f'{dt} {shape} perm {perm}{desc}')


# ---- every permutation of rank 2 and 3, every width
for i, perm in enumerate(itertools.permutations(range(3))):
    for j, dt in enumerate(WIDTH):
        check((3, 5, 7), perm, dt, 10 * i + j)
for perm in itertools.permutations(range(2)):
    check((33, 31), perm, '<f4', 7)
# ---- rank 4 and 5 problems that reduce to a copy or a transpose over one batch dim
for shape, perm in [((2, 3, 4, 5), (0, 2, 3, 1)), ((2, 3, 4, 5), (0, 3, 1, 2)), ((3, 4, 5, 6), (2, 3, 0, 1)),
                    ((1, 7, 1, 9), (3, 1, 2, 0)), ((2, 3, 4, 5), (0, 1, 2, 3)), ((2, 1, 3, 1, 4), (4, 3, 2, 1, 0)),
                    ((4, 6, 2, 3, 5), (0, 1, 4, 2, 3))]:
    check(shape, perm, '<f8', 3)
# ---- transposes over a batch of several dims (kernel ABI v3)
for shape, perm in [((3, 4, 5, 6), (3, 2, 1, 0)), ((2, 3, 4, 5, 6), (4, 1, 3, 0, 2)), ((2, 2, 2, 2, 2, 2, 3), (6, 4, 2, 0, 1, 3, 5))]:
    for dt in ('|u1', '<f4', '<c16'):
        check(shape, perm, dt, 11)
# ---- views: padded rows, an offset pointer, a result with gaps
check((5, 6, 7), (2, 0, 1), '<f4', 4, strides=(6 * 9 * 4, 9 * 4, 4), desc=', rows padded to 9')
check((5, 6, 7), (2, 0, 1), '|u1', 5, offset=1, desc=', pointer 1 byte off')
x = Arr((4, 6, 8), '<f4', mem=Dev(4096))
x.fill(6)
y = Arr((8, 4, 6), '<f4', strides=(4 * 7 * 4, 7 * 4, 4), mem=Dev(8192))
ptxpose.permute(x, (2, 0, 1), out=y)
cu('cuStreamSynchronize', None)
got = [y.elements()[k] for k in range(len(y.elements()))]
ok(got == permuted(x, (2, 0, 1)), 'out= with padded rows (its strides honoured)')
# ---- NumPy's and torch's conventions: axes None reverses, negative axes, transpose(dim0, dim1),
# ascontiguousarray, keyword-only out
def poisoned(shape, dt='<f4'):
    y = padded(shape, dt)
    cu('cuMemsetD8_v2', fakearrays.U64(y.mem.ptr), 0xA5, y.mem.nbytes)
    return y


x = Arr((3, 5, 7), '<f4', mem=Dev(4096))
x.fill(21)
for axes, want, what in ((None, (2, 1, 0), 'permute(x): the axes reversed, as numpy.transpose(x)'),
                         ((-1, 0, -2), (2, 0, 1), 'negative axes count from the end'),
                         ((0, -1, 1), (0, 2, 1), '(0, -1, 1) is (0, 2, 1)')):
    y = poisoned(tuple(x.shape[a] for a in want))
    got = ptxpose.permute(x, axes, out=y) if axes is not None else ptxpose.permute(x, out=y)
    cu('cuStreamSynchronize', None)
    ok(got is y and y.elements() == permuted(x, want), what)
for dims, want in (((0, 2), (2, 1, 0)), ((-3, -2), (1, 0, 2)), ((-1, -2), (0, 2, 1)), ((1, 2), (0, 2, 1)),
                   ((1, 1), (0, 1, 2))):
    y = poisoned(tuple(x.shape[a] for a in want))
    got = ptxpose.transpose(x, *dims, out=y)
    cu('cuStreamSynchronize', None)
    ok(got is y and y.elements() == permuted(x, want), f'transpose(x, {dims[0]}, {dims[1]}): x.transpose{want}, '
       f'materialized')
xv = Arr((5, 6), '<f4', strides=(9 * 4, 4), mem=Dev(4096))
xv.fill(22)
y = ptxpose.ascontiguousarray(xv)
cu('cuStreamSynchronize', None)
ok(type(y) is Arr and y.shape == (5, 6) and y.strides == (24, 4) and y.elements() == xv.elements(),
   'ascontiguousarray of rows padded to 9: a C-contiguous copy, exact')
ok(ptxpose.ascontiguousarray(x) is x, 'ascontiguousarray of a C-contiguous array: the array itself')
y = poisoned((3, 5, 7))
ok(ptxpose.ascontiguousarray(x, out=y) is y and (cu('cuStreamSynchronize', None) or True)
   and y.elements() == x.elements(), 'ascontiguousarray(x, out=y): a copy into out, even of a C-contiguous x')
raises(lambda: ptxpose.permute(x, 1, 0), TypeError, 'positional argument', 'permute(x, 1, 0): a TypeError '
       '(axes is one sequence; out is keyword-only)')
raises(lambda: ptxpose.permute(x, (0, -4, 1)), ptxpose.InvalidArgument, re.escape('axes[1] = -4 is out of range'),
       'an axis below -rank')
raises(lambda: ptxpose.permute(x, (0, -1, 2)), ptxpose.InvalidArgument, re.escape('axes[2] = 2 repeats dimension 2'),
       'an axis repeated through its negative form')
e = raises(lambda: ptxpose.transpose(x, y), ptxpose.InvalidType, 'dim0: a fakearrays.Arr is not a dimension .*out= '
           'is keyword-only', 'transpose(x, y): the array taken for dim0 is named, out= keyword-only')
ok(isinstance(e, TypeError), '... a TypeError')
raises(lambda: ptxpose.transpose(x, 0, 3), ptxpose.InvalidArgument, 'dim1 3 is out of range for a 3-d array',
       'a dim out of range')
raises(lambda: ptxpose.transpose(x, 0.5), ptxpose.InvalidType, 'dim0 0.5 is not a dimension', 'a float dim')
raises(lambda: ptxpose.permute(x, 'abc'), ptxpose.InvalidType, 'axes: a str is not a sequence', 'axes as a str')
# ---- a result of the caller's kind
x = Arr((3, 4, 5), '<f4')
x.fill(8)
y = ptxpose.permute(x, [2, 1, 0])
cu('cuStreamSynchronize', None)
ok(type(y) is Arr and y.shape == (5, 4, 3) and y.elements() == permuted(x, (2, 1, 0)),
   'no out=: a new array of the caller\'s kind, permuted')
# ---- tiled copies (the same fastest dim on both sides: row copies, op=copy), one and several batch dims
for shape, perm in [((2, 3, 4, 8), (1, 0, 2, 3)), ((3, 5, 7), (1, 0, 2)), ((2, 4, 3, 5), (0, 2, 1, 3)),
                    ((2, 3, 2, 3, 6), (3, 1, 2, 0, 4))]:
    for dt in ('|u1', '<f4', '<c16'):
        check(shape, perm, dt, 12)
# ---- streams: explicit, the CAI v3 one, a stream object; captured into a graph (run by the graph only)
VP = ctypes.c_void_p
st, g, ge = VP(), VP(), VP()
cu('cuStreamCreate', ctypes.byref(st), 1)


def captured(call, x, y, perm):
    cu('cuStreamBeginCapture_v2', st, 0)
    try:
        call()
    except ptxpose.Error as e:
        print(f'# {e}')
        cu('cuStreamEndCapture', st, ctypes.byref(g), check=False)
        return False
    cu('cuStreamEndCapture', st, ctypes.byref(g))
    before = y.elements()
    cu('cuGraphInstantiateWithFlags', ctypes.byref(ge), g, 0)
    cu('cuGraphLaunch', ge, st)
    cu('cuStreamSynchronize', st)
    return before != permuted(x, perm) and y.elements() == permuted(x, perm)


class TorchStream:
    cuda_stream = st.value


for shape, perm, what in [((4, 6, 8), (2, 0, 1), 'a transpose'), ((3, 4, 5, 6), (3, 2, 1, 0), 'a batch of 2 dims'),
                          ((3, 5, 8), (1, 0, 2), 'a tiled copy')]:
    x = Arr(shape, '<f4', mem=Dev(8192))
    x.fill(13)
    y = padded(tuple(shape[k] for k in perm), '<f4')
    ptxpose.permute(x, perm, out=y)  # plans it: the capture then holds only the launch
    cu('cuStreamSynchronize', None)
    y.clear()
    ok(captured(lambda: ptxpose.permute(x, perm, out=y, stream=st.value), x, y, perm),
       f'{what}: stream= an int: the launch went to that stream (captured, run by the graph only)')
    y.clear()
    xs = Arr(shape, '<f4', mem=x.mem, stream=st.value)
    ok(captured(lambda: ptxpose.permute(xs, perm, out=y), x, y, perm), f"{what}: no stream=: the array's CAI v3 stream")
    y.clear()
    ok(captured(lambda: ptxpose.permute(x, perm, out=y, stream=TorchStream()), x, y, perm),
       f'{what}: a stream object (cuda_stream)')

# ---- bad input, before the device
x = Arr((3, 4, 5), '<f4')
raises(lambda: ptxpose.permute(x, (0, 1)), ptxpose.InvalidArgument, re.escape('axes: (0, 1) has 2 entries, x has 3'),
       'a perm of the wrong length')
raises(lambda: ptxpose.permute(x, (0, 1, 1)), ptxpose.InvalidArgument, re.escape('axes[2] = 1 repeats'),
       'a repeated entry')
raises(lambda: ptxpose.permute(x, (0, 3, 1)), ptxpose.InvalidArgument, re.escape('axes[1] = 3 is out of range'),
       'an entry out of range')
raises(lambda: ptxpose.permute(x, ('a', 1, 2)), ptxpose.InvalidArgument, re.escape("axes[0] = 'a' is not an integer"),
       'an entry that is no integer')
raises(lambda: ptxpose.permute(x, 5), ptxpose.InvalidArgument, re.escape('is not a sequence'),
       'a perm that is no sequence')
raises(lambda: ptxpose.permute(x, (0, 2, 1), out=Arr((5, 4, 3), '<f4')), ptxpose.InvalidArgument,
       re.escape('out: shape (5, 4, 3), but x of shape (3, 4, 5) permuted by (0, 2, 1) is (3, 5, 4)'),
       'out of the wrong shape')
raises(lambda: ptxpose.permute(x, (0, 2, 1), out=Arr((3, 5, 4), '<f8')), ptxpose.InvalidArgument, 'out: dtype',
       'out of another dtype')
x9 = Arr((1,) * 9, '<f4')
raises(lambda: ptxpose.permute(x9, range(9)), ptxpose.InvalidArgument, re.escape('a 9-d array: permute takes 1 to 8'),
       'rank 9')
both = Dev(4096)
xa = Arr((4, 8), '<f4', mem=both)
ya = Arr((8, 4), '<f4', mem=both, offset=64)
raises(lambda: ptxpose.permute(xa, (1, 0), out=ya), ptxpose.InvalidArgument, re.escape('x and out overlap'),
       'overlapping x and out')
xn = Arr((4, 8), '<f4', strides=(-32, 4), offset=96, mem=Dev(4096))
raises(lambda: ptxpose.permute(xn, (1, 0)), ptxpose.Unsupported, re.escape('negative stride -8'),
       'a negative stride')
x = Arr((4, 6, 8), '<f4')
raises(lambda: ptxpose.permute(type('Host', (), {'__array_interface__': {}})(), (1, 0)), ptxpose.InvalidArgument,
       'a host array', 'a host array')
raises(lambda: ptxpose.permute(x, (2, 0, 1), out=Arr((8, 4, 6), '<f4', device=1)), ptxpose.InvalidArgument,
       re.escape('out: on device 1, x on device 0'), 'out on another device')
raises(lambda: ptxpose.permute(Arr((4, 4, 2), '|V12'), (2, 1, 0)), ptxpose.Unsupported, 'void96 has 12-byte elements',
       'an unsupported dtype width')
raises(lambda: ptxpose.permute(Arr((4, 4, 2), '<c16', offset=8), (2, 1, 0)), ptxpose.Misaligned,
       'complex128 .*aligned to 8 bytes only: ptxpose needs 16', 'a 16-byte dtype 8-byte aligned')
ro = Arr((8, 4, 6))
ro.__class__ = type('RO', (Arr,), {'__cuda_array_interface__': property(
    lambda a: dict(Arr.__cuda_array_interface__.fget(a), data=(a.ptr, True)))})
raises(lambda: ptxpose.permute(x, (2, 0, 1), out=ro), ptxpose.InvalidArgument, 'out: a read-only array', 'a read-only out')
raises(lambda: ptxpose.permute(x, (2, 0, 1), stream='s'), ptxpose.InvalidArgument, 'not a CUDA stream', 'a bad stream')
raises(lambda: ptxpose.permute(Arr((3, 4, 5), '<f4', strides=(0, 20, 4)), (2, 1, 0)), ptxpose.Unsupported,
       re.escape('x: a broadcast dimension (dimension 0 of shape (3, 4, 5), stride 0)'), 'a broadcast input')
raises(lambda: ptxpose.permute(Arr((4, 5), '<f4', strides=(-20, 4), offset=60), (1, 0)), ptxpose.Unsupported,
       'negative stride', 'a negative stride, before any result is allocated')
xe = Arr((0, 3, 4), '<f4')
ye = ptxpose.permute(xe, (2, 0, 1))
ok(ye.shape == (4, 0, 3), 'an empty array: an empty result, nothing launched')
finish()
