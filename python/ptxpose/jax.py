"""ptxpose inside jitted JAX programs: permute and transpose as XLA custom calls.

    import ptxpose.jax as pj                     # needs jax, and a CUDA device to run
    y = jax.jit(lambda x: pj.permute(x, (0, 2, 1, 3)))(x)
    jax.vmap(lambda x: pj.transpose(x))(xs)      # batched: the leading dims stay in place
    jax.grad(lambda x: pj.permute(x, (1, 0)).sum() ...)   # backward: the inverse permutation

Each call is a jax.ffi.ffi_call of the custom call target "ptxpose_permute", whose handler
(build/libptxpose_xla.so, built from python/xla/ffi_permute.cc against jaxlib's FFI headers
and libptxpose) runs the library's permutation on the CUDA stream XLA gives the call. It is
registered for the CUDA platform on first use; on another backend the program fails to compile
(XLA finds no "ptxpose_permute" there). `jax.grad` goes through a custom VJP (the cotangent
permuted back by the inverse permutation, through the same target); `jax.vmap` adds leading
batch dimensions, which the handler keeps in place. Outside jit these work too (JAX compiles
the one call). ptxpose.transpose and ptxpose.permute take concrete jax.Arrays as well, outside
jit only.
"""
from __future__ import annotations

import ctypes
import os
import threading
from functools import partial
from typing import Optional, Sequence, Tuple

import jax
import numpy as np

from . import _lib, _permute
from ._errors import LibraryNotFound

__all__ = ['permute', 'transpose', 'handler_path']

TARGET = 'ptxpose_permute'
HANDLER = 'libptxpose_xla.so'
_lock = threading.Lock()
_registered = False


def handler_path() -> str:
    """The handler's shared object: beside the libptxpose loaded, else in the package's folder."""
    beside = os.path.join(os.path.dirname(str(_lib.where())), HANDLER)
    if os.path.isfile(beside):
        return beside
    return os.path.join(_lib.HERE, HANDLER)


def _register() -> None:
    global _registered
    if _registered:
        return
    with _lock:
        if _registered:
            return
        path = handler_path()
        try:
            so = ctypes.CDLL(path)
            fn = so.ptxpose_xla_permute
        except (OSError, AttributeError) as e:
            raise LibraryNotFound(f'ptxpose.jax: the XLA FFI handler {path} cannot be loaded ({e}): build it '
                                  f'(ninja {HANDLER}, or ./build.sh test) or install the wheel') from None
        jax.ffi.register_ffi_target(TARGET, jax.ffi.pycapsule(fn), platform='CUDA')
        _registered = True


def _call(x: jax.Array, perm: Tuple[int, ...]) -> jax.Array:
    _register()
    out = jax.ShapeDtypeStruct(tuple(x.shape[p] for p in perm), x.dtype)
    # vmap: the batched operand gains leading dims, which the handler keeps in place
    return jax.ffi.ffi_call(TARGET, out, vmap_method='broadcast_all')(x, perm=np.asarray(perm, dtype=np.int64))


def _inverse(p: Tuple[int, ...]) -> Tuple[int, ...]:
    inv = [0] * len(p)
    for k, v in enumerate(p):
        inv[v] = k
    return tuple(inv)


@partial(jax.custom_vjp, nondiff_argnums=(1,))
def _permuted(x: jax.Array, perm: Tuple[int, ...]) -> jax.Array:
    return _call(x, perm)


def _forward(x: jax.Array, perm: Tuple[int, ...]) -> Tuple[jax.Array, None]:
    return _call(x, perm), None


def _backward(perm: Tuple[int, ...], _: None, g: jax.Array) -> Tuple[jax.Array]:
    return (_call(g, _inverse(perm)),)


_permuted.defvjp(_forward, _backward)


def permute(x: jax.Array, axes: Optional[Sequence[int]] = None) -> jax.Array:
    """jnp.transpose(x, axes) by ptxpose's kernels (axes as NumPy's: None reverses, negative from
    the end), in jit, vmap and grad. The identity (and a 0-d x) is x itself."""
    perm = _permute.axes_of(axes, x.ndim) if x.ndim else ()
    if perm == tuple(range(x.ndim)):
        return x
    return _permuted(x, perm)


def transpose(x: jax.Array, dim0: int = -2, dim1: int = -1) -> jax.Array:
    """jnp.swapaxes(x, dim0, dim1) by ptxpose's kernels, in jit, vmap and grad."""
    p = list(range(x.ndim))
    a, b = _permute.dim_of(dim0, x.ndim, 'dim0'), _permute.dim_of(dim1, x.ndim, 'dim1')
    p[a], p[b] = p[b], p[a]
    return permute(x, p)
