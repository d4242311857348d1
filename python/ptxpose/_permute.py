"""permute() and ascontiguousarray(): any permutation of an N-d CUDA array, and a copy into
C order, through the library's ptxpose_permute; NumPy's and torch's conventions for axes and dims."""
from __future__ import annotations

import ctypes
import sys
from types import SimpleNamespace
from typing import Any, Callable, Optional, Sequence, SupportsIndex, Tuple

from . import _arrays, _core, _handles, _jax, _lib, _streams
from ._core import ArrayT, StreamLike
from ._errors import InvalidArgument, InvalidType, SizeOverflow, Unsupported

STRIDE_MAX = 2**63 - 1  # the desc's int64 strides


def axes_of(axes: Any, rank: int, what: str = 'axes') -> Tuple[int, ...]:
    """axes as numpy.transpose takes them: None reverses the dimensions; else a sequence of
    integers, negative ones counted from the end, a permutation of 0..rank-1. An Error naming the
    entry at fault (InvalidType for what is no sequence of integers)."""
    if axes is None:
        return tuple(range(rank - 1, -1, -1))
    if isinstance(axes, (str, bytes)) or not hasattr(axes, '__iter__'):
        raise InvalidType(f'{what}: a {type(axes).__name__} is not a sequence of dimensions (a tuple of ints, '
                          f'or None to reverse them)')
    try:
        p = tuple(axes)
    except Exception as e:
        raise InvalidArgument(f'{what}: iterating a {type(axes).__name__} raised {type(e).__name__}: {e}') from None
    if len(p) != rank:
        raise InvalidArgument(f'{what}: {p} has {len(p)} entries, x has {rank} dimensions')
    out, seen = [], set()
    for k, v in enumerate(p):
        if isinstance(v, bool) or not hasattr(type(v), '__index__'):
            raise InvalidType(f'{what}[{k}] = {v!r} is not an integer')
        i = _arrays.integer(v, f'{what}[{k}]', -2**63, 2**63)
        if not -rank <= i < rank:
            raise InvalidArgument(f'{what}[{k}] = {i} is out of range (a permutation of 0 to {rank - 1}, or '
                                  f'-{rank} to -1 from the end)')
        i %= rank
        if i in seen:
            raise InvalidArgument(f'{what}[{k}] = {p[k]} repeats dimension {i} (a permutation of 0 to {rank - 1})')
        seen.add(i)
        out.append(i)
    return tuple(out)


def dim_of(d: Any, rank: int, what: str) -> int:
    """A dimension as torch takes one: an integer in -rank..rank-1 (negative from the end)."""
    if isinstance(d, bool) or not hasattr(type(d), '__index__'):
        if isinstance(d, (float, str, type(None))):
            raise InvalidType(f'{what} {d!r} is not a dimension (an int)')
        raise InvalidType(f'{what}: a {_arrays.name_of(d)} is not a dimension (an int; out= is keyword-only)')
    i = _arrays.integer(d, what, -2**63, 2**63)
    if not -rank <= i < rank:
        raise InvalidArgument(f'{what} {i} is out of range for a {rank}-d array (-{rank} to {rank - 1})')
    return i % rank


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


def permute(x: ArrayT, axes: Optional[Sequence[SupportsIndex]] = None, *, out: Optional[ArrayT] = None,
            stream: StreamLike = None) -> ArrayT:
    """Permute the dimensions of a CUDA array, as numpy.transpose(x, axes) (out's dimension k is
    x's dimension axes[k]; negative axes count from the end; None reverses them), materialized: as
    x.permute(axes).contiguous() in torch.

    x: a torch tensor, CuPy or Numba array, or any object with __cuda_array_interface__ or
    __dlpack__, of rank 1 to 8; its strides, dtype (1 to 16-byte elements) and alignment are
    honoured. out (keyword-only): None (a new C-contiguous array of x's kind; a jax.Array for JAX,
    which out= cannot be: it is immutable) or an array of shape tuple(x.shape[a] for a in axes) and
    x's dtype, on x's device, not overlapping x; any strides that keep its elements apart. stream:
    as for transpose(). Returns out. Asynchronous, no synchronization. The library drops extent-1
    dimensions, merges those adjacent in both arrays and plans the rest (a copy, a transpose over a
    batch, or a tiled copy); a problem no kernel of this build serves raises Unsupported.
    """
    return run(x, lambda rank: axes_of(axes, rank), out, stream)


def ascontiguousarray(x: ArrayT, *, out: Optional[ArrayT] = None, stream: StreamLike = None) -> ArrayT:
    """x as a C-contiguous array, as numpy.ascontiguousarray and torch's x.contiguous(): x itself
    where it is C-contiguous already and no out is given, else a copy (into out, or a new array of
    x's kind) at copy speed, whatever x's strides. out and stream as for permute()."""
    return run(x, lambda rank: tuple(range(rank)), out, stream, keep=out is None)


def run(x: Any, perm_of: Callable[[int], Tuple[int, ...]], out: Any, stream: Any, keep: bool = False) -> Any:
    """permute() of x by perm_of(its rank), x read once; with keep, x itself where it is
    C-contiguous (its dimensions of one element aside)."""
    s = _streams.handle(stream)
    vx = _arrays.view(x, 'x', s)
    rank = len(vx.shape)
    if keep and all(n == 1 or st == c for n, st, c in zip(vx.shape, vx.strides, _arrays.contiguous(vx.shape))):
        return x
    if not 1 <= rank <= _lib.MAX_RANK:
        raise InvalidArgument(f'x: a {rank}-d array: permute takes 1 to {_lib.MAX_RANK} dimensions')
    p = perm_of(rank)
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
    if s is not None:
        _core._record(SimpleNamespace(x=vx, out=vo, stream=run_on, device=dev))
    return _jax_result(vx, vo, run_on, x, p) if vo.kind == 'jaxout' else vo.obj


def _jax_result(vx: _arrays.View, vo: _arrays.View, stream: Any, x: Any, perm: Tuple[int, ...]) -> Any:
    """The jax.Array of the result buffer, as transpose() hands over its own (_jax.result)."""
    if not vo.obj.ptr:  # no element: nothing to hand over
        return sys.modules['jax'].numpy.transpose(x, perm)
    return _jax.result(SimpleNamespace(out=vo, stream=stream, x=vx), x)
