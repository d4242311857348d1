#!/usr/bin/env python3
# t1015-python-warm: the warm paths of the ptxpose package, on the fake driver.
# Torch, with stand-in tensors (tests/lib/faketorch.py): the first call of a
# layout takes every check, the next ones only look the layout up (no
# _Problem made) and are still correct for transpose(x), transpose(x, out)
# and Plan.execute on torch's current stream; and on a warm layout, every
# refusal still comes before the device: an overlapping out, a lazy-conjugate
# complex out (a float one is its own conjugate: looked up, and written),
# a bad stream, a sparse tensor, another dtype. The same for arrays
# read through __cuda_array_interface__ (tests/lib/fakearrays.py): looked up
# once checked, exact, and on a warm layout an overlap, values that only
# equal valid ones (a float shape, a bool version), a v3 stream 0, a
# read-only out are refused as before.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import finish, ok, raises  # noqa: E402

import fakearrays  # noqa: E402,F401
import faketorch  # noqa: E402
from faketorch import Tensor, is_transpose  # noqa: E402
from fakearrays import Arr, transposed  # noqa: E402
import ptxpose  # noqa: E402

made = []
full = ptxpose._core._Problem


class Counted(full):
    def __init__(self, *a, **k):
        made.append(1)
        super().__init__(*a, **k)


ptxpose._core._Problem = Counted


def sync():
    fakearrays.cu('cuStreamSynchronize', None)


x = Tensor((67, 129))
x.fill(1)
res = []
for k in range(3):
    made.clear()
    y = ptxpose.transpose(x)
    sync()
    res.append((len(made), type(y) is Tensor and is_transpose(y, x)))
ok(res == [(1, True), (0, True), (0, True)], 'transpose(x): checked once, then looked up; each result exact', res)
faketorch.new_offset[0] = 4
made.clear()
y = ptxpose.transpose(x)
sync()
faketorch.new_offset[0] = 0
ok(len(made) == 1 and is_transpose(y, x) and y.data_ptr() % 256 == 4,
   'transpose(x): a result at another alignment than the warm plan had: checked and planned again', len(made))
out = Tensor((129, 67), strides=(70, 1))
res = []
for k in range(3):
    made.clear()
    out.clear()
    x.fill(k)
    faketorch.streams_asked.clear()
    r = ptxpose.transpose(x, out=out)
    sync()
    res.append((len(made), r is out and is_transpose(out, x), faketorch.streams_asked))
ok(res == [(1, True, [0]), (0, True, [0]), (0, True, [0])],
   "transpose(x, out): checked once, then looked up; each exact, on torch's current stream of device 0", res)
p = ptxpose.Plan(x, out)
res = []
for k in range(3):
    made.clear()
    out.clear()
    x.fill(10 + k)
    r = p.execute(x, out)
    sync()
    res.append((len(made), r is out and is_transpose(out, x)))
ok(res == [(1, True), (0, True), (0, True)], 'Plan.execute(x, out): checked once, then looked up; each exact', res)

# refusals on a warm layout: the same key but for what the lookup must not let through
over = Tensor((129, 67), strides=(70, 1), mem=x.mem, offset=256 + ((out.data_ptr() - x.data_ptr()) & 255))
xc, outc = Tensor((67, 129), faketorch.complex64), Tensor((129, 67), faketorch.complex64, strides=(70, 1))
ptxpose.transpose(xc, out=outc)  # a warm complex layout
lazy = Tensor((129, 67), faketorch.complex64, strides=(70, 1), mem=outc.mem, conj=True)
key = ptxpose._core._torch_key
ok(key(over)[0] == key(out)[0] and key(outc)[0] is not None and key(lazy)[0] is None,
   'an out over x with the key of the warm out; a lazy complex conjugate has none')
real_conj = Tensor((129, 67), strides=(70, 1), mem=out.mem, conj=True)  # as torch._conj makes of a float tensor
real_conj.clear()
made.clear()
r = ptxpose.transpose(x, out=real_conj)
sync()
ok(key(real_conj)[0] == key(out)[0] and r is real_conj and not made and is_transpose(real_conj, x),
   "warm: a float out with a conjugate bit is its own conjugate: looked up, and written", len(made))
cold = Tensor((129, 67), strides=(71, 1), conj=True)  # a layout not seen: the full checks agree
r = ptxpose.transpose(x, out=cold)
sync()
ok(r is cold and len(made) == 1 and is_transpose(cold, x), '... and on a layout not seen, by the full checks too',
   len(made))
raises(lambda: ptxpose.transpose(x, out=over), ptxpose.InvalidArgument, 'x and out overlap: x spans',
       'warm: an out overlapping x, refused before the library is called')
raises(lambda: p.execute(x, over), ptxpose.InvalidArgument, 'x and out overlap: x spans',
       'warm Plan.execute: an out overlapping x, refused before the library is called')
raises(lambda: ptxpose.transpose(xc, out=lazy), ptxpose.InvalidArgument, 'lazy conjugate', 'warm: a lazy-conjugate out')
raises(lambda: ptxpose.transpose(x, out=out, stream=-1), ptxpose.InvalidArgument, 'stream: -1',
       'warm: a negative stream')
raises(lambda: ptxpose.transpose(Tensor((67, 129), layout=faketorch.torch.sparse_coo)), ptxpose.Unsupported,
       'layout torch.sparse_coo', 'warm shape: a sparse tensor')
raises(lambda: ptxpose.transpose(x, out=Tensor((129, 67), faketorch.float64, strides=(70, 1))), ptxpose.InvalidArgument,
       'out: dtype float64, x is float32', 'warm x: an out of another dtype')
raises(lambda: ptxpose.transpose(x, out=Tensor((129, 67), strides=(70, 1), dev=1)), ptxpose.InvalidArgument,
       'out: on device 1', 'warm x: an out on another device')

# an explicit stream other than torch's current one: the allocator is told (record_stream) of x and
# out, on the full path, the warm one, Plan.execute and permute; on the current stream it is not
import ctypes  # noqa: E402
st = ctypes.c_void_p()
fakearrays.cu('cuStreamCreate', ctypes.byref(st), 0)
xs, outs = Tensor((40, 24)), Tensor((24, 40))
xs.fill(31)
seen = []
for k in range(2):  # the first call plans, the second is warm
    faketorch.recorded.clear()
    ptxpose.transpose(xs, out=outs, stream=st.value)
    fakearrays.cu('cuStreamSynchronize', st)
    seen.append(sorted((id(t), h) for t, h in faketorch.recorded) == sorted([(id(xs), st.value), (id(outs), st.value)])
                and is_transpose(outs, xs))
faketorch.recorded.clear()
ptxpose.Plan(xs, outs).execute(xs, outs, st.value)
fakearrays.cu('cuStreamSynchronize', st)
seen.append(len(faketorch.recorded) == 2)
faketorch.recorded.clear()
ptxpose.permute(xs, (1, 0), out=outs, stream=st.value)
fakearrays.cu('cuStreamSynchronize', st)
seen.append(len(faketorch.recorded) == 2 and is_transpose(outs, xs))
faketorch.recorded.clear()
ptxpose.transpose(xs, out=outs, stream=0)  # torch's current stream (the stand-in's is 0)
ptxpose.transpose(xs, out=outs)
sync()
seen.append(faketorch.recorded == [])
ok(seen == [True] * 5, 'stream= another than torch\'s current: x and out record_stream()ed (full, warm, Plan.execute, '
   'permute); the current stream or none: no record', seen)

# ---- arrays through __cuda_array_interface__
x = Arr((33, 65), '<f4')
res = []
for k in range(3):
    x.fill(k)
    made.clear()
    y = ptxpose.transpose(x)
    sync()
    res.append((len(made), type(y) is Arr and y.elements() == transposed(x)))
ok(res == [(1, True), (0, True), (0, True)], 'CAI transpose(x): checked once, then looked up; each exact', res)
out = Arr((65, 33), '<f4', strides=(40 * 4, 4))  # a layout not yet seen
res = []
for k in range(3):
    x.fill(10 + k)
    out.clear()
    made.clear()
    ptxpose.transpose(x, out=out)
    sync()
    res.append((len(made), out.elements() == transposed(x)))
ok(res == [(1, True), (0, True), (0, True)], 'CAI transpose(x, out): checked once, then looked up; each exact', res)


class Like(Arr):
    """An Arr whose interface says what it is told to."""

    def __init__(self, base, **change):
        self.__dict__.update(base.__dict__)
        self.change = change

    @property
    def __cuda_array_interface__(self):
        d = Arr.__cuda_array_interface__.fget(self)
        d.update(self.change)
        return d


over = Arr((65, 33), '<f4', strides=(40 * 4, 4), mem=x.mem, offset=256 + ((out.ptr - x.ptr) & 255))
key = lambda a: ptxpose._arrays.cai_fields('out', a, a.__cuda_array_interface__)[0]
ok(key(over) == key(out), 'an out over x with the key of the warm out')
raises(lambda: ptxpose.transpose(x, out=over), ptxpose.InvalidArgument, 'x and out overlap: x spans',
       'CAI warm: an out overlapping x, refused before the library is called')
made.clear()
ptxpose.transpose(Like(x), out=out)
ptxpose.transpose(x, out=Like(out))
ptxpose.transpose(Like(x), out=out)
ok(len(made) == 2, 'a Like of x, and of out, made warm', len(made))
raises(lambda: ptxpose.transpose(Like(x, shape=(33.0, 65)), out), ptxpose.InvalidArgument, 'shape .* integers',
       'CAI warm: a float shape equal to the warm one')
raises(lambda: ptxpose.transpose(Like(x, version=True), out=out), ptxpose.InvalidArgument, 'version True',
       'CAI warm: a bool version')
raises(lambda: ptxpose.transpose(Like(x, stream=0), out=out), ptxpose.InvalidArgument, 'stream 0 is disallowed',
       'CAI warm: a v3 stream 0')
raises(lambda: ptxpose.transpose(x, out=Like(out, data=(out.ptr, True))), ptxpose.InvalidArgument, 'read-only',
       'CAI warm: a read-only out')

# At interpreter exit a module's globals may be None before the last cached plan goes
# (seen on a GPU: "Exception ignored in _Owned.__del__"); the destructor must not depend on them.
import subprocess  # noqa: E402
exit_code = ('import ctypes, ptxpose._core as c, ptxpose._jax as j\n'
             'o = c._Owned(ctypes.c_void_p(0)); b = j.Buffer.__new__(j.Buffer); b.ptr, b.ctx = 1, 0\n'
             'c._lib = None; j._free = None; del o, b\n')
r = subprocess.run([sys.executable, '-c', exit_code], capture_output=True, text=True, timeout=60,
                   env={**os.environ, 'PYTHONPATH': os.pathsep.join(sys.path)})
ok(r.returncode == 0 and 'Exception ignored' not in r.stderr, 'plan and buffer destructors run with module globals gone',
   r.stderr[-300:])
finish()
