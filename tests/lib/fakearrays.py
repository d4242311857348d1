"""Device arrays of the fake driver (tests/fakecuda) for the Python tests: `Dev` (memory from
cuMemAlloc, host memory behind it, so read and written directly), `Arr` (a minimal
__cuda_array_interface__ object over it), `empty` (what ptxpose makes a result with, as this
module's function), `cu` (a driver call through ptxpose_driver_symbol), `transposed`.
Importing it points the library at the fake driver and makes device 0's context current;
when the fake is not built it says so in TAP and exits."""
import ctypes
import os
import random

from pytap import ROOT, finish, ok

FAKE = os.path.join(ROOT, 'build', 'fakecuda', 'libcuda.so.1')
if not os.path.exists(FAKE):
    ok(False, f'{FAKE} is not built: run ninja')
    finish()
os.environ['PTXPOSE_LIBCUDA'] = FAKE
os.environ['PTXPOSE_CACHE'] = 'off'
for k in ('PTXPOSE_LIB', 'PTXPOSE_PTX', 'FAKECUDA_FAIL', 'FAKECUDA_DEVICES'):
    os.environ.pop(k, None)

import ptxpose  # noqa: E402

VP, U64 = ctypes.c_void_p, ctypes.c_uint64
CU = {'cuInit': [ctypes.c_uint], 'cuDevicePrimaryCtxRetain': [ctypes.POINTER(VP), ctypes.c_int],
      'cuCtxSetCurrent': [VP], 'cuMemAlloc_v2': [ctypes.POINTER(U64), ctypes.c_size_t], 'cuMemFree_v2': [U64],
      'cuStreamCreate': [ctypes.POINTER(VP), ctypes.c_uint], 'cuStreamSynchronize': [VP],
      'cuStreamBeginCapture_v2': [VP, ctypes.c_int], 'cuStreamEndCapture': [VP, ctypes.POINTER(VP)],
      'cuMemsetD8_v2': [U64, ctypes.c_ubyte, ctypes.c_size_t], 'cuGraphInstantiateWithFlags': [ctypes.POINTER(VP), VP, ctypes.c_ulonglong], 'cuGraphLaunch': [VP, VP]}


def cu(name, *args, check=True):
    """A driver call; a failure raises (check) or is returned."""
    p = VP()
    assert ptxpose._lib.load().ptxpose_driver_symbol(name.encode(), ctypes.byref(p)) == 0, name
    rc = ctypes.CFUNCTYPE(ctypes.c_int, *CU[name])(p.value)(*args)
    assert rc == 0 or not check, f'{name}: {rc}'
    return rc


ctx = VP()
cu('cuInit', 0)
cu('cuDevicePrimaryCtxRetain', ctypes.byref(ctx), 0)
cu('cuCtxSetCurrent', ctx)  # the fake allocates in the current context
WIDTH = {'|u1': 1, '<f2': 2, '<f4': 4, '<f8': 8, '<c16': 16}


class Dev:
    """Device memory of the fake driver (host memory behind it), read and written directly."""

    def __init__(self, nbytes):
        p = U64()
        cu('cuMemAlloc_v2', ctypes.byref(p), max(nbytes, 1))
        self.ptr, self.nbytes = p.value, nbytes

    def __del__(self):
        cu('cuMemFree_v2', U64(self.ptr))


class Arr:
    """A minimal CUDA Array Interface object over fake device memory."""

    def __init__(self, shape, dtype='<f4', strides=None, offset=0, mem=None, stream=None, device=None):
        w = WIDTH.get(dtype, int(dtype[2:]))
        if strides is None:
            strides, step = [], w
            for n in reversed(shape):
                strides.insert(0, step)
                step *= n
        span = offset + sum((n - 1) * s for n, s in zip(shape, strides)) + w if all(shape) else offset
        self.mem = mem or Dev(span + strides[-2])  # whole rows: the fake checks rows * ld
        self.shape, self.dtype, self.strides, self.w = tuple(shape), dtype, tuple(strides), w
        self.ptr = self.mem.ptr + offset
        self.stream = stream
        if device is not None:
            self.device = type('D', (), {'id': device})()

    @property
    def __cuda_array_interface__(self):
        d = dict(shape=self.shape, typestr=self.dtype, data=(self.ptr, False), strides=self.strides, version=3)
        if self.stream is not None:
            d['stream'] = self.stream
        return d

    def offsets(self):
        """Byte offsets of every element, in C order."""
        out = [0]
        for n, s in zip(self.shape, self.strides):
            out = [o + i * s for o in out for i in range(n)]
        return out

    def fill(self, seed):
        rng = random.Random(seed)
        for o in self.offsets():
            ctypes.memmove(self.ptr + o, bytes(rng.getrandbits(8) for _ in range(self.w)), self.w)

    def clear(self):
        """Zero the memory through the driver (a write the fake sees: it then runs the next
        transpose, rather than skip it as the same work as the last one)."""
        cu('cuMemsetD8_v2', U64(self.mem.ptr), 0, self.mem.nbytes)

    def elements(self):
        return [ctypes.string_at(self.ptr + o, self.w) for o in self.offsets()]


def empty(shape, dtype):  # what transpose() calls to make a result like an Arr (its module's empty)
    return Arr(shape, dtype)


def transposed(x):
    """The elements of x's transpose, in C order of the result."""
    e, (r, c) = x.elements(), x.shape[-2:]
    per = r * c
    return [e[b * per + i * c + j] for b in range(len(e) // per) for j in range(c) for i in range(r)]
