"""permute(): any permutation of an N-d CUDA array through the library's ptxpose_permute."""
from __future__ import annotations

import ctypes
import sys
from types import SimpleNamespace
from typing import Any, Sequence, Tuple

from . import _arrays, _core, _handles, _jax, _lib, _streams
from ._errors import InvalidArgument, SizeOverflow, Unsupported

STRIDE_MAX = 2**63 - 1  # the desc's int64 strides


def _perm_of(perm: Any, rank: int) -> Tuple[int, ...]:
    """perm as a tuple of ints, a permutation of 0..rank-1, or an InvalidArgument naming the entry."""
    try:
        p = tuple(perm)
    except TypeError:
        raise InvalidArgument(f'perm: a {type(perm).__name__} is not a sequence of dimensions') from None
    if len(p) != rank:
        raise InvalidArgument(f'perm: {p} has {len(p)} entries, x has {rank} dimensions')
    seen = set()
    for k, v in enumerate(p):
        if isinstance(v, bool) or not hasattr(type(v), '__index__'):
            raise InvalidArgument(f'perm[{k}] = {v!r} is not an integer')
        v = v.__index__()
        if not 0 <= v < rank:
            raise InvalidArgument(f'perm[{k}] = {v} is out of range (a permutation of 0 to {rank - 1})')
        if v in seen:
            raise InvalidArgument(f'perm[{k}] = {v} repeats (a permutation of 0 to {rank - 1})')
        seen.add(v)
    return tuple(int(v) for v in p)


def _strides(v: _arrays.View, role: str) -> Tuple[int, ...]:
    """The desc's strides of a side, checked: a dimension of one element gets stride 1 (its stride
    is never used), so that the library never reads strides given as its all-zero "packed"."""
    for i, (n, s) in enumerate(zip(v.shape, v.strides)):
        if s < 0 and n > 1:
            raise Unsupported(f'{role}: negative stride {s} elements (dimension {i} of shape {v.shape}): not '
                              f'supported yet; pass a copy')
        if s == 0 and n > 1 and role == 'x':
            raise Unsupported(f'x: a broadcast dimension (dimension {i} of shape {v.shape}, stride 0): not '
                              f'supported; pass a copy')
        if s > STRIDE_MAX:
            raise InvalidArgument(f'{role}: stride {s} elements (dimension {i}) is past 2^63')
    strides = tuple(s if n != 1 else 1 for n, s in zip(v.shape, v.strides))
    if role == 'out':
        _distinct(v.shape, strides)
    return strides


def _distinct(shape: Tuple[int, ...], strides: Tuple[int, ...]) -> None:
    """out's elements at distinct addresses, by the library's test (common/nd.h, nd_check): the
    dimensions of two or more elements by stride ascending, each stride at least the span of the
    faster ones. Sufficient, not exact: interleaved layouts that never collide are refused too."""
    span = 1
    for s, n, k in sorted((s, n, k) for k, (n, s) in enumerate(zip(shape, strides)) if n > 1):
        if s < span:
            raise InvalidArgument(f'out: its elements are not distinct: stride {s} elements (dimension {k} of shape '
                                  f'{shape}, strides {strides}) is less than {span}, the span of the dimensions '
                                  f'with smaller strides (interleaved layouts are refused as they may alias)')
        span += s * (n - 1)


def _span(v: _arrays.View, role: str) -> int:
    """Bytes from the pointer to one past the last element (0 for an empty array); past 2^63, an Error."""
    if 0 in v.shape:
        return 0
    span = (sum((n - 1) * max(s, 0) for n, s in zip(v.shape, v.strides)) + 1) * v.itemsize
    if span > STRIDE_MAX:
        raise SizeOverflow(f'{role}: shape {v.shape} with strides {v.strides} spans {span} bytes, past 2^63')
    return span


def permute(x: Any, perm: Sequence[int], out: Any = None, *, stream: Any = None) -> Any:
    """Permute the dimensions of a CUDA array: out = x.transpose(perm) in NumPy's convention
    (out's dimension k is x's dimension perm[k]), as x.permute(perm).contiguous() in torch.

    x: a torch tensor, CuPy or Numba array, or any object with __cuda_array_interface__ or
    __dlpack__, of rank 1 to 8; its strides, dtype (1 to 16-byte elements) and alignment are
    honoured. out: None (a new C-contiguous array of x's kind; a jax.Array for JAX, which out= cannot
    be: it is immutable) or an array of shape
    tuple(x.shape[p] for p in perm) and x's dtype, on x's device, not overlapping x; any strides that
    keep its elements apart. stream: as for transpose(). Returns out. Asynchronous, no
    synchronization. The library drops extent-1 dimensions, merges those adjacent in both arrays
    and plans the rest (a copy, a transpose over a batch, or a tiled copy); a problem no kernel of
    this build serves raises Unsupported.
    """
    s = _streams.handle(stream)
    vx = _arrays.view(x, 'x', s)
    rank = len(vx.shape)
    if not 1 <= rank <= _lib.MAX_RANK:
        raise InvalidArgument(f'x: a {rank}-d array: permute takes 1 to {_lib.MAX_RANK} dimensions')
    p = _perm_of(perm, rank)
    if min(vx.shape) < 0:
        raise InvalidArgument(f'x: shape {vx.shape} has a negative dimension')
    if max(vx.shape) > STRIDE_MAX:  # the desc's uint64 extents would wrap; the library names the rest
        raise SizeOverflow(f'x: shape {vx.shape}: extent {max(vx.shape)} is past 2^63')
    _arrays.check_pointer(vx, 'x')
    empty = 0 in vx.shape
    if not empty and not vx.ptr:
        raise InvalidArgument(f'x: a null data pointer for shape {vx.shape}')
    sx = _strides(vx, 'x') if not empty else vx.strides
    ax = _span(vx, 'x')  # before the result's memory is taken
    dev = _core._device_of(vx, 'x')
    run_on = s if s is not None else _streams.current(vx)
    want = tuple(vx.shape[k] for k in p)
    if out is None:  # every check of x made: the result's memory now
        made = (_jax.Buffer(dev, want, vx.dtype) if vx.kind == 'jax' else
                _core._allocate(vx.obj, vx.kind, vx.device, want))
    else:
        made = out
    vo = _arrays.view(made, 'out', run_on)
    if vo.shape != want:
        raise InvalidArgument(f'out: shape {vo.shape}, but x of shape {vx.shape} permuted by {p} is {want}')
    if vo.dtype != vx.dtype or vo.itemsize != vx.itemsize:
        raise InvalidArgument(f'out: dtype {vo.dtype}, x is {vx.dtype}')
    if vo.readonly:
        raise InvalidArgument(f'out: a read-only array ({type(made).__name__})')
    _arrays.check_pointer(vo, 'out')
    od = _core._device_of(vo, 'out') if vo.kind != 'jaxout' else dev
    if od != dev:
        raise InvalidArgument(f'out: on device {od}, x on device {dev}')
    if empty:
        return _jax_result(vx, vo, run_on, x, p) if vo.kind == 'jaxout' else vo.obj
    if not vo.ptr:
        raise InvalidArgument(f'out: a null data pointer for shape {vo.shape}')
    so = _strides(vo, 'out')
    ao = _span(vo, 'out')
    if vx.ptr < vo.ptr + ao and vo.ptr < vx.ptr + ax:
        raise InvalidArgument(f'x and out overlap: x spans {vx.ptr:#x}..{vx.ptr + ax:#x}, out '
                              f'{vo.ptr:#x}..{vo.ptr + ao:#x} (a permutation is out of place)')
    d = _lib.Desc()
    d.size = ctypes.sizeof(_lib.Desc)
    d.elem_bytes, d.rank = vx.itemsize, rank
    for k in range(rank):
        d.extents[k], d.perm[k], d.strides_in[k], d.strides_out[k] = vx.shape[k], p[k], sx[k], so[k]
    h = _handles.get(dev)
    _handles.check(_lib.load().ptxpose_permute(h.ptr, ctypes.byref(d), vx.ptr, vo.ptr, run_on))
    return _jax_result(vx, vo, run_on, x, p) if vo.kind == 'jaxout' else vo.obj


def _jax_result(vx: _arrays.View, vo: _arrays.View, stream: Any, x: Any, perm: Tuple[int, ...]) -> Any:
    """The jax.Array of the result buffer, as transpose() hands over its own (_jax.result)."""
    if not vo.obj.ptr:  # no element: nothing to hand over
        return sys.modules['jax'].numpy.transpose(x, perm)
    return _jax.result(SimpleNamespace(out=vo, stream=stream, x=vx), x)
