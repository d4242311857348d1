"""JAX arrays. Read through DLPack: `__dlpack__(stream=)` makes JAX order its pending work
before the stream the transpose runs on (JAX's __cuda_array_interface__ would instead wait on
the host). Never written: a jax.Array is immutable, so out= refuses one. A result is device
memory the package takes from the driver (cuMemAlloc_v2, no fill), written by the transpose,
then handed to JAX without a copy as a DLPack capsule whose deleter frees it (cuMemFree_v2, in
the device's primary context, on whichever thread JAX releases it: it needs no stream, and it
runs once JAX's uses of the array are done).
"""
from __future__ import annotations

import ctypes
import re
import sys
import threading
from typing import Any, Dict, Optional, Tuple

from . import _handles
from ._arrays import DL_CODES, DL_CUDA, View, _DLTensor, contiguous
from ._errors import InvalidArgument

VP = ctypes.c_void_p
CU_EVENT_DISABLE_TIMING = 2


class _DLManaged(ctypes.Structure):
    _fields_ = [('dl_tensor', _DLTensor), ('manager_ctx', VP), ('deleter', VP)]


_live: Dict[int, Tuple[Any, ...]] = {}  # a DLManagedTensor's address -> (context, pointer, itself, shape, x's capsule)
_lock = threading.Lock()


def _free(ctx: int, ptr: int) -> None:
    """cuMemFree_v2 of ptr in ctx, from any thread; raises nothing (a deleter cannot)."""
    try:
        _handles.driver('cuCtxPushCurrent_v2')(ctx)
        _handles.driver('cuMemFree_v2')(ctypes.c_uint64(ptr))
        _handles.driver('cuCtxPopCurrent_v2')(ctypes.byref(VP()))
    except Exception:
        pass


def _delete(addr: int) -> None:
    """The DLManagedTensor's deleter: frees its memory once (raises nothing: it runs from C,
    perhaps as the interpreter ends)."""
    try:
        with _lock:
            held = _live.pop(addr, None)
        if held is not None and held[1]:
            _free(held[0], held[1])  # cuMemFree waits for work on the memory; then x's capsule (held[4]) goes
    except Exception:
        pass


_DELETER = ctypes.CFUNCTYPE(None, VP)(_delete)  # kept alive with the module
_valid = ctypes.PYFUNCTYPE(ctypes.c_int, VP, ctypes.c_char_p)(('PyCapsule_IsValid', ctypes.pythonapi))
_pointer = ctypes.PYFUNCTYPE(VP, VP, ctypes.c_char_p)(('PyCapsule_GetPointer', ctypes.pythonapi))


def _capsule_destroyed(cap: int) -> None:
    """A capsule no consumer took (still named "dltensor"): its tensor is deleted (DLPack's rule)."""
    if _valid(cap, b'dltensor'):
        _delete(_pointer(cap, b'dltensor'))


_DESTRUCTOR = ctypes.CFUNCTYPE(None, VP)(_capsule_destroyed)
_NAME = ctypes.c_char_p(b'dltensor')  # PyCapsule_New keeps the pointer: the bytes live with the module
_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, VP, ctypes.c_char_p, VP)(('PyCapsule_New', ctypes.pythonapi))


def dl_dtype(name: str) -> Tuple[int, int, int]:
    """(code, bits, lanes) of a View's DLPack dtype name ("bfloat16", "bool8", "float32x2")."""
    m = re.fullmatch(r'([a-z]+)(\d+)(?:x(\d+))?', name)
    if not m or m.group(1) not in DL_CODES:
        raise InvalidArgument(f'x: dtype {name}: not a DLPack dtype')
    return DL_CODES.index(m.group(1)), int(m.group(2)), int(m.group(3) or 1)


class Buffer:
    """Device memory for a result JAX will own: `ptr`, `shape` (C-contiguous), `dtype`, `device`.
    `stream` is the stream the transpose was enqueued on (set by the package); `__dlpack__`
    exports the memory once, then JAX owns it."""

    def __init__(self, device: int, shape: Tuple[int, ...], dtype: str):
        self.device, self.shape, self.dtype = device, tuple(shape), dtype
        self.code, bits, self.lanes = dl_dtype(dtype)
        self.bits, self.itemsize = bits, bits // 8 * self.lanes
        n = self.itemsize
        for d in self.shape:
            n *= d
        self.ctx, self.ptr, self.stream, self.keep = _handles.get(device).ctx.value, 0, None, None
        if n:
            p = ctypes.c_uint64()
            _handles._cu('cuCtxPushCurrent_v2', self.ctx)
            try:
                _handles._cu('cuMemAlloc_v2', ctypes.byref(p), n)
            finally:
                _handles._cu('cuCtxPopCurrent_v2', ctypes.byref(VP()))
            self.ptr = p.value

    def view(self) -> View:
        return View(self, 'jaxout', self.ptr, self.shape, contiguous(self.shape), self.itemsize, self.dtype,
                    self.device)

    def __dlpack_device__(self) -> Tuple[int, int]:
        return DL_CUDA, self.device

    def __dlpack__(self, *, stream: Optional[int] = None, **_: Any) -> Any:
        """A "dltensor" capsule of the memory; the consumer's `stream` (None: the legacy default
        stream; -1: none) waits for the transpose through an event, without a host wait."""
        if self.ptr is None:
            raise InvalidArgument('a ptxpose result buffer is exported once (JAX owns it now)')
        if stream != -1 and self.stream is not None and (1 if stream is None else stream) != self.stream:
            ev = VP()
            _handles._cu('cuCtxPushCurrent_v2', self.ctx)
            try:
                _handles._cu('cuEventCreate', ctypes.byref(ev), CU_EVENT_DISABLE_TIMING)
                try:
                    _handles._cu('cuEventRecord', ev, self.stream)
                    _handles._cu('cuStreamWaitEvent', 1 if stream is None else stream, ev, 0)
                finally:
                    _handles._cu('cuEventDestroy_v2', ev)
            finally:
                _handles._cu('cuCtxPopCurrent_v2', ctypes.byref(VP()))
        m = _DLManaged()
        shape = (ctypes.c_int64 * len(self.shape))(*self.shape)
        t = m.dl_tensor
        t.data, t.ndim, t.shape, t.strides, t.byte_offset = self.ptr or None, len(self.shape), shape, None, 0
        t.device.device_type, t.device.device_id = DL_CUDA, self.device
        t.dtype.code, t.dtype.bits, t.dtype.lanes = self.code, self.bits, self.lanes
        m.deleter = ctypes.cast(_DELETER, VP).value
        addr = ctypes.addressof(m)
        with _lock:
            _live[addr] = (self.ctx, self.ptr, m, shape, self.keep)
        self.ptr = None  # the capsule owns the memory now
        return _capsule_new(addr, _NAME, ctypes.cast(_DESTRUCTOR, VP).value)

    def __del__(self, _free: Any = _free) -> None:  # bound here: module globals may be None at exit
        if self.ptr:  # never exported (an error came first)
            _free(self.ctx, self.ptr)
            self.ptr = None


def result(pb: Any, x: Any) -> Any:
    """The jax.Array of the result buffer a transpose (a checked problem, enqueued) wrote,
    without a copy. It holds x's capsule (JAX's reference to x's memory) until JAX frees it:
    x's memory is then not reused while the transpose may still read it."""
    jax, buf = sys.modules['jax'], pb.out.obj
    if not buf.ptr:  # no element: nothing to hand over
        return jax.numpy.swapaxes(x, -1, -2)
    buf.stream, buf.keep = pb.stream, pb.x.keep
    return jax.dlpack.from_dlpack(buf)
