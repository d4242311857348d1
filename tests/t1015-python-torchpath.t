#!/usr/bin/env python3
# t1015-python-torchpath: the torch path of the ptxpose package, on the fake
# driver with stand-in tensors (tests/lib/faketorch.py): the first call of a
# layout takes every check, the next ones only look the layout up (no
# _Problem made) and are still correct for transpose(x), transpose(x, out)
# and Plan.execute on torch's current stream; and on a warm layout, every
# refusal still comes before the device: an overlapping out, a lazy-conjugate
# out, a bad stream, a sparse tensor, another dtype.
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import finish, ok, raises  # noqa: E402

import fakearrays  # noqa: E402,F401
import faketorch  # noqa: E402
from faketorch import Tensor, is_transpose  # noqa: E402
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
    r = ptxpose.transpose(x, out)
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
lazy = Tensor((129, 67), strides=(70, 1), mem=out.mem, conj=True)
key = ptxpose._core._torch_key
ok(key(over)[0] == key(out)[0] and key(lazy)[0] is None, 'an out over x with the key of the warm out; a lazy one')
raises(lambda: ptxpose.transpose(x, over), ptxpose.InvalidArgument, 'x and out overlap: x spans',
       'warm: an out overlapping x, refused before the library is called')
raises(lambda: p.execute(x, over), ptxpose.InvalidArgument, 'x and out overlap: x spans',
       'warm Plan.execute: an out overlapping x, refused before the library is called')
raises(lambda: ptxpose.transpose(x, lazy), ptxpose.InvalidArgument, 'lazy conjugate', 'warm: a lazy-conjugate out')
raises(lambda: ptxpose.transpose(x, out, stream=-1), ptxpose.InvalidArgument, 'stream: -1',
       'warm: a negative stream')
raises(lambda: ptxpose.transpose(Tensor((67, 129), layout=faketorch.torch.sparse_coo)), ptxpose.Unsupported,
       'layout torch.sparse_coo', 'warm shape: a sparse tensor')
raises(lambda: ptxpose.transpose(x, Tensor((129, 67), faketorch.float64, strides=(70, 1))), ptxpose.InvalidArgument,
       'out: dtype float64, x is float32', 'warm x: an out of another dtype')
raises(lambda: ptxpose.transpose(x, Tensor((129, 67), strides=(70, 1), dev=1)), ptxpose.InvalidArgument,
       'out: on device 1', 'warm x: an out on another device')
finish()
