"""A stand-in `jax` for the Python tests on the fake driver: an Array (of module "jax") over fake
device memory with __dlpack__ (recording the stream it was asked for) and __dlpack_device__, whose
__cuda_array_interface__ fails the test if read (JAX's waits on the host); jax.dlpack.from_dlpack
as JAX does it (asks the producer for a capsule with its stream, takes the "dltensor", renames it
"used_dltensor", calls its deleter when the Array goes); jax.numpy.swapaxes for empty results.
Importing it installs it as sys.modules['jax'] (import fakearrays first)."""
import ctypes
import random
import sys
import types

from fakearrays import Dev, cu

from ptxpose._arrays import _DLTensor

VP = ctypes.c_void_p
jax = types.ModuleType('jax')
asked = []  # the streams __dlpack__ was called with
consumer_stream = [None]  # what from_dlpack passes to __dlpack__ (JAX: its stream for external ready events)
_new = ctypes.PYFUNCTYPE(ctypes.py_object, VP, ctypes.c_char_p, VP)(('PyCapsule_New', ctypes.pythonapi))
_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(('PyCapsule_IsValid', ctypes.pythonapi))
_get = ctypes.PYFUNCTYPE(VP, ctypes.py_object, ctypes.c_char_p)(('PyCapsule_GetPointer', ctypes.pythonapi))
_rename = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(('PyCapsule_SetName', ctypes.pythonapi))
_USED = ctypes.c_char_p(b'used_dltensor')


class _Managed(ctypes.Structure):
    _fields_ = [('dl_tensor', _DLTensor), ('manager_ctx', VP), ('deleter', VP)]


class Array:
    """A device array: `ptr`, `shape`, `dtype` (DLPack code, bits), `device`; `managed` the
    DLManagedTensor it was imported from (deleted with it), else its own memory `mem`."""

    def __init__(self, ptr, shape, dtype, device=0, managed=None, mem=None):
        self.ptr, self.shape, self.dtype, self.device, self.managed, self.mem = ptr, tuple(shape), dtype, device, \
            managed, mem
        self.w, self._made = dtype[1] // 8, []

    @property
    def __cuda_array_interface__(self):
        raise AssertionError('__cuda_array_interface__ read: JAX would wait on the host')

    def __dlpack_device__(self):
        return 2, self.device

    def __dlpack__(self, *, stream=None):
        asked.append(stream)
        m = _Managed()
        shape = (ctypes.c_int64 * len(self.shape))(*self.shape)
        t = m.dl_tensor
        t.data, t.ndim, t.shape, t.device.device_type, t.device.device_id = self.ptr, len(self.shape), shape, 2, \
            self.device
        t.dtype.code, t.dtype.bits, t.dtype.lanes = self.dtype[0], self.dtype[1], 1
        self._made.append((m, shape))
        return _new(ctypes.addressof(m), b'dltensor', None)

    def elements(self):
        n = 1
        for d in self.shape:
            n *= d
        return [ctypes.string_at(self.ptr + i * self.w, self.w) for i in range(n)]

    def __del__(self):
        if self.managed:
            m = _Managed.from_address(self.managed)
            ctypes.CFUNCTYPE(None, VP)(m.deleter)(self.managed)


def make(shape, dtype, seed=1):
    """An Array of random bytes over fake device memory."""
    n = dtype[1] // 8
    for d in shape:
        n *= d
    mem = Dev(n)
    rng = random.Random(seed)
    ctypes.memmove(mem.ptr, bytes(rng.getrandbits(8) for _ in range(n)), n)
    return Array(mem.ptr, shape, dtype, mem=mem)


def from_dlpack(obj):
    kind, device = obj.__dlpack_device__()
    assert kind == 2, kind
    cap = obj.__dlpack__(stream=consumer_stream[0])
    assert _valid(cap, b'dltensor'), 'not a dltensor capsule'
    addr = _get(cap, b'dltensor')
    _rename(cap, _USED)
    t = _Managed.from_address(addr).dl_tensor
    assert t.device.device_type == 2 and t.device.device_id == device and t.byte_offset == 0 and not t.strides
    return Array(t.data, [t.shape[i] for i in range(t.ndim)], (t.dtype.code, t.dtype.bits), device, managed=addr)


def swapaxes(x, a, b):
    s = list(x.shape)
    s[a], s[b] = s[b], s[a]
    return Array(0, s, x.dtype, x.device)


Array.__module__ = 'jax'
jax.Array = Array
jax.dlpack = types.SimpleNamespace(from_dlpack=from_dlpack)
jax.numpy = types.SimpleNamespace(swapaxes=swapaxes)
sys.modules['jax'] = jax
