"""One library handle per CUDA device, on that device's primary context (the one
PyTorch, CuPy and the CUDA runtime use), made on first use and kept for the
process; and the few driver calls that need (through ptxpose_driver_symbol,
so that Python and the library call the same driver).
"""
from __future__ import annotations

import ctypes
import threading
from typing import Dict, Optional

from . import _lib
from ._errors import Error, InvalidArgument, from_status

VP = ctypes.c_void_p
CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9
CUDA_ERROR_INVALID_VALUE = 1
DRIVER = {  # name: argument types (every one returns CUresult)
    'cuInit': [ctypes.c_uint],
    'cuDeviceGet': [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
    'cuDevicePrimaryCtxRetain': [ctypes.POINTER(VP), ctypes.c_int],
    'cuCtxPushCurrent_v2': [VP],
    'cuCtxPopCurrent_v2': [ctypes.POINTER(VP)],
    'cuCtxGetCurrent': [ctypes.POINTER(VP)],
    'cuCtxGetDevice': [ctypes.POINTER(ctypes.c_int)],
    'cuPointerGetAttribute': [VP, ctypes.c_int, ctypes.c_uint64],
    'cuMemAlloc_v2': [ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t],  # a JAX result (_jax.py)
    'cuMemFree_v2': [ctypes.c_uint64],
    'cuEventCreate': [ctypes.POINTER(VP), ctypes.c_uint],
    'cuEventRecord': [VP, VP],
    'cuStreamWaitEvent': [VP, VP, ctypes.c_uint],
    'cuEventDestroy_v2': [VP],
}
_fns: Dict[str, Optional[object]] = {}
_lock = threading.Lock()
_handles: Dict[int, 'Handle'] = {}


def check(rc: int) -> None:
    """Raise the Error of a failed library call (its message from ptxpose_last_error)."""
    if rc:
        raise from_status(rc, _lib.load().ptxpose_last_error().decode(errors='replace'))


def driver(name: str):
    """A driver function from the library's libcuda, or None where the driver lacks it."""
    if name not in _fns:
        lib = _lib.load()
        p = VP()
        rc = lib.ptxpose_driver_symbol(name.encode(), ctypes.byref(p))
        if rc == 1:  # PTXPOSE_ERR_INVALID: this driver has no such symbol
            _fns[name] = None
        else:
            check(rc)
            _fns[name] = ctypes.CFUNCTYPE(ctypes.c_int, *DRIVER[name])(p.value)
    return _fns[name]


def _cu(name: str, *args) -> None:
    rc = driver(name)(*args)
    if rc in (100, 101):  # CUDA_ERROR_NO_DEVICE, CUDA_ERROR_INVALID_DEVICE
        raise from_status(5, f'{name}: no such CUDA device (CUDA error {rc})')
    if rc:
        raise from_status(7, f'{name}: CUDA error {rc}')


def _init() -> None:
    """cuInit, once (the driver's other calls need it)."""
    if not _fns.get('inited'):
        _cu('cuInit', 0)
        _fns['inited'] = True


def pointer_device(ptr: int, role: str) -> Optional[int]:
    """The ordinal of the device a pointer belongs to, where the driver can say; None otherwise.
    Host memory the driver does not know raises: a host array."""
    fn = driver('cuPointerGetAttribute')
    if fn is None or not ptr:
        return None
    _init()
    out = ctypes.c_int()
    rc = fn(ctypes.byref(out), CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr)
    if rc == CUDA_ERROR_INVALID_VALUE:
        raise InvalidArgument(f'{role}: pointer {ptr:#x} is host memory the CUDA driver does not know (a host '
                              f'array): ptxpose needs CUDA device memory')
    return out.value if rc == 0 else None


def current_device() -> int:
    """The device of the calling thread's current context, else 0."""
    ctx = VP()
    if driver('cuCtxGetCurrent') is not None:
        _init()
        _cu('cuCtxGetCurrent', ctypes.byref(ctx))
        if ctx.value:
            d = ctypes.c_int()
            _cu('cuCtxGetDevice', ctypes.byref(d))
            return d.value
    return 0


class Handle:
    """A ptxpose_handle on one device's primary context (`ctx`), with the plans transpose() keeps."""

    def __init__(self, ordinal: int):
        lib = _lib.load()
        self.ordinal, self.plans, self.ptr = ordinal, {}, VP()
        _init()
        dev, ctx = ctypes.c_int(), VP()
        self.ctx = ctx  # the primary context
        try:
            _cu('cuDeviceGet', ctypes.byref(dev), ordinal)
        except Error as e:
            raise type(e)(f'device {ordinal}: {e.message}') from None
        _cu('cuDevicePrimaryCtxRetain', ctypes.byref(ctx), dev)  # kept: the handle lives as long as the process
        _cu('cuCtxPushCurrent_v2', ctx)
        try:
            check(lib.ptxpose_create(ctypes.byref(self.ptr), 0))
        finally:
            _cu('cuCtxPopCurrent_v2', ctypes.byref(VP()))


def get(ordinal: Optional[int]) -> Handle:
    """The handle of a device (None: the current context's device), made on first use."""
    if ordinal is None:
        ordinal = current_device()
    h = _handles.get(ordinal)
    if h is not None:
        return h
    if isinstance(ordinal, bool) or not isinstance(ordinal, int) or not 0 <= ordinal < 2**31:
        raise InvalidArgument(f'device {ordinal!r}: not a device ordinal (an int, 0 to 2^31-1)')
    with _lock:
        if ordinal not in _handles:
            _handles[ordinal] = Handle(ordinal)
        return _handles[ordinal]
