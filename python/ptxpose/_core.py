"""transpose(), Plan and the queries: the package's calls into the library."""
from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, SupportsIndex, Tuple, TypeVar, Union

from . import _arrays, _handles, _jax, _lib, _streams
from ._arrays import View
from ._errors import ContextMismatch, Error, InvalidArgument, InvalidType, Unsupported

MODES = {'heuristic': 0, 'measure': 1}
ArrayT = TypeVar('ArrayT')  # the caller's array type: results are of x's kind (out's, where given)
StreamLike = Union[int, object, None]  # an int handle, a torch/CuPy/Numba stream, __cuda_stream__; None: current
DIM_MAX = 2**31 - 1  # rows, cols and batch (include/ptxpose.h); the library checks them, this spares an allocation
PLANS_KEPT = 1024  # transpose()'s plans per device; past it they are dropped and made again


@dataclass(frozen=True)
class PlanInfo:
    """What a plan chose (ptxpose_plan_info): `kernel` is a kernel's name or "copy"."""
    kernel: str
    kernel_index: int
    grid: Tuple[int, int, int]
    block: Tuple[int, int, int]
    dyn_smem: int
    predicted_us: float
    measured_us: float
    unsure: bool
    candidates: int
    from_cache: bool
    timed: int
    measure_ms: float


@dataclass(frozen=True)
class Kernel:
    """One kernel the library holds (ptxpose_kernel_info)."""
    name: str
    elem_bytes: int
    tile_rows: int
    tile_cols: int
    per_block: int
    block: Tuple[int, int, int]
    regs: int
    source: str
    meta: str
    ptx: str


@dataclass(frozen=True)
class Device:
    """The device of a handle (ptxpose_device_info)."""
    name: str
    ordinal: int
    cc: Tuple[int, int]
    sm_count: int
    l2_bytes: int
    driver_version: int


def _s(b: Optional[bytes]) -> str:
    return b.decode(errors='replace') if b else ''


def _device_of(v: View, role: str) -> int:
    """The array's device: as it says, else as the driver says of its pointer, else the
    current context's (where a handle would be made)."""
    if v.device is not None:
        return v.device
    d = _handles.pointer_device(v.ptr, role)
    return _handles.current_device() if d is None else d


class _Problem:
    """A transpose of x into out, checked: the two views and matrices, and the desc's fields.
    `cx`, `co`: the interface fields of x and out where the warm path read them (_cai_warm)."""
    __slots__ = ('x', 'out', 'mx', 'mo', 'device', 'empty', 'stream')

    def __init__(self, x: Any, out: Any, stream: Optional[int], plan_only: bool = False, cx: Any = None,
                 co: Any = None):
        self.x = vx = _arrays.view(x, 'x', stream, cx)
        self.mx = mx = _arrays.matrix(vx, 'x')
        _arrays.check_pointer(vx, 'x')
        if mx.span and not vx.ptr:
            raise InvalidArgument(f'x: a null data pointer for shape {vx.shape}')
        self.device = _device_of(vx, 'x')
        # the stream the transpose runs on (None for a plan): out's DLPack producer orders its work before it
        self.stream = stream if stream is not None or plan_only else _streams.current(vx)
        want = vx.shape[:-2] + (mx.cols, mx.rows)
        if out is None and mx.span and max(mx.rows, mx.cols, mx.batch) > DIM_MAX:  # before any memory is taken
            raise InvalidArgument(f'x: shape {vx.shape}: rows, cols and batch of a transpose are 1 to {DIM_MAX}; '
                                  f'no result allocated')
        if out is None and plan_only:  # a Plan's C-contiguous result: its layout, no memory
            vo = View(None, 'plan', 0, want, _arrays.contiguous(want), vx.itemsize, vx.dtype, self.device)
        else:
            made = (_jax.Buffer(self.device, want, vx.dtype) if vx.kind == 'jax' else
                    _allocate(vx.obj, vx.kind, vx.device, want)) if out is None else out
            vo = _arrays.view(made, 'out', self.stream, co if made is out else None)
        self.out = vo
        if vo.shape != want:
            raise InvalidArgument(f'out: shape {vo.shape}, but x of shape {vx.shape} transposes to {want}')
        if vo.dtype != vx.dtype or vo.itemsize != vx.itemsize:
            raise InvalidArgument(f'out: dtype {vo.dtype}, x is {vx.dtype}')
        if vo.readonly:
            raise InvalidArgument(f'out: a read-only array ({type(out).__name__})')
        self.mo = mo = _arrays.matrix(vo, 'out')
        _arrays.check_pointer(vo, 'out')
        if mo.span and not vo.ptr and vo.kind != 'plan':
            raise InvalidArgument(f'out: a null data pointer for shape {vo.shape}')
        od = _device_of(vo, 'out') if vo.kind != 'plan' else self.device
        if vo.kind != 'plan' and od != self.device:
            raise InvalidArgument(f'out: on device {od}, x on device {self.device}')
        self.empty = mx.span == 0
        if not self.empty and vo.ptr and vx.ptr < vo.ptr + mo.span and vo.ptr < vx.ptr + mx.span:
            raise InvalidArgument(f'x and out overlap: x spans {vx.ptr:#x}..{vx.ptr + mx.span:#x}, out '
                                  f'{vo.ptr:#x}..{vo.ptr + mo.span:#x} (a transpose is out of place)')

    def fields(self) -> Tuple[int, ...]:
        mx, mo = self.mx, self.mo
        return (self.x.itemsize, mx.rows, mx.cols, mx.ld, mo.ld, mx.batch, mx.bstride, mo.bstride)


def _allocate(x: Any, kind: str, device: Optional[int], shape: Tuple[int, ...]) -> Any:
    """A new C-contiguous array of the caller's kind (a View's `kind`) for the result."""
    if kind == 'torch':
        return x.new_empty(shape)
    mod = sys.modules.get(type(x).__module__.partition('.')[0])
    if kind == 'cupy':
        with mod.cuda.Device(device):
            return mod.empty(shape, dtype=x.dtype)
    if kind == 'numba':
        return mod.cuda.device_array(shape, dtype=x.dtype)
    empty = getattr(mod, 'empty', None)
    if kind == 'cai' and callable(empty) and hasattr(x, 'dtype'):
        return empty(shape, dtype=x.dtype)
    raise Unsupported(f'x: cannot make a result array like a {type(x).__module__}.{type(x).__name__} (its '
                      f'module has no empty()): pass out=')


def _desc(f: Tuple[int, ...], align_in: int, align_out: int, mode: int, kernel: Optional[bytes],
          budget_ms: float) -> _lib.Desc:
    d = _lib.Desc()
    d.size = ctypes.sizeof(_lib.Desc)
    (d.elem_bytes, d.rows, d.cols, d.ld_in, d.ld_out, d.batch, d.stride_in, d.stride_out) = f
    d.align_in, d.align_out, d.mode, d.measure_budget_ms, d.kernel = align_in, align_out, mode, budget_ms, kernel
    return d


class Plan:
    """An explicit plan: a transpose problem fixed once, executed as often as you like.

        p = ptxpose.Plan(x)                      # the layout of x (and of a C-contiguous result)
        p = ptxpose.Plan(x, out, mode='measure') # or of x into out; timed on the GPU
        p = ptxpose.Plan(x, kernel='fast_b32')   # one kernel by name (ptxpose.kernels())
        y = p.execute(x2, None, stream)          # any arrays of the same layout

    `mode`: 'heuristic' (the cost model chooses; no GPU time) or 'measure' (the
    plausible kernels timed on scratch buffers, or the on-disk cache's choice;
    `measure_budget_ms`, 0 for the library's 200 ms). `align`: the byte
    alignment promised for every pointer executed (default: that of the
    example arrays, up to 256). `info` says what was chosen. A Plan is bound to
    the device of its example array.
    """

    def __init__(self, x: Any, out: Any = None, *, mode: str = 'heuristic', kernel: Optional[str] = None,
                 measure_budget_ms: float = 0.0, align: Optional[int] = None):
        if not isinstance(mode, str) or mode not in MODES:
            raise (InvalidArgument if isinstance(mode, str) else InvalidType)(
                f"mode {mode!r}: 'heuristic' or 'measure'")
        if kernel is not None:
            if not isinstance(kernel, str):
                raise InvalidType(f'kernel {kernel!r}: a kernel name (a str, ptxpose.kernels())')
            try:
                name = kernel.encode()
            except UnicodeEncodeError:
                raise InvalidArgument(f'kernel {kernel!r}: not a kernel name (it has no UTF-8 encoding)') from None
            if b'\0' in name:
                raise InvalidArgument(f'kernel {kernel!r}: a kernel name holds no NUL character')
        if align is not None:
            align = _arrays.integer(align, 'align', 1, 2**31)  # the desc's uint32 align_in/out
        try:
            measure_budget_ms = float(measure_budget_ms)
        except (TypeError, ValueError):
            raise InvalidType(f'measure_budget_ms {measure_budget_ms!r} is not a number') from None
        pb = _Problem(x, out, None, plan_only=True)
        if pb.empty:
            raise InvalidArgument(f'x: shape {pb.x.shape} has no element: nothing to plan')
        self.device = pb.device
        self._handle = _handles.get(self.device)
        self._fields = pb.fields()
        a_in = align or _arrays.alignment(pb.x.ptr)
        a_out = align or (_arrays.alignment(pb.out.ptr) if pb.out.ptr else 256)
        self._kernel = name if kernel is not None else None
        d = _desc(self._fields, a_in, a_out, MODES[mode], self._kernel, measure_budget_ms)
        self._ptr = ctypes.c_void_p()
        self._warm: Dict[Any, Tuple[int, int]] = {}  # execute()'s torch layouts checked: (x, out) keys -> spans
        _handles.check(_lib.load().ptxpose_plan_create(self._handle.ptr, ctypes.byref(self._ptr), ctypes.byref(d)))
        self.desc: Dict[str, Any] = {k: getattr(d, k) for k in ('elem_bytes', 'rows', 'cols', 'ld_in', 'ld_out',
                                                               'batch', 'stride_in', 'stride_out', 'align_in',
                                                               'align_out')}
        self.desc.update(mode=mode, kernel=kernel)
        self.out_shape = pb.out.shape

    @property
    def info(self) -> PlanInfo:
        """The chosen kernel, its launch and what choosing it cost."""
        i = _lib.PlanInfo()
        _handles.check(_lib.load().ptxpose_plan_get(self._ptr, ctypes.byref(i)))
        return PlanInfo(_s(i.kernel), i.kernel_index, tuple(i.grid), tuple(i.block), i.dyn_smem, i.predicted_us,
                        i.measured_us, bool(i.unsure), i.candidates, bool(i.from_cache), i.timed, i.measure_ms)

    def execute(self, x: Any, out: Any = None, stream: Any = None) -> Any:
        """Enqueue the transpose of x into out (None: a new array of x's kind) on `stream`
        (None: the caller's current stream) and return out; no synchronization. x and out
        must have the plan's layout."""
        if type(x) in _TORCH_TYPES and type(out) in _TORCH_TYPES:  # a layout executed before: no checks again
            tx, xp = _torch_key(x)
            to, op = _torch_key(out)
            spans = self._warm.get((tx, to)) if tx is not None and to is not None else None
            if spans is not None and xp and op and not (xp < op + spans[1] and op < xp + spans[0]):
                return _launch(self._ptr, xp, op, tx[3], stream, x, out)
        pb = _Problem(x, out, _streams.handle(stream))
        if pb.fields() != self._fields:
            raise InvalidArgument(f'x and out do not have the layout of this plan: (elem_bytes, rows, cols, ld_in, '
                                  f'ld_out, batch, stride_in, stride_out) {pb.fields()}, the plan '
                                  f'{self._fields}')
        if pb.device != self.device:
            raise ContextMismatch(f'x: on device {pb.device}, the plan on device {self.device}')
        _handles.check(_lib.load().ptxpose_execute(self._ptr, pb.x.ptr, pb.out.ptr, pb.stream))
        if stream is not None:
            _record(pb)
        if pb.out.kind == 'jaxout':
            return _jax.result(pb, x)
        if pb.x.kind == 'torch' and pb.out.kind == 'torch' and pb.x.obj is x and out is not None:
            tx, to = _remember(x, out, pb, None)
            if tx is not None and to is not None and len(self._warm) < PLANS_KEPT:
                self._warm[(tx, to)] = (pb.mx.span, pb.mo.span)
        return pb.out.obj

    def close(self) -> None:
        """Destroy the library's plan now (else when the Plan is collected)."""
        p, self._ptr = getattr(self, '_ptr', None), None
        if p is not None and p.value and _lib._lib is not None:
            _lib._lib.ptxpose_plan_destroy(p)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self) -> 'Plan':
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f'<ptxpose.Plan {self.desc} on device {self.device}>'


def transpose(x: ArrayT, dim0: SupportsIndex = -2, dim1: SupportsIndex = -1, *, out: Optional[ArrayT] = None,
              stream: StreamLike = None) -> ArrayT:
    """Swap two dimensions of a CUDA array, materialized: torch.transpose(x, dim0, dim1).contiguous();
    by default the last two, out[..., j, i] = x[..., i, j].

    x: a torch tensor, CuPy, Numba or JAX array, or any object with __cuda_array_interface__ (v2,
    v3) or __dlpack__; its strides, dtype (1, 2, 4, 8 or 16-byte elements) and pointer alignment are
    honoured, and its leading dimensions are a batch. dim0, dim1: dimensions (negative from the
    end). out (keyword-only): None (a new C-contiguous array of x's kind; a jax.Array for JAX, which
    out= cannot be: it is immutable) or an array of x's shape with dim0 and dim1 swapped, of x's
    dtype, on x's device, not overlapping x. stream: None (the caller's current stream), an int
    handle or a stream object. Returns out. Asynchronous: no synchronization, so it can be captured
    in a CUDA graph (plan a problem once outside the capture: the first call for a problem makes its
    plan). Another pair than the last two runs as permute() with those two swapped.
    """
    if dim0.__class__ is not int or dim1.__class__ is not int or dim0 != -2 or dim1 != -1:
        if (dim0.__class__ is not int or dim1.__class__ is not int or (dim0, dim1) != (-1, -2)):
            return _swap(x, dim0, dim1, out, stream)
    if type(x) in _TORCH_TYPES:  # a layout checked before: its plan, without reading it again
        tx, xp = _torch_key(x)
        plan = None
        if tx is not None and xp:
            if out is None:
                warm = _warm.get(tx)
                if warm is not None:
                    y = x.new_empty(warm[1])
                    op = y.data_ptr()
                    if op & 255 == warm[2]:
                        plan = warm[3]
                    else:
                        out = y  # another alignment: planned below
            elif type(out) in _TORCH_TYPES:
                to, op = _torch_key(out)
                warm = _warm.get((tx, to)) if to is not None else None
                if warm is not None and op and not (xp < op + warm[2] and op < xp + warm[1]):  # else named below
                    plan, y = warm[3], out
        if plan is not None:  # _launch's work, written out: a Python call less on the path that counts
            s = _raw_stream(tx[3]) if stream is None else _streams.handle(stream)
            rc = _execute(plan, xp, op, s)
            if rc:
                _handles.check(rc)
            if stream is not None:
                _streams.record(s, tx[3], x, y)
            return y
    else:
        kind = _CAI_TYPES.get(type(x))
        if kind is not None and (out is None or type(out) in _CAI_TYPES):
            done, made, cx, co = _cai_warm(x, kind, out, stream)
            if done is not None:
                return done
            if made is not None:  # the result made, its layout not warm: checked below as out
                out = made
            return _transpose(x, out, stream, cx, co)
    return _transpose(x, out, stream)


def _swap(x: Any, dim0: Any, dim1: Any, out: Any, stream: Any) -> Any:
    """transpose() of two dimensions other than the last two (by permute())."""
    from . import _permute

    def perm_of(rank: int) -> Tuple[int, ...]:
        p = list(range(rank))
        a, b = _permute.dim_of(dim0, rank, 'dim0'), _permute.dim_of(dim1, rank, 'dim1')
        p[a], p[b] = p[b], p[a]
        return tuple(p)
    return _permute.run(x, perm_of, out, stream)


def _transpose(x: Any, out: Any, stream: Any, cx: Any = None, co: Any = None) -> Any:
    """transpose(), every check made (on the interface fields cx and co where the warm path read them)."""
    pb = _Problem(x, out, _streams.handle(stream), cx=cx, co=co)
    if pb.empty:
        return _jax.result(pb, x) if pb.out.kind == 'jaxout' else pb.out.obj
    h = _handles.get(pb.device)
    key = pb.fields() + (_arrays.alignment(pb.x.ptr), _arrays.alignment(pb.out.ptr))
    lib = _lib.load()
    owned = h.plans.get(key)  # held here: another thread dropping the entry cannot destroy it under us
    if owned is None:
        if len(h.plans) >= PLANS_KEPT or len(_warm) >= PLANS_KEPT or len(_cai_warm_keys) >= PLANS_KEPT:
            h.plans.clear()
            _warm.clear()
            _cai_warm_keys.clear()
        ptr = ctypes.c_void_p()
        d = _desc(key[:8], key[8], key[9], 0, None, 0.0)
        _handles.check(lib.ptxpose_plan_create(h.ptr, ctypes.byref(ptr), ctypes.byref(d)))
        owned = h.plans.setdefault(key, _Owned(ptr))  # a plan another thread made first is kept
    _handles.check(lib.ptxpose_execute(owned.ptr, pb.x.ptr, pb.out.ptr, pb.stream))
    if stream is not None:
        _record(pb)
    if pb.x.kind == 'torch' and pb.out.kind == 'torch' and pb.x.obj is x:  # x not resolved (a lazy conjugate)
        _remember(x, out, pb, owned)
    elif pb.x.kind in _CAI_KINDS and pb.out.kind in _CAI_KINDS:
        _cai_remember(pb, out is None, owned)
    elif pb.out.kind == 'jaxout':
        return _jax.result(pb, x)
    return pb.out.obj


# transpose()'s torch problems seen and checked: (x's key) -> (the plan, the result's shape, its pointer's
# low byte, the plan's pointer) or (x's key, out's key) -> (the plan, x's span, out's span, the plan's
# pointer). A key holds all a check reads but the pointers, whose low byte it holds (alignment, whole
# elements); the overlap of x and out is checked each call. Cleared with the handles' plans.
_warm: Dict[Any, Tuple[Any, ...]] = {}
_TORCH_TYPES: Dict[type, bool] = {}  # the tensor types seen: type(x) in it is the fast path's one test
_raw_stream: Any = None  # torch's current stream of a device, as a handle
_execute: Any = None  # the library's ptxpose_execute


def _torch_key(t: Any) -> Tuple[Any, int]:
    """A torch tensor's layout key and its pointer; (None, 0) where only the full checks can say."""
    dt = t.dtype
    if t.is_neg() or (dt.is_complex and t.is_conj()):  # a conjugate bit changes no real value (_arrays.py)
        return None, 0
    try:  # sparse and other layouts: no strides, or no storage to point at
        strides = t.stride()
        p = t.data_ptr()
    except RuntimeError:
        return None, 0
    return (t.shape, strides, dt, t.get_device(), p & 255), p


def _remember(x: Any, out: Any, pb: _Problem, owned: Optional['_Owned']) -> Tuple[Any, Any]:
    """Note a torch problem that passed every check (with transpose()'s plan, `owned`); its keys."""
    global _raw_stream, _execute
    if _raw_stream is None:
        torch = sys.modules['torch']
        raw = getattr(torch._C, '_cuda_getCurrentRawStream', None)  # the handle, without a Stream object
        _raw_stream = raw or (lambda d: torch.cuda.current_stream(d).cuda_stream)
        _execute = _lib.load().ptxpose_execute
    tx, xp = pb.x.key, pb.x.ptr  # the values checked and planned, not read again
    to, op = (pb.out.key, pb.out.ptr) if out is not None else (None, 0)
    if tx is None or tx[3] != pb.device or not xp or (out is not None and (to is None or not op)):
        return None, None
    _TORCH_TYPES[type(x)] = True
    if out is not None:
        _TORCH_TYPES[type(out)] = True
    if owned is not None:
        if len(_warm) >= PLANS_KEPT:
            _warm.clear()
        _warm[tx if out is None else (tx, to)] = ((owned, pb.out.shape, pb.out.ptr & 255, owned.ptr) if out is None
                                                  else (owned, pb.mx.span, pb.mo.span, owned.ptr))
    return tx, to


# The same for arrays read through __cuda_array_interface__: the keys of x and of out (_arrays.cai_fields:
# type, shape, strides, typestr, version, read-only flag, whether a stream is given, the pointer's low byte)
# -> the plan and both spans; x's key alone -> the shape of the result transpose(x) makes. Each interface
# is read once a call: a layout not warm is checked from the fields the lookup read, and remembered by
# the keys of those. The pointers, the devices and the stream are read each call.
_cai_warm_keys: Dict[Any, Tuple[Any, ...]] = {}
_CAI_TYPES: Dict[type, str] = {}  # type -> its View kind
_CAI_KINDS = ('cupy', 'numba', 'cai')


def _cai_device(a: Any, ptr: int, role: str) -> int:
    d = _arrays.device_id(role, a)
    if d is not None:
        return d
    d = _handles.pointer_device(ptr, role)
    return _handles.current_device() if d is None else d


def _cai_warm(x: Any, kind: str, out: Any, stream: Any) -> Tuple[Any, Any, Any, Any]:
    """transpose() of interface arrays of a layout checked before: (out, None, None, None) when
    done; else (None, the result made or None, x's fields, out's fields or the Error reading them
    raised, or None) for the full path, which then reads neither interface again."""
    c = _arrays.cai_read('x', x)
    if c is None:  # no interface now: the full path says what x is
        return None, None, None, None
    fx = _arrays.cai_fields('x', x, c)  # an Error here is the full path's first too
    kx, xp, xs = fx[0], fx[1], fx[2]
    made = None
    if out is None:
        want = _cai_warm_keys.get(kx)
        if want is None:
            return None, None, fx, None
        dev = _cai_device(x, xp, 'x')
        out = made = _allocate(x, kind, dev, want)
    try:
        c = _arrays.cai_read('out', out)
        fo = _arrays.cai_fields('out', out, c) if c is not None else None
    except Error as e:  # raised by the full path where it reads out (after x's checks)
        return None, made, fx, e
    if fo is None:
        return None, made, fx, None
    ko, op = fo[0], fo[1]
    warm = _cai_warm_keys.get((kx, ko))
    if warm is None or not xp or not op or (xp < op + warm[2] and op < xp + warm[1]):  # named by the full path
        return None, made, fx, fo
    dev = _cai_device(x, xp, 'x')
    if _cai_device(out, op, 'out') != dev:
        return None, made, fx, fo
    if stream is not None:
        s = _streams.handle(stream)
    elif xs is not None:
        s = xs
    elif kind == 'cupy':
        s = sys.modules['cupy'].cuda.get_current_stream().ptr
    else:
        s = 0
    rc = _lib.load().ptxpose_execute(warm[0].ptr, xp, op, s)
    if rc:
        _handles.check(rc)
    return out, None, None, None


def _cai_remember(pb: _Problem, made: bool, owned: '_Owned') -> None:
    """Note an interface problem that passed every check, by the keys of the fields checked."""
    kx, ko = pb.x.key, pb.out.key
    if kx is None or ko is None:
        return
    if len(_cai_warm_keys) >= PLANS_KEPT:
        _cai_warm_keys.clear()
    _CAI_TYPES[type(pb.x.obj)], _CAI_TYPES[type(pb.out.obj)] = pb.x.kind, pb.out.kind
    _cai_warm_keys[(kx, ko)] = (owned, pb.mx.span, pb.mo.span)
    if made:
        _cai_warm_keys[kx] = pb.out.shape


def _record(pb: _Problem) -> None:
    """The torch tensors of a problem run on an explicit stream, told to the allocator (_streams.record)."""
    torch = [v.obj for v in (pb.x, pb.out) if v.kind == 'torch']
    if torch:
        _streams.record(pb.stream, pb.device, *torch)


def _launch(plan: ctypes.c_void_p, xp: int, op: int, device: int, stream: Any, x: Any, out: Any) -> Any:
    """Execute a plan on arrays checked before, on the stream asked or torch's current one."""
    s = _raw_stream(device) if stream is None else _streams.handle(stream)
    rc = _execute(plan, xp, op, s)
    if rc:
        _handles.check(rc)
    if stream is not None:
        _streams.record(s, device, x, out)
    return out


class _Owned:
    """A library plan that transpose() keeps; destroyed with its entry."""
    __slots__ = ('ptr',)

    def __init__(self, ptr: ctypes.c_void_p):
        self.ptr = ptr

    # _mod is bound here: at interpreter exit this module's globals may be None before the
    # last _Owned goes (a cache emptied late), and the library may be gone (_mod._lib None)
    def __del__(self, _mod: Any = _lib) -> None:
        lib = getattr(_mod, '_lib', None)
        if lib is not None and self.ptr.value:
            lib.ptxpose_plan_destroy(self.ptr)


def kernels(device: Optional[int] = None) -> List[Kernel]:
    """Every kernel the library holds (built in, and any $PTXPOSE_PTX adds). With no device,
    no driver is needed; with one, that device's handle's (made on first use)."""
    lib = _lib.load()
    h = _handles.get(device).ptr if device is not None else None
    n = ctypes.c_int()
    _handles.check(lib.ptxpose_kernel_count(h, ctypes.byref(n)))
    out = []
    for i in range(n.value):
        k = _lib.KernelInfo()
        _handles.check(lib.ptxpose_kernel_get(h, i, ctypes.byref(k)))
        out.append(Kernel(_s(k.name), k.elem_bytes, k.tile_rows, k.tile_cols, k.per_block, tuple(k.block), k.regs,
                          _s(k.source), _s(k.meta), _s(k.ptx)))
    return out


def device(device: Optional[int] = None) -> Device:
    """The device (None: the current context's, else 0) as the library sees it."""
    h, lib = _handles.get(device), _lib.load()
    i = _lib.DeviceInfo()
    _handles.check(lib.ptxpose_device_get(h.ptr, ctypes.byref(i)))
    return Device(_s(i.name), i.ordinal, (i.cc_major, i.cc_minor), i.sm_count, i.l2_bytes, i.driver_version)


def version() -> str:
    """The library's version and commit: "0.3.0 (commit 1a2b3c4)"."""
    return _s(_lib.load().ptxpose_version())


def library_path() -> _lib.Located:
    """The path of the libptxpose loaded (a str) and, in `.source`, how it was found:
    "bundled", "$PTXPOSE_LIB", "installed prefix", "dynamic loader" or "build folder"."""
    return _lib.where()
