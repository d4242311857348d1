"""ptxpose.Error and one subclass per library status.

Every error carries `status` (the library's ptxpose_status value, an int;
None for LibraryNotFound) and `message` (the one-line explanation, which names
the value at fault). Errors found in Python before any call (a host array, an
unsupported dtype) get the class and status the library gives the same fault;
a value of the wrong type is an InvalidType, which is also a TypeError.
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
    """A value the package or the library refuses (a shape, stride, perm, dtype, pointer); the message names it."""
    status = INVALID


class InvalidType(InvalidArgument, TypeError):
    """A value of the wrong type: an object that is not an array, a perm that is not a sequence of
    integers, a stream that is not a stream. Also an InvalidArgument (status INVALID)."""


class Misaligned(Error, ValueError):
    """A pointer or stride not aligned for its elements, or for the alignment a plan was made for."""
    status = MISALIGNED


class SizeOverflow(Error, OverflowError):
    """Sizes, strides or spans whose bytes pass 2^63."""
    status = OVERFLOW


class NoDriver(Error):
    """libcuda.so.1 is missing or too old, or cuInit failed: the call needs a driver."""
    status = NO_DRIVER


class NoDevice(Error):
    """The driver found no CUDA device, or not the one asked for."""
    status = NO_DEVICE


class ContextMismatch(Error):
    """A stream, array or plan of another context or device than the call's."""
    status = CONTEXT


class CudaError(Error):
    """A CUDA driver call failed; the message names the call and the driver's error."""
    status = CUDA


class JitError(Error):
    """The driver could not compile (JIT) a kernel's PTX; the message has its log."""
    status = JIT


class OutOfMemory(Error, MemoryError):
    """Device or host memory could not be had."""
    status = NO_MEMORY


class NoKernel(Error):
    """No kernel of the library serves the problem, or none has the name asked for."""
    status = NO_KERNEL


class BadPtx(Error):
    """PTX without ptxpose metadata, of kernel ABI 1, or a bad $PTXPOSE_PTX file."""
    status = BAD_PTX


class Stale(Error):
    """A destroyed handle or plan."""
    status = STALE


class Unsupported(Error, NotImplementedError):
    """A valid problem this build does not serve (a negative stride, a broadcast, a masked array)."""
    status = UNSUPPORTED


BY_STATUS: Dict[int, Type[Error]] = {c.status: c for c in (  # type: ignore[misc]
    InvalidArgument, Misaligned, SizeOverflow, NoDriver, NoDevice, ContextMismatch, CudaError, JitError,
    OutOfMemory, NoKernel, BadPtx, Stale, Unsupported)}


def from_status(status: int, message: str) -> Error:
    """The Error subclass for a library status, with its message."""
    cls = BY_STATUS.get(status, Error)
    return cls(message or f'status {status}', status)
