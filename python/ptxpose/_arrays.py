"""Arrays as ptxpose sees them: a pointer, a shape, element strides, a width.

An array is read from, in this order: a torch.Tensor's own attributes (the
fastest: torch builds its __cuda_array_interface__ in Python), the CUDA Array
Interface (v2 or v3: `data`, `shape`, `typestr`, `strides`, `stream`), or
DLPack (`__dlpack_device__`, then the capsule of `__dlpack__`). `layout`
turns a view into the transpose's problem: the last two dimensions are the
matrix, the leading ones its batch. Nothing here calls the GPU.
"""
from __future__ import annotations

import ctypes
import operator
import sys
from typing import Any, Optional, Tuple

from ._errors import InvalidArgument, Misaligned, SizeOverflow, Unsupported

WIDTHS = (1, 2, 4, 8, 16)
ADDRESS_MAX = 2**64 - 1  # pointers and stream handles: what a C pointer holds
FIELD_MAX = 2**63 - 1  # a desc's sizes and strides: the library refuses more (PTXPOSE_ERR_OVERFLOW)
TYPESTR_KINDS = {'f': 'float', 'i': 'int', 'u': 'uint', 'c': 'complex', 'b': 'bool', 'V': 'void'}
DL_CODES = ('int', 'uint', 'float', 'opaque', 'bfloat', 'complex', 'bool')
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_CUDA_MANAGED = 1, 2, 3, 13
DL_NAMES = {1: 'CPU', 2: 'CUDA', 3: 'CUDA host (pinned)', 4: 'OpenCL', 7: 'Vulkan', 8: 'Metal', 9: 'VPI',
            10: 'ROCm', 11: 'ROCm host', 13: 'CUDA managed', 14: 'oneAPI'}


class View:
    """One array: `ptr` (bytes), `shape`, `strides` (elements), `itemsize` (bytes), `dtype` (a
    name such as "float32"), `device` (ordinal, or None when the array does not say), `stream`
    (the CAI v3 stream, or None), `readonly`, `kind` ("torch", "cupy", "numba", "cai",
    "dlpack", "jax"; "jaxout" for a JAX result's memory), `obj` (the array) and `keep` (what must live while the pointer is used)."""
    __slots__ = ('obj', 'kind', 'ptr', 'shape', 'strides', 'itemsize', 'dtype', 'device', 'stream',
                 'readonly', 'keep')

    def __init__(self, obj, kind, ptr, shape, strides, itemsize, dtype, device, stream=None, readonly=False,
                 keep=None):
        self.obj, self.kind, self.ptr, self.shape, self.strides = obj, kind, ptr, shape, strides
        self.itemsize, self.dtype, self.device, self.stream = itemsize, dtype, device, stream
        self.readonly, self.keep = readonly, keep


def integer(v: Any, what: str, lo: int = 0, hi: int = ADDRESS_MAX) -> int:
    """v as an int in lo..hi (an int, or what has __index__: a NumPy integer), or an Error
    naming it: ctypes would otherwise wrap a value past a C type's range without a word."""
    if isinstance(v, int) and not isinstance(v, bool):
        i = v
    else:
        try:
            if isinstance(v, bool):
                raise TypeError
            i = operator.index(v)
        except TypeError:
            raise InvalidArgument(f'{what} {v!r} is not an integer') from None
    if lo <= i <= hi:
        return i
    raise (SizeOverflow if i > hi else InvalidArgument)(f'{what} {i} is out of range ({lo} to {hi})')


def typestr_dtype(typestr: str) -> Tuple[str, int]:
    """('float32', 4) for '<f4': the dtype's name and its width in bytes."""
    if (not isinstance(typestr, str) or len(typestr) < 3 or typestr[0] not in '<>|=' or typestr[1] not in TYPESTR_KINDS
            or not typestr[2:].isdigit()):
        raise InvalidArgument(f"__cuda_array_interface__: typestr {typestr!r} is not a NumPy type string")
    width = int(typestr[2:])
    kind = TYPESTR_KINDS[typestr[1]]
    return ('bool' if kind == 'bool' else f'{kind}{8 * width}'), width


def contiguous(shape) -> Tuple[int, ...]:
    """The element strides of a C-contiguous array of this shape."""
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def _byte_strides(role, shape, strides, itemsize):
    """Element strides from byte strides (None: C-contiguous)."""
    if strides is None:
        return contiguous(shape)
    try:
        strides = tuple(map(operator.index, strides))
    except TypeError:
        raise InvalidArgument(f'{role}: strides {strides!r} are not integers') from None
    if len(strides) != len(shape):
        raise InvalidArgument(f'{role}: {len(strides)} strides for {len(shape)} dimensions')
    for i, (n, s) in enumerate(zip(shape, strides)):
        if s % itemsize and n != 1:  # a dimension of one element: its stride is never used
            raise Misaligned(f'{role}: stride {s} bytes (dimension {i}) is not a multiple of the '
                             f'{itemsize}-byte element')
    return tuple(s // itemsize for s in strides)


def _check_width(role, dtype, itemsize):
    if itemsize not in WIDTHS:
        raise Unsupported(f'{role}: dtype {dtype} has {itemsize}-byte elements: ptxpose moves elements of '
                          f'1, 2, 4, 8 or 16 bytes')


_TORCH_NAMES: dict = {}  # torch.dtype: its name ("float32"), made once


def _torch_resolved(x, stream):
    """x's values in memory (a copy), made on the stream the transpose will run on: the copy is
    then ordered before the transpose, and its memory is not reused before the transpose ends."""
    if stream is None or stream <= 2:  # the current stream (what None runs on), or a default stream
        return x.resolve_conj().resolve_neg()
    torch = sys.modules['torch']
    with torch.cuda.stream(torch.cuda.ExternalStream(stream, device=x.device)):
        return x.resolve_conj().resolve_neg()


def _torch_view(role, x, stream) -> View:
    if x.device.type != 'cuda':
        raise InvalidArgument(f'{role}: a host array (torch.Tensor on {x.device}): ptxpose needs CUDA device '
                              f'memory (.cuda() it first)')
    # a lazy conjugate or negation: the memory holds the other values. A real's conjugate is itself, so
    # its conjugate bit (torch._conj sets one) changes nothing, and is not read: a call less on the warm path
    conj = x.dtype.is_complex and x.is_conj()
    if conj or x.is_neg():
        lazy = 'conjugate (is_conj())' if conj else 'negation (is_neg())'
        if role == 'out':  # resolving it would make a copy, and the caller's out would not be written
            raise InvalidArgument(f'out: a torch.Tensor with a lazy {lazy}: ptxpose writes the memory as it is, '
                                  f'so the values out shows would not be those transposed; pass a plain tensor')
        x = _torch_resolved(x, stream)
    if x.layout is not sys.modules['torch'].strided:  # sparse, MKL-DNN: no data pointer or strides to read
        raise Unsupported(f'{role}: a torch.Tensor of layout {x.layout}: ptxpose moves dense (strided) tensors')
    dtype = _TORCH_NAMES.get(x.dtype)
    if dtype is None:
        dtype = _TORCH_NAMES[x.dtype] = str(x.dtype).replace('torch.', '')
    itemsize = x.element_size()
    _check_width(role, dtype, itemsize)
    return View(x, 'torch', x.data_ptr(), tuple(x.shape), tuple(x.stride()), itemsize, dtype, x.device.index)


def _cai_view(role, x, cai, kind) -> View:
    try:
        shape, (ptr, readonly), typestr = cai['shape'], cai['data'], cai['typestr']
    except (KeyError, TypeError, ValueError) as e:
        raise InvalidArgument(f'{role}: __cuda_array_interface__ of {type(x).__name__} lacks {e}') from None
    try:
        shape = tuple(map(operator.index, shape))
    except TypeError:
        raise InvalidArgument(f'{role}: __cuda_array_interface__ shape {shape!r} is not a tuple of integers') \
            from None
    if type(ptr) is not int or not 0 <= ptr <= ADDRESS_MAX:  # the common case costs one test; else named
        ptr = integer(ptr or 0, f'{role}: __cuda_array_interface__ data pointer')
    version = cai.get('version', 2)
    if type(version) is not int:
        version = integer(version, f'{role}: __cuda_array_interface__ version')
    stream = cai.get('stream') if version >= 3 else None
    if stream is not None and (type(stream) is not int or not 0 < stream <= ADDRESS_MAX):
        stream = integer(stream, f'{role}: __cuda_array_interface__ stream')
        if stream == 0:  # v3: 1 is the legacy default stream, 2 the per-thread one, 0 disallowed
            raise InvalidArgument(f'{role}: __cuda_array_interface__ stream 0 is disallowed by version 3 (it is '
                                  f'ambiguous: 1 is the legacy default stream, 2 the per-thread one)')
    if cai.get('mask') is not None:
        raise Unsupported(f'{role}: a masked array (__cuda_array_interface__ mask): not supported')
    dtype, itemsize = typestr_dtype(typestr)
    _check_width(role, dtype, itemsize)
    strides = _byte_strides(role, shape, cai.get('strides'), itemsize)
    dev = getattr(x, 'device', None)
    device = getattr(dev, 'id', None)  # CuPy and Numba say; another array: the pointer's device
    if kind == 'cupy':
        dtype = str(x.dtype)
    return View(x, kind, ptr, shape, strides, itemsize, dtype, device, stream, bool(readonly))


class _DLDevice(ctypes.Structure):
    _fields_ = [('device_type', ctypes.c_int32), ('device_id', ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [('code', ctypes.c_uint8), ('bits', ctypes.c_uint8), ('lanes', ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [('data', ctypes.c_void_p), ('device', _DLDevice), ('ndim', ctypes.c_int32),
                ('dtype', _DLDataType), ('shape', ctypes.POINTER(ctypes.c_int64)),
                ('strides', ctypes.POINTER(ctypes.c_int64)), ('byte_offset', ctypes.c_uint64)]


# private function objects: ctypes.pythonapi's are shared, and another module may declare them otherwise
_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ('PyCapsule_GetPointer', ctypes.pythonapi))
_capsule_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(
    ('PyCapsule_IsValid', ctypes.pythonapi))


def dlpack_device(role, x) -> int:
    """The CUDA ordinal of a DLPack array; a host (or other) device raises."""
    try:
        dtype, did = map(operator.index, x.__dlpack_device__())
    except (TypeError, ValueError):
        raise InvalidArgument(f'{role}: __dlpack_device__ of {type(x).__name__} is not (device type, id)') from None
    if dtype not in (DL_CUDA, DL_CUDA_MANAGED):
        where = DL_NAMES.get(dtype, f'device type {dtype}')
        raise InvalidArgument(f'{role}: a host array ({type(x).__module__}.{type(x).__name__} on {where}): '
                              f'ptxpose needs CUDA device memory' if dtype in (DL_CPU, DL_CUDA_HOST) else
                              f'{role}: an array on {where}, not a CUDA device')
    return did


def _dlpack_view(role, x, stream) -> View:
    device = dlpack_device(role, x)
    cap = x.__dlpack__(stream=stream)  # the producer orders its work before `stream`
    if not _capsule_valid(cap, b'dltensor'):
        raise InvalidArgument(f'{role}: __dlpack__ of {type(x).__name__} returned no "dltensor" capsule '
                              f'(a used or versioned one)')
    t = _DLTensor.from_address(_capsule_pointer(cap, b'dltensor'))  # DLManagedTensor starts with it
    if not 0 <= t.ndim <= 64:  # the shape and strides arrays are read through raw pointers
        raise InvalidArgument(f'{role}: __dlpack__ of {type(x).__name__}: ndim {t.ndim}')
    shape = tuple(t.shape[i] for i in range(t.ndim))
    code, bits, lanes = t.dtype.code, t.dtype.bits, t.dtype.lanes
    name = (DL_CODES[code] if code < len(DL_CODES) else f'code{code}') + str(bits) + (f'x{lanes}' if lanes > 1 else '')
    if bits % 8:
        raise Unsupported(f'{role}: dtype {name}: elements of {bits} bits; ptxpose moves whole bytes')
    itemsize = bits // 8 * lanes
    _check_width(role, name, itemsize)
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else contiguous(shape)
    return View(x, 'dlpack', (t.data or 0) + t.byte_offset, shape, strides, itemsize, name, device,
                stream, keep=cap)


def view(x: Any, role: str = 'x', stream: Optional[int] = None) -> View:
    """The View of an array, or an Error naming what is wrong with it. `stream` goes to
    __dlpack__ (the stream the transpose will run on)."""
    mod = type(x).__module__.partition('.')[0]
    if mod == 'torch' and hasattr(x, 'data_ptr'):
        return _torch_view(role, x, stream)
    if mod in ('jax', 'jaxlib'):  # DLPack: its stream orders JAX's work (its interface waits on the host)
        if role == 'out':
            raise InvalidArgument(f'out: {type(x).__module__}.{type(x).__name__} is a jax.Array, immutable: '
                                  f'ptxpose never writes one in place; pass out=None for a new jax.Array')
        v = _dlpack_view(role, x, 1 if stream in (None, 0) else stream)
        v.kind = 'jax'
        return v
    if mod == 'ptxpose' and hasattr(x, 'view'):  # a JAX result's memory (_jax.Buffer)
        return x.view()
    cai = getattr(x, '__cuda_array_interface__', None)
    if cai is not None:
        return _cai_view(role, x, cai, mod if mod in ('cupy', 'numba') else 'cai')
    if hasattr(x, '__dlpack_device__') and hasattr(x, '__dlpack__'):
        return _dlpack_view(role, x, 1 if stream in (None, 0) else stream)
    if hasattr(x, '__array_interface__') or hasattr(x, '__array__'):
        raise InvalidArgument(f'{role}: a host array ({type(x).__module__}.{type(x).__name__}): ptxpose needs '
                              f'CUDA device memory')
    raise InvalidArgument(f'{role}: {type(x).__module__}.{type(x).__name__} is not an array: it has neither '
                          f'__cuda_array_interface__ nor __dlpack__')


class Matrix:
    """The transpose's view of an array: `batch` matrices of `rows` x `cols`, rows `ld`
    elements apart, matrices `bstride` elements apart (0 when batch is 1), `span` bytes from
    the pointer to one past the last element."""
    __slots__ = ('batch', 'rows', 'cols', 'ld', 'bstride', 'span')

    def __init__(self, batch, rows, cols, ld, bstride, span):
        self.batch, self.rows, self.cols, self.ld, self.bstride, self.span = batch, rows, cols, ld, bstride, span


def matrix(v: View, role: str) -> Matrix:
    """Batch, rows, cols and strides of a view, or an Error naming the shape or stride at fault."""
    shape, strides = v.shape, v.strides
    if len(shape) == 2:  # the common case, quickly: rows of adjacent elements, ld >= cols
        rows, cols = shape
        if rows > 1 and cols > 1 and strides[1] == 1 and FIELD_MAX >= strides[0] >= cols and rows <= FIELD_MAX:
            return Matrix(1, rows, cols, strides[0], 0, ((rows - 1) * strides[0] + cols) * v.itemsize)
    if len(shape) < 2:
        raise InvalidArgument(f'{role}: {len(shape)}-d array of shape {shape}: a transpose needs at least 2 '
                              f'dimensions (it swaps the last two)')
    if min(shape) < 0:
        raise InvalidArgument(f'{role}: shape {shape} has a negative dimension')
    if 0 in shape:  # nothing to move: no stride matters
        batch = 1
        for n in shape[:-2]:
            batch *= n
        return Matrix(batch, shape[-2], shape[-1], shape[-1], 0, 0)
    for i, (n, s) in enumerate(zip(shape, strides)):
        if s < 0 and n > 1:
            raise Unsupported(f'{role}: negative stride {s} elements (dimension {i} of shape {shape}): not '
                              f'supported yet; pass a copy')
    rows, cols = shape[-2:]
    srow, scol = strides[-2:]
    if cols > 1 and rows > 0 and scol != 1:
        raise Unsupported(f'{role}: the last dimension has stride {scol} elements (shape {shape}, strides '
                          f'{strides}): ptxpose reads and writes rows of adjacent elements; pass a copy')
    ld = srow if rows > 1 else cols
    if rows > 1 and ld < cols:
        raise InvalidArgument(f'{role}: rows {ld} elements apart overlap their {cols} elements (shape {shape}, '
                              f'strides {strides})')
    lead = [(n, s) for n, s in zip(shape[:-2], strides[:-2]) if n != 1]
    batch = 1
    for n, _ in lead:
        batch *= n
    for (n0, s0), (n1, s1) in zip(lead, lead[1:]):
        if s0 != s1 * n1:
            raise Unsupported(f'{role}: the leading dimensions of shape {shape} (strides {strides}) are not one '
                              f'batch of evenly spaced matrices; pass a copy')
    bstride = lead[-1][1] if lead else 0
    if batch > 1 and bstride == 0:
        raise Unsupported(f'{role}: a broadcast batch (stride 0, shape {shape}): not supported')
    big = max(batch, rows, ld, bstride)
    if big > FIELD_MAX:  # the desc's uint64 fields would wrap; the library names what it refuses below
        raise SizeOverflow(f'{role}: shape {shape} with strides {strides}: {big} elements is past 2^63')
    span = ((batch - 1) * bstride + (rows - 1) * ld + cols) * v.itemsize
    return Matrix(batch, rows, cols, ld, bstride if batch > 1 else 0, span)


def check_pointer(v: View, role: str) -> None:
    """The pointer is an address that holds whole elements, and 16-byte elements are 16-byte aligned."""
    if v.ptr > ADDRESS_MAX:
        raise InvalidArgument(f'{role}: pointer {v.ptr:#x} is past 64 bits')
    if v.ptr % v.itemsize:
        low = v.ptr & -v.ptr
        raise Misaligned(f'{role}: pointer {v.ptr:#x} of {v.dtype} ({v.itemsize}-byte elements) is aligned to '
                         f'{low} bytes only: ptxpose needs {v.itemsize}'
                         + ('; a 16-byte dtype whose own alignment is 8 makes such views: pass a copy'
                            if v.itemsize == 16 else ''))


def alignment(ptr: int) -> int:
    """The pointer's alignment in bytes, up to 256 (what the plans distinguish)."""
    return 256 if ptr % 256 == 0 else ptr & -ptr
