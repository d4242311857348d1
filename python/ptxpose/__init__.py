"""ptxpose: out-of-place transposes of CUDA arrays through hand-scheduled PTX kernels.

    import ptxpose
    y = ptxpose.transpose(x)          # x: torch, CuPy, Numba, anything with
                                      # __cuda_array_interface__ or __dlpack__
    ptxpose.transpose(x, out=y, stream=s)
    p = ptxpose.Plan(x, mode='measure'); p.execute(x, y); p.info
    y = ptxpose.permute(x, (0, 2, 1, 3))  # any permutation of an N-d array
    y = ptxpose.transpose(x, 0, 2); y = ptxpose.ascontiguousarray(x[:, ::2])
    import ptxpose.torch                  # torch.ops.ptxpose.*: torch.compile, autograd
    import ptxpose.jax                    # ptxpose.jax.permute inside jax.jit, vmap, grad

Pure Python over the shared library libptxpose (ctypes; no compiled
extension, no framework dependency). `library_path()` says which library was
loaded. Errors are `ptxpose.Error` subclasses with the library's `status`
and a one-line `message`.
"""
from ._core import Device, Kernel, Plan, PlanInfo, device, kernels, library_path, transpose, version
from ._permute import ascontiguousarray, permute
from ._errors import (BadPtx, ContextMismatch, CudaError, Error, InvalidArgument, InvalidType, JitError, LibraryNotFound,
                      Misaligned, NoDevice, NoDriver, NoKernel, OutOfMemory, SizeOverflow, Stale, Unsupported)

import sys as _sys

if getattr(_sys.modules.get('torch'), 'library', None) is not None:  # torch imported: its operators too
    from . import torch as _torch_ops  # noqa: F401  (torch.ops.ptxpose.*; ptxpose.torch)

__all__ = ['transpose', 'permute', 'ascontiguousarray', 'Plan', 'PlanInfo', 'Kernel', 'Device', 'kernels', 'device', 'version', 'library_path',
           'Error', 'LibraryNotFound', 'InvalidArgument', 'InvalidType', 'Misaligned', 'SizeOverflow', 'NoDriver', 'NoDevice',
           'ContextMismatch', 'CudaError', 'JitError', 'OutOfMemory', 'NoKernel', 'BadPtx', 'Stale', 'Unsupported',
           '__version__']


def __getattr__(name: str) -> str:
    if name == '__version__':  # the library's: the package is built from the same tree
        try:
            return version().split()[0]
        except LibraryNotFound as e:  # an AttributeError, so that hasattr() and getattr(m, n, d) answer
            raise AttributeError(f'ptxpose.__version__: {e.message}') from None
    raise AttributeError(f"module 'ptxpose' has no attribute {name!r}")
