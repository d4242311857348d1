"""ptxpose as PyTorch operators: torch.ops.ptxpose.{permute, transpose, contiguous} and their
out= variants, which torch.compile keeps in its graph and autograd differentiates.

    import ptxpose.torch as pt                   # registers the operators (needs torch)
    y = pt.permute(x, (0, 2, 1, 3))              # torch.ops.ptxpose.permute
    y = pt.transpose(x, 1, 2)                    # materialized: x.transpose(1, 2).contiguous()
    y = pt.contiguous(x)                         # x itself where it is contiguous already
    pt.permute(x, (1, 0), out=y)                 # torch.ops.ptxpose.permute_out, mutating y

    @torch.compile(fullgraph=True, dynamic=True) # no graph break: the operators have fake
    def f(x): return pt.permute(x, (2, 0, 1))    # (meta) implementations for any shape

Each operator runs ptxpose's kernel on torch's current CUDA stream (what torch's own
operators run on, inside a CUDA graph capture too), on CUDA tensors of any strides. The
backward of a permutation is the inverse permutation through the same operator (of a
transpose, the same transpose; of contiguous, the gradient itself). The out= variants are
declared as mutating `out` and have no backward (as torch's out= operators). `import ptxpose`
registers them by itself when torch is already imported; this module imports torch.
"""
from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import torch

from . import _permute
from ._core import transpose as _transpose

__all__ = ['permute', 'transpose', 'contiguous']


def _axes(x: torch.Tensor, axes: Optional[Sequence[int]]) -> List[int]:
    return list(_permute.axes_of(axes, x.dim()))


def _swap(rank: int, dim0: int, dim1: int) -> List[int]:
    p = list(range(rank))
    a, b = _permute.dim_of(dim0, rank, 'dim0'), _permute.dim_of(dim1, rank, 'dim1')
    p[a], p[b] = p[b], p[a]
    return p


def _inverse(p: Sequence[int]) -> List[int]:
    inv = [0] * len(p)
    for k, v in enumerate(p):
        inv[v] = k
    return inv


# ---- the operators: eager implementations (CUDA), fake ones (any device, symbolic shapes)

@torch.library.custom_op('ptxpose::permute', mutates_args=(), device_types='cuda')
def _permute_op(x: torch.Tensor, dims: List[int]) -> torch.Tensor:
    return _permute.permute(x, dims)


@_permute_op.register_fake
def _(x: torch.Tensor, dims: List[int]) -> torch.Tensor:
    return x.new_empty([x.shape[d] for d in dims])


@torch.library.custom_op('ptxpose::permute_out', mutates_args=('out',), device_types='cuda')
def _permute_out(x: torch.Tensor, dims: List[int], out: torch.Tensor) -> None:
    _permute.permute(x, dims, out=out)


@_permute_out.register_fake
def _(x: torch.Tensor, dims: List[int], out: torch.Tensor) -> None:
    return None


@torch.library.custom_op('ptxpose::transpose', mutates_args=(), device_types='cuda')
def _transpose_op(x: torch.Tensor, dim0: int, dim1: int) -> torch.Tensor:
    return _transpose(x, dim0, dim1)


@_transpose_op.register_fake
def _(x: torch.Tensor, dim0: int, dim1: int) -> torch.Tensor:
    return x.new_empty([x.shape[d] for d in _swap(x.dim(), dim0, dim1)])


@torch.library.custom_op('ptxpose::transpose_out', mutates_args=('out',), device_types='cuda')
def _transpose_out(x: torch.Tensor, dim0: int, dim1: int, out: torch.Tensor) -> None:
    _transpose(x, dim0, dim1, out=out)


@_transpose_out.register_fake
def _(x: torch.Tensor, dim0: int, dim1: int, out: torch.Tensor) -> None:
    return None


@torch.library.custom_op('ptxpose::contiguous', mutates_args=(), device_types='cuda')
def _contiguous_op(x: torch.Tensor) -> torch.Tensor:  # always a copy: an operator returns no alias
    return _permute.permute(x, list(range(x.dim())))


@_contiguous_op.register_fake
def _(x: torch.Tensor) -> torch.Tensor:
    return x.new_empty(x.shape)


@torch.library.custom_op('ptxpose::contiguous_out', mutates_args=('out',), device_types='cuda')
def _contiguous_out(x: torch.Tensor, out: torch.Tensor) -> None:
    _permute.permute(x, list(range(x.dim())), out=out)


@_contiguous_out.register_fake
def _(x: torch.Tensor, out: torch.Tensor) -> None:
    return None


# ---- autograd: the inverse permutation through the same operators

def _keep_dims(ctx: object, inputs: Tuple[object, ...], output: object) -> None:
    ctx.dims = inputs[1:]  # type: ignore[attr-defined]


def _permute_backward(ctx: object, grad: torch.Tensor) -> Tuple[torch.Tensor, None]:
    return torch.ops.ptxpose.permute(grad, _inverse(ctx.dims[0])), None  # type: ignore[attr-defined]


def _transpose_backward(ctx: object, grad: torch.Tensor) -> Tuple[torch.Tensor, None, None]:
    dim0, dim1 = ctx.dims  # type: ignore[attr-defined]
    return torch.ops.ptxpose.transpose(grad, dim0, dim1), None, None


def _contiguous_backward(ctx: object, grad: torch.Tensor) -> torch.Tensor:
    return grad


_permute_op.register_autograd(_permute_backward, setup_context=_keep_dims)
_transpose_op.register_autograd(_transpose_backward, setup_context=_keep_dims)
_contiguous_op.register_autograd(_contiguous_backward, setup_context=_keep_dims)


# ---- the calls: ptxpose's conventions over the operators

def permute(x: torch.Tensor, axes: Optional[Sequence[int]] = None, *,
            out: Optional[torch.Tensor] = None) -> torch.Tensor:
    """x.permute(axes).contiguous() (numpy.transpose's axes: None reverses, negative from the end)
    through torch.ops.ptxpose.permute, or into out through permute_out (returning out)."""
    dims = _axes(x, axes)
    if out is None:
        return torch.ops.ptxpose.permute(x, dims)
    torch.ops.ptxpose.permute_out(x, dims, out)
    return out


def transpose(x: torch.Tensor, dim0: int = -2, dim1: int = -1, *,
              out: Optional[torch.Tensor] = None) -> torch.Tensor:
    """x.transpose(dim0, dim1).contiguous() through torch.ops.ptxpose.transpose, or into out."""
    _swap(x.dim(), dim0, dim1)  # named here, before the dispatcher
    if out is None:
        return torch.ops.ptxpose.transpose(x, dim0, dim1)
    torch.ops.ptxpose.transpose_out(x, dim0, dim1, out)
    return out


def contiguous(x: torch.Tensor, *, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    """x.contiguous(): x itself where it is contiguous and no out is given, else a copy through
    torch.ops.ptxpose.contiguous (or into out)."""
    if out is None:
        return x if x.is_contiguous() else torch.ops.ptxpose.contiguous(x)
    torch.ops.ptxpose.contiguous_out(x, out)
    return out
