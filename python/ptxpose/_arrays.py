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
from typing import Any, Dict, Mapping, Optional, Tuple

from ._errors import InvalidArgument, InvalidType, Misaligned, SizeOverflow, Unsupported

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
    "dlpack", "jax"; "jaxout" for a JAX result's memory), `obj` (the array), `keep` (what must
    live while the pointer is used) and `key` (the warm paths' key of the layout, made from the
    values this View was made of; None where there is none)."""
    __slots__ = ('obj', 'kind', 'ptr', 'shape', 'strides', 'itemsize', 'dtype', 'device', 'stream',
                 'readonly', 'keep', 'key')

    def __init__(self, obj, kind, ptr, shape, strides, itemsize, dtype, device, stream=None, readonly=False,
                 keep=None, key=None):
        self.obj, self.kind, self.ptr, self.shape, self.strides = obj, kind, ptr, shape, strides
        self.itemsize, self.dtype, self.device, self.stream = itemsize, dtype, device, stream
        self.readonly, self.keep, self.key = readonly, keep, key


def name_of(x: Any) -> str:
    """"module.Type" of an object, for messages."""
    return f'{type(x).__module__}.{type(x).__name__}'


def integer(v: Any, what: str, lo: int = 0, hi: int = ADDRESS_MAX) -> int:
    """v as a plain int in lo..hi (an int, or what has __index__: a NumPy integer), or an Error
    naming it (InvalidType where it is no integer): ctypes would otherwise wrap a value past a C
    type's range without a word."""
    if type(v) is int:
        i = v
    else:
        try:
            if isinstance(v, bool):
                raise TypeError
            i = operator.index(v)
        except TypeError:
            raise InvalidType(f'{what} {v!r} is not an integer') from None
        if type(i) is not int:  # an int subclass: its plain value, taken once
            i = int.__index__(i)
    if lo <= i <= hi:
        return i
    raise (SizeOverflow if i > hi else InvalidArgument)(f'{what} {i} is out of range ({lo} to {hi})')


def integers(v: Any, what: str) -> Tuple[int, ...]:
    """A tuple or list of integers as a tuple of plain ints (each read once), or InvalidType."""
    if type(v) is tuple and set(map(type, v)) == _INT:
        return v
    if not isinstance(v, (tuple, list)):
        raise InvalidType(f'{what} {v!r} is not a tuple of integers')
    out = []
    for e in tuple(v):
        if type(e) is not int:
            if isinstance(e, bool) or not hasattr(type(e), '__index__'):
                raise InvalidType(f'{what} {v!r} is not a tuple of integers')
            e = integer(e, what, -2**64, 2**64)  # plain; the range is each user's
        out.append(e)
    return tuple(out)


_INT = {int}
NATIVE = '<' if sys.byteorder == 'little' else '>'


def typestr_dtype(typestr: str, what: str = '__cuda_array_interface__') -> Tuple[str, int]:
    """('float32', 4) for '<f4': the dtype's name and its width in bytes. A byte order other than
    this machine's (of an element wider than a byte) is refused: the kernels move bytes, so x and
    out would have to agree on it, and the values a consumer reads would not be those it meant."""
    if (not isinstance(typestr, str) or len(typestr) < 3 or typestr[0] not in '<>|=' or typestr[1] not in TYPESTR_KINDS
            or not typestr[2:].isdigit()):
        raise InvalidArgument(f"{what}: typestr {typestr!r} is not a NumPy type string")
    width = int(typestr[2:])
    kind = TYPESTR_KINDS[typestr[1]]
    name = 'bool' if kind == 'bool' else f'{kind}{8 * width}'
    if typestr[0] in '<>' and typestr[0] != NATIVE and width > 1 and kind != 'void':
        order = 'big' if typestr[0] == '>' else 'little'
        raise Unsupported(f"{what}: typestr {typestr!r} is {order}-endian {name}: ptxpose takes "
                          f"this machine's byte order ({sys.byteorder}-endian) only; pass a byte-swapped copy")
    return name, width


def contiguous(shape) -> Tuple[int, ...]:
    """The element strides of a C-contiguous array of this shape."""
    out, step = [], 1
    for n in reversed(shape):
        out.append(step)
        step *= n
    return tuple(reversed(out))


def _byte_strides(role, shape, strides, itemsize):
    """Element strides from byte strides (None: C-contiguous); both plain ints (integers())."""
    if strides is None:
        return contiguous(shape)
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
    dt = x.dtype
    dtype = _TORCH_NAMES.get(dt)
    if dtype is None:
        dtype = _TORCH_NAMES[dt] = str(dt).replace('torch.', '')
    itemsize = x.element_size()
    _check_width(role, dtype, itemsize)
    shape, strides, ptr, dev = x.shape, x.stride(), x.data_ptr(), x.device.index
    # the warm key (_core._torch_key's) of the values read here, the ones that are checked and planned
    return View(x, 'torch', ptr, tuple(shape), tuple(strides), itemsize, dtype, dev,
                key=(shape, strides, dt, dev, ptr & 255))


def cai_read(role: str, x: Any) -> Any:
    """x's __cuda_array_interface__, read once, as a plain dict (a mapping's entries copied out, so
    that each is read once), or None where x has none; an Error where reading it fails."""
    try:
        c = getattr(x, '__cuda_array_interface__', None)
    except Exception as e:  # the object's own failure, named
        raise InvalidArgument(f'{role}: reading {name_of(x)}.__cuda_array_interface__ raised '
                              f'{type(e).__name__}: {e}') from None
    if c is None or type(c) is dict:
        return c
    if not isinstance(c, Mapping):
        raise InvalidType(f'{role}: {name_of(x)}.__cuda_array_interface__ is a {type(c).__name__}, not a dict')
    try:
        return dict(c)
    except Exception as e:
        raise InvalidArgument(f'{role}: {name_of(x)}.__cuda_array_interface__ could not be read as a dict: '
                              f'{type(e).__name__}: {e}') from None


def cai_fields(role: str, x: Any, c: Dict[str, Any]) -> Tuple[Any, ...]:
    """The entries of an interface (cai_read's dict), each read once and checked for type and range:
    (key, pointer, stream or None, read-only, shape, byte strides or None, typestr, version). The key
    is the warm paths' (_core.py): every value a check reads, but the pointer, of which it holds the
    low byte. Masked arrays and a v3 stream 0 are refused here, so that a warm layout refuses them too."""
    what = f'{role}: __cuda_array_interface__'
    data, shape, typestr, strides = c.get('data'), c.get('shape'), c.get('typestr'), c.get('strides')
    if type(data) is not tuple or len(data) != 2:
        if not isinstance(data, (tuple, list)) or len(data) != 2:
            raise (InvalidArgument if data is None else InvalidType)(
                f"{what} of {name_of(x)}: data {data!r} is not (pointer, read-only)" if data is not None else
                f"{what} of {name_of(x)} has no 'data' (pointer, read-only)")
        data = tuple(data)
    ptr, readonly = data
    if type(ptr) is not int or not 0 <= ptr <= ADDRESS_MAX:
        ptr = 0 if ptr is None else integer(ptr, f'{what} data pointer')
    if type(readonly) is not bool:
        readonly = bool(readonly)
    if shape is None:
        raise InvalidArgument(f"{what} of {name_of(x)} has no 'shape'")
    shape = integers(shape, f'{what} shape')
    if strides is not None:
        strides = integers(strides, f'{what} strides')
    if type(typestr) is not str:
        if typestr is None:
            raise InvalidArgument(f"{what} of {name_of(x)} has no 'typestr'")
        if not isinstance(typestr, str):
            raise InvalidType(f'{what}: typestr {typestr!r} is not a NumPy type string (a str such as "<f4")')
        typestr = str.__str__(typestr)
    version = c.get('version', 2)
    if type(version) is not int:
        version = integer(version, f'{what} version')
    stream = c.get('stream') if version >= 3 else None
    if stream is not None and (type(stream) is not int or not 0 < stream <= ADDRESS_MAX):
        stream = integer(stream, f'{what} stream')
        if stream == 0:  # v3: 1 is the legacy default stream, 2 the per-thread one, 0 disallowed
            raise InvalidArgument(f'{what} stream 0 is disallowed by version 3 (it is ambiguous: 1 is the '
                                  f'legacy default stream, 2 the per-thread one)')
    if c.get('mask') is not None:
        raise Unsupported(f'{role}: a masked array (__cuda_array_interface__ mask): not supported')
    key = (type(x), shape, strides, typestr, version, readonly, stream is None, ptr & 255)
    return key, ptr, stream, readonly, shape, strides, typestr, version


def device_id(role: str, x: Any) -> Optional[int]:
    """The ordinal an interface array names (CuPy's and Numba's `device.id`), or None."""
    d = getattr(getattr(x, 'device', None), 'id', None)
    if d is None or (type(d) is int and 0 <= d < 2**31):
        return d
    return integer(d, f'{role}: {name_of(x)}.device.id', 0, 2**31 - 1)


def _cai_view(role, x, f, kind) -> View:
    """The View of an interface array from its fields (cai_fields)."""
    key, ptr, stream, readonly, shape, strides, typestr = f[:7]
    dtype, itemsize = typestr_dtype(typestr, f'{role}: __cuda_array_interface__')
    _check_width(role, dtype, itemsize)
    strides = _byte_strides(role, shape, strides, itemsize)
    device = device_id(role, x)  # CuPy and Numba say; another array: the pointer's device
    if kind == 'cupy':
        dtype = str(x.dtype)
    return View(x, kind, ptr, shape, strides, itemsize, dtype, device, stream, readonly, key=key)


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


def _call(role, x, name, *args, **kw):
    """x.name(*args, **kw), its failure an Error naming it."""
    try:
        return getattr(x, name)(*args, **kw)
    except Exception as e:
        raise InvalidArgument(f'{role}: {name_of(x)}.{name}() raised {type(e).__name__}: {e}') from None


def dlpack_device(role, x) -> int:
    """The CUDA ordinal of a DLPack array; a host (or other) device raises."""
    got = _call(role, x, '__dlpack_device__')
    try:
        dtype, did = map(operator.index, got)
    except (TypeError, ValueError):
        raise InvalidArgument(f'{role}: __dlpack_device__ of {type(x).__name__} is not (device type, id)') from None
    if dtype not in (DL_CUDA, DL_CUDA_MANAGED):
        where = DL_NAMES.get(dtype, f'device type {dtype}')
        raise InvalidArgument(f'{role}: a host array ({name_of(x)} on {where}): '
                              f'ptxpose needs CUDA device memory' if dtype in (DL_CPU, DL_CUDA_HOST) else
                              f'{role}: an array on {where}, not a CUDA device')
    if not 0 <= did < 2**31:
        raise InvalidArgument(f'{role}: __dlpack_device__ of {type(x).__name__}: device {did} is not an ordinal')
    return did


def _dlpack_view(role, x, stream) -> View:
    device = dlpack_device(role, x)
    cap = _call(role, x, '__dlpack__', stream=stream)  # the producer orders its work before `stream`
    if not _capsule_valid(cap, b'dltensor'):
        raise InvalidArgument(f'{role}: __dlpack__ of {type(x).__name__} returned no "dltensor" capsule '
                              f'(a used or versioned one)')
    t = _DLTensor.from_address(_capsule_pointer(cap, b'dltensor'))  # DLManagedTensor starts with it
    if not 0 <= t.ndim <= 64:  # the shape and strides arrays are read through raw pointers
        raise InvalidArgument(f'{role}: __dlpack__ of {type(x).__name__}: ndim {t.ndim}')
    if t.ndim and not t.shape:
        raise InvalidArgument(f'{role}: __dlpack__ of {type(x).__name__}: a {t.ndim}-d tensor with a null shape')
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


def view(x: Any, role: str = 'x', stream: Optional[int] = None, cai: Any = None) -> View:
    """The View of an array, or an Error naming what is wrong with it. `stream` goes to
    __dlpack__ (the stream the transpose will run on). `cai`: the fields of x's interface where
    the caller read them already (cai_fields), so that it is read once a call."""
    if cai is not None:
        if isinstance(cai, Exception):  # what reading it raised, raised where the full checks read it
            raise cai
        mod = type(x).__module__.partition('.')[0]
        return _cai_view(role, x, cai, mod if mod in ('cupy', 'numba') else 'cai')
    mod = type(x).__module__.partition('.')[0]
    if mod == 'torch' and hasattr(x, 'data_ptr'):
        return _torch_view(role, x, stream)
    if mod in ('jax', 'jaxlib'):  # DLPack: its stream orders JAX's work (its interface waits on the host)
        if role == 'out':
            raise InvalidArgument(f'out: {name_of(x)} is a jax.Array, immutable: '
                                  f'ptxpose never writes one in place; pass out=None for a new jax.Array')
        v = _dlpack_view(role, x, 1 if stream in (None, 0) else stream)
        v.kind = 'jax'
        return v
    if mod == 'ptxpose' and hasattr(x, 'view'):  # a JAX result's memory (_jax.Buffer)
        return x.view()
    c = cai_read(role, x)
    if c is not None:
        return _cai_view(role, x, cai_fields(role, x, c), mod if mod in ('cupy', 'numba') else 'cai')
    if hasattr(x, '__dlpack_device__') and hasattr(x, '__dlpack__'):
        return _dlpack_view(role, x, 1 if stream in (None, 0) else stream)
    if hasattr(x, '__array_interface__') or hasattr(x, '__array__'):
        raise InvalidArgument(f'{role}: a host array ({name_of(x)}): ptxpose needs CUDA device memory')
    raise InvalidType(f'{role}: {name_of(x)} is not an array: it has neither __cuda_array_interface__ nor '
                      f'__dlpack__')


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
            span = ((rows - 1) * strides[0] + cols) * v.itemsize
            if span <= FIELD_MAX:
                return Matrix(1, rows, cols, strides[0], 0, span)
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
    one = (rows - 1) * ld + cols  # elements of one matrix, from its first to its last
    if role == 'out' and batch > 1 and bstride < one:  # written twice: the library would refuse it too
        raise InvalidArgument(f'out: its elements are not distinct: matrices {bstride} elements apart overlap '
                              f'their {one} elements (shape {shape}, strides {strides})')
    span = ((batch - 1) * bstride + one) * v.itemsize
    if span > FIELD_MAX:
        raise SizeOverflow(f'{role}: shape {shape} with strides {strides} spans {span} bytes, past 2^63')
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
