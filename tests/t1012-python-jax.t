#!/usr/bin/env python3
# t1012-python-jax: JAX arrays on the fake driver, with a stand-in jax
# (tests/lib/fakejax.py): x read through DLPack with the stream the
# transpose runs on (never through JAX's __cuda_array_interface__, which
# waits on the host); the result a jax Array over memory the package took
# from the driver, handed over as a "dltensor" capsule that JAX's stream
# waits for through an event, and freed by its deleter when JAX lets it go
# (also from a thread with no current context, and when no one takes the
# capsule); out= a JAX array refused (immutable).
import ctypes
import os
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import finish, ok, raises  # noqa: E402

from fakearrays import U64, VP, cu  # noqa: E402
import fakejax  # noqa: E402
import ptxpose  # noqa: E402
from ptxpose import _jax  # noqa: E402

DTYPES = {'uint8': (1, 8), 'bool': (6, 8), 'bfloat16': (4, 16), 'float16': (2, 16), 'float32': (2, 32),
          'int32': (0, 32), 'float64': (2, 64), 'complex128': (5, 128)}


def transposed(x):
    e, (r, c) = x.elements(), x.shape[-2:]
    per = r * c
    return [e[b * per + i * c + j] for b in range(len(e) // per) for j in range(c) for i in range(r)]


def freed(ptr):
    """The fake driver no longer knows ptr (a second cuMemFree fails)."""
    return cu('cuMemFree_v2', U64(ptr), check=False) != 0


s = VP()
cu('cuStreamCreate', ctypes.byref(s), 1)
fakejax.consumer_stream[0] = s.value  # JAX's stream: waits for the transpose through an event

for name, dt in DTYPES.items():
    fakejax.asked.clear()
    x = fakejax.make((67, 129), dt)
    y = ptxpose.transpose(x)
    cu('cuStreamSynchronize', None)
    ok(type(y) is fakejax.Array and y.shape == (129, 67) and y.dtype == dt and y.device == 0,
       f'{name}: a jax Array of shape (129, 67), {name}, on device 0')
    ok(y.elements() == transposed(x), f'{name}: 67x129 transposed')
    ok(fakejax.asked == [1], f'{name}: x.__dlpack__(stream=1): the stream the transpose runs on ({fakejax.asked})')
x = fakejax.make((3, 33, 31), (0, 16), 2)
y = ptxpose.transpose(x)
cu('cuStreamSynchronize', None)
ok(y.shape == (3, 31, 33) and y.elements() == transposed(x), 'int16: a batch of 3 odd matrices')

fakejax.asked.clear()
y = ptxpose.transpose(x, stream=s.value)
cu('cuStreamSynchronize', s)
ok(fakejax.asked == [s.value] and y.elements() == transposed(x), f'stream=: x.__dlpack__ gets it ({fakejax.asked})')
fakejax.consumer_stream[0] = None
fakejax.asked.clear()
y2 = ptxpose.Plan(x).execute(x)
cu('cuStreamSynchronize', None)
ok(type(y2) is fakejax.Array and y2.elements() == transposed(x), 'Plan.execute(x): a jax Array')
fakejax.consumer_stream[0] = s.value

# ---- the memory: held by JAX's array, with x's capsule; freed by the deleter
ok(len(_jax._live) == 2 and all(h[4] is not None for h in _jax._live.values()),
   f'each result holds its memory and x\'s capsule while JAX holds it ({len(_jax._live)} live)')
ptr = y.ptr
del y
ok(len(_jax._live) == 1 and freed(ptr), 'JAX lets a result go: its deleter frees the memory')
ptr = y2.ptr
t = threading.Thread(target=lambda a: a.clear(), args=([y2],))
del y2
t.start()
t.join()
ok(not _jax._live and freed(ptr), 'the deleter on another thread (no current context) frees it')
b = _jax.Buffer(0, (4, 5), 'float32')
ptr = b.ptr
cap = b.__dlpack__(stream=-1)
raises(lambda: b.__dlpack__(), ptxpose.InvalidArgument, 'exported once', 'a second export')
del cap
ok(not _jax._live and freed(ptr), 'a capsule no one took: its destructor frees the memory')
b = _jax.Buffer(0, (4, 5), 'bfloat16')
ptr = b.ptr
del b
ok(freed(ptr), 'a buffer never exported (an error came first): freed when dropped')

# ---- empty, and out=
x = fakejax.make((0, 5), (2, 32))
y = ptxpose.transpose(x)
ok(type(y) is fakejax.Array and y.shape == (5, 0), 'an empty array: an empty jax Array, nothing allocated')
x = fakejax.make((6, 5), (2, 32))
raises(lambda: ptxpose.transpose(x, out=fakejax.make((5, 6), (2, 32))), ptxpose.InvalidArgument,
       r'is a jax\.Array, immutable', 'out= a JAX array')
finish()
