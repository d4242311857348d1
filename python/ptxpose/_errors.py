"""ptxpose.Error and one subclass per library status.

Every error carries `status` (the library's ptxpose_status value, an int;
None for LibraryNotFound) and `message` (the one-line explanation, which names
the value at fault). Errors found in Python before any call (a host array, an
unsupported dtype) get the class and status the library gives the same fault.
"""
from __future__ import annotations

from typing import Dict, Optional, Type

OK, INVALID, MISALIGNED, OVERFLOW, NO_DRIVER, NO_DEVICE, CONTEXT, CUDA, JIT, NO_MEMORY, NO_KERNEL, BAD_PTX, \
    STALE, UNSUPPORTED = range(14)


class Error(Exception):
    """A ptxpose failure: `status` (int or None) and `message` (one line)."""
    status: Optional[int] = None

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status


class LibraryNotFound(Error, ImportError):
    """libptxpose could not be found or loaded (no status: the library never ran)."""


class InvalidArgument(Error, ValueError):
    status = INVALID


class Misaligned(Error, ValueError):
    status = MISALIGNED


class SizeOverflow(Error, OverflowError):
    status = OVERFLOW


class NoDriver(Error):
    status = NO_DRIVER


class NoDevice(Error):
    status = NO_DEVICE


class ContextMismatch(Error):
    status = CONTEXT


class CudaError(Error):
    status = CUDA


class JitError(Error):
    status = JIT


class OutOfMemory(Error, MemoryError):
    status = NO_MEMORY


class NoKernel(Error):
    status = NO_KERNEL


class BadPtx(Error):
    status = BAD_PTX


class Stale(Error):
    status = STALE


class Unsupported(Error, NotImplementedError):
    status = UNSUPPORTED


BY_STATUS: Dict[int, Type[Error]] = {c.status: c for c in (  # type: ignore[misc]
    InvalidArgument, Misaligned, SizeOverflow, NoDriver, NoDevice, ContextMismatch, CudaError, JitError,
    OutOfMemory, NoKernel, BadPtx, Stale, Unsupported)}


def from_status(status: int, message: str) -> Error:
    """The Error subclass for a library status, with its message."""
    cls = BY_STATUS.get(status, Error)
    return cls(message or f'status {status}', status)
