#!/usr/bin/env python3
# t1000-python-logic: the ptxpose package's pure logic, no library call and no
# GPU: CUDA Array Interface and DLPack parsing (a DLPack producer made here
# with ctypes), dtype widths and names, byte to element strides, the matrix
# and batch a view makes (padded rows, collapsible leading dimensions), every
# argument check with the value it names (host arrays, widths, negative and
# column strides, a broadcast batch, 16-byte elements 8-aligned), stream
# handles, the error classes per status, the library search order, and the
# wheel's platform tag from a library's bytes.
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok, raises  # noqa: E402

import ptxpose  # noqa: E402
from ptxpose import _arrays, _errors, _lib, _streams  # noqa: E402


class CAI:
    """A minimal __cuda_array_interface__ object (no memory behind it here)."""

    def __init__(self, shape, typestr='<f4', ptr=0x10000, strides=None, version=3, stream=None, **extra):
        self.__cuda_array_interface__ = dict(shape=shape, typestr=typestr, data=(ptr, False), strides=strides,
                                             version=version, **extra)
        if stream is not None:
            self.__cuda_array_interface__['stream'] = stream


def mat(shape, strides=None, typestr='<f4', ptr=0x10000):
    v = _arrays.view(CAI(shape, typestr, ptr, strides))
    return v, _arrays.matrix(v, 'x')


# ---- type strings and widths
ok(_arrays.typestr_dtype('<f4') == ('float32', 4), "typestr '<f4': float32, 4 bytes")
ok(_arrays.typestr_dtype('|b1') == ('bool', 1) and _arrays.typestr_dtype('<c16') == ('complex128', 16),
   "'|b1' bool, '<c16' complex128")
raises(lambda: _arrays.typestr_dtype('f4'), ptxpose.InvalidArgument, "typestr 'f4'", 'a bad typestr is named')
e = raises(lambda: _arrays.view(CAI((4, 4), '|V3')), ptxpose.Unsupported, r'dtype void24 has 3-byte elements',
           'an unsupported dtype width is named')
ok(e is not None and e.status == 13 and isinstance(e, ptxpose.Error), '... a ptxpose.Error with status 13 (UNSUPPORTED)')
raises(lambda: _arrays.view(CAI((4, 4), '<f4', mask=object())), ptxpose.Unsupported, 'masked', 'a masked CAI array')

# ---- strides
v = _arrays.view(CAI((3, 5), '<f8', strides=(64, 8)))
ok(v.strides == (8, 1) and v.itemsize == 8 and v.dtype == 'float64', 'byte strides become element strides')
ok(_arrays.view(CAI((2, 3, 5))).strides == (15, 5, 1), 'strides None: C-contiguous')
raises(lambda: _arrays.view(CAI((3, 5), '<f4', strides=(22, 4))), ptxpose.Misaligned,
       r'stride 22 bytes \(dimension 0\) is not a multiple of the 4-byte element', 'a stride off the element size')
ok(_arrays.view(CAI((2, 2), stream=7)).stream == 7 and _arrays.view(CAI((2, 2), version=2, stream=7)).stream is None,
   'the CAI v3 stream is read; a v2 array has none')

# ---- the matrix of a view
_, m = mat((67, 129))
ok((m.batch, m.rows, m.cols, m.ld, m.bstride, m.span) == (1, 67, 129, 129, 0, 67 * 129 * 4), '2-D packed')
_, m = mat((67, 129), (140 * 4, 4))
ok((m.ld, m.span) == (140, (66 * 140 + 129) * 4), 'padded rows: ld 140, the span ends at the last element')
_, m = mat((3, 33, 31), (1100 * 4, 31 * 4, 4))
ok((m.batch, m.bstride, m.span) == (3, 1100, (2 * 1100 + 32 * 31 + 31) * 4), 'a batch with a stride between matrices')
_, m = mat((2, 3, 4, 5))
ok((m.batch, m.bstride) == (6, 20), 'two leading dimensions that collapse into one batch of 6')
_, m = mat((2, 1, 4, 5), (20 * 4, 7, 20, 4))
ok((m.batch, m.bstride) == (2, 20), 'a leading dimension of size 1 is ignored, whatever its stride')
raises(lambda: mat((2, 3, 4, 5), (80 * 4, 20 * 4, 20, 4)), ptxpose.Unsupported,
       r'leading dimensions of shape \(2, 3, 4, 5\).*not one batch', 'leading dimensions that do not collapse')
raises(lambda: mat((4, 5), (-20, 4)), ptxpose.Unsupported, r'negative stride -5 elements \(dimension 0.*not supported yet',
       'a negative stride: named, and said to be unsupported')
raises(lambda: mat((4, 5), (4, 16)), ptxpose.Unsupported, 'the last dimension has stride 4 elements',
       'a column-strided view (the last dimension not packed)')
ok(mat((4, 1), (4, 400))[1].ld == 1 and mat((1, 5), (4, 4))[1].ld == 5,
   'one column: its stride is irrelevant; one row: ld is cols')
raises(lambda: mat((5,)), ptxpose.InvalidArgument, r'1-d array of shape \(5,\)', 'a 1-D array')
raises(lambda: mat((4, 5), (12, 4)), ptxpose.InvalidArgument, 'rows 3 elements apart overlap their 5 elements',
       'rows that overlap')
raises(lambda: mat((3, 4, 5), (0, 20, 4)), ptxpose.Unsupported, 'a broadcast batch', 'a broadcast batch (stride 0)')
ok(mat((0, 5))[1].span == 0 and mat((3, 0, 5))[1].span == 0, 'an empty array spans nothing')

# ---- pointers
v = _arrays.view(CAI((4, 4), '<c16', ptr=0x10008))
raises(lambda: _arrays.check_pointer(v, 'x'), ptxpose.Misaligned,
       r'pointer 0x10008 of complex128 \(16-byte elements\) is aligned to 8 bytes only: ptxpose needs 16; a 16-byte '
       r'dtype whose own alignment is 8', 'a 16-byte dtype at an 8-byte aligned pointer')
raises(lambda: _arrays.check_pointer(_arrays.view(CAI((4, 4), '<f4', ptr=0x10002)), 'x'), ptxpose.Misaligned,
       'aligned to 2 bytes only: ptxpose needs 4', 'a 4-byte element at a 2-aligned pointer')
ok([_arrays.alignment(p) for p in (0x10000, 0x10004, 0x10100, 0x10030)] == [256, 4, 256, 16],
   'alignment classes: up to 256')

# ---- what is not a device array
class HostLike:
    __array_interface__ = {}


raises(lambda: _arrays.view(HostLike()), ptxpose.InvalidArgument, r'a host array \(__main__.HostLike\)',
       'an object with __array_interface__: a host array')
raises(lambda: _arrays.view([1, 2]), ptxpose.InvalidArgument, 'builtins.list is not an array', 'a list')


# ---- DLPack, with a producer made here
class DLManaged(ctypes.Structure):
    _fields_ = [('t', _arrays._DLTensor), ('ctx', ctypes.c_void_p), ('deleter', ctypes.c_void_p)]


capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype, capsule_new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class DL:
    def __init__(self, shape, strides=None, code=2, bits=32, lanes=1, dev=(2, 0), ptr=0x20000, offset=0):
        self.shape_a = (ctypes.c_int64 * len(shape))(*shape)
        self.strides_a = (ctypes.c_int64 * len(shape))(*strides) if strides else None
        self.m = DLManaged()
        t = self.m.t
        t.data, t.ndim, t.byte_offset = ptr, len(shape), offset
        t.device.device_type, t.device.device_id = dev
        t.dtype.code, t.dtype.bits, t.dtype.lanes = code, bits, lanes
        t.shape = ctypes.cast(self.shape_a, ctypes.POINTER(ctypes.c_int64))
        if self.strides_a:
            t.strides = ctypes.cast(self.strides_a, ctypes.POINTER(ctypes.c_int64))
        self.dev, self.got_stream = dev, 'none'

    def __dlpack_device__(self):
        return self.dev

    def __dlpack__(self, stream=None):
        self.got_stream = stream
        return capsule_new(ctypes.addressof(self.m), b'dltensor', None)


d = DL((3, 4, 5), (40, 5, 1), code=5, bits=64, dev=(2, 1), offset=64)
v = _arrays.view(d, 'x', 9)
ok((v.kind, v.ptr, v.shape, v.strides, v.itemsize, v.dtype, v.device) ==
   ('dlpack', 0x20040, (3, 4, 5), (40, 5, 1), 8, 'complex64', 1),
   'DLPack: pointer + byte_offset, shape, element strides, dtype, device id', vars(v) if hasattr(v, '__dict__') else '')
ok(d.got_stream == 9, '... __dlpack__ is given the stream the transpose runs on')
v = _arrays.view(DL((4, 6), bits=16, code=4))
ok(v.strides == (6, 1) and v.dtype == 'bfloat16', 'DLPack: strides NULL is C-contiguous; bfloat16 named')
dd = DL((2, 2))
_arrays.view(dd)
ok(dd.got_stream == 1, '... no stream given: the legacy default stream (1)')
raises(lambda: _arrays.view(DL((4, 4), dev=(1, 0))), ptxpose.InvalidArgument, r'a host array \(.*on CPU\)',
       'DLPack on the CPU: a host array')
raises(lambda: _arrays.view(DL((4, 4), dev=(10, 0))), ptxpose.InvalidArgument, 'an array on ROCm, not a CUDA device',
       'DLPack on another kind of device')
raises(lambda: _arrays.view(DL((4, 4), bits=4)), ptxpose.Unsupported, 'float4: elements of 4 bits', 'sub-byte elements')
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = None  # another module's declaration: not the package's concern
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_int
ok(_arrays.view(DL((4, 4), ptr=0x123456789000)).ptr == 0x123456789000,
   "DLPack: read through the package's own PyCapsule functions (another module's declaration of ctypes.pythonapi's "
   "does not truncate the pointer)")
allocated = []


def empty(shape, dtype):  # the module's empty(): what transpose() makes a result of a CAI array with
    allocated.append(shape)


for shape in ((1, 1 << 31), (3, 1 << 31, 1)):
    big = CAI(shape, '|u1')
    big.device, big.dtype = type('Dev', (), {'id': 0})(), 'uint8'
    raises(lambda: ptxpose.transpose(big), ptxpose.InvalidArgument, 'are 1 to 2147483647; no result allocated',
           f'shape {shape}, past the library\'s 2^31-1, refused before a result is allocated')
ok(not allocated, '... nothing allocated', allocated)
cx, dl = CAI((4, 4), stream=7), DL((4, 4))
cx.device = type('Dev', (), {'id': 0})()  # said, so that no driver is asked
ok(ptxpose._core._Problem(cx, dl, None).stream == 7 and dl.got_stream == 7,
   "a DLPack out is given the stream the transpose runs on (x's, here its CAI v3 stream), not the legacy default")
dl = DL((4, 4))
dl.m.t.ndim = 1 << 30
raises(lambda: _arrays.view(dl), ptxpose.InvalidArgument, 'ndim 1073741824', 'a DLPack ndim past 64: refused, not read')

# ---- streams
class TorchLike:
    cuda_stream = 0x55


class CupyLike:
    ptr = 0x66


class Numbaish:
    handle = ctypes.c_void_p(0x77)


class Proto:
    def __cuda_stream__(self):
        return (0, 0x88)


ok([_streams.handle(s) for s in (None, 0, 5, TorchLike(), CupyLike(), Numbaish(), Proto())] ==
   [None, 0, 5, 0x55, 0x66, 0x77, 0x88], 'stream handles: int, torch, CuPy, Numba, __cuda_stream__')
raises(lambda: _streams.handle(True), ptxpose.InvalidArgument, 'builtins.bool is not a CUDA stream', 'a bool stream')
raises(lambda: _streams.handle(-1), ptxpose.InvalidArgument, 'stream: -1', 'a negative stream')
raises(lambda: _streams.handle('s'), ptxpose.InvalidArgument, 'builtins.str is not a CUDA stream', 'a str stream')
ok(_streams.current(_arrays.view(CAI((2, 2), stream=2))) == 2 and _streams.current(_arrays.view(CAI((2, 2)))) == 0,
   "default stream: the CAI's, else the legacy default (0)")

# ---- hostile values: each an Error naming it, never a value ctypes would wrap past a C type's range
class FakeTorch:  # what the package reads of a torch.Tensor (a lazy conjugate here)
    __module__ = 'torch'
    device = type('Dev', (), {'type': 'cuda', 'index': 0})()
    dtype = type('complex64', (), {'is_complex': True})()

    def data_ptr(self):
        return 0x10000

    def is_conj(self):
        return True

    def is_neg(self):
        return False


raises(lambda: _arrays.view(FakeTorch(), 'out'), ptxpose.InvalidArgument, 'out: a torch.Tensor with a lazy conjugate',
       'a lazy-conjugate torch out (resolving it would leave the caller\'s out unwritten)')
for desc, cai, cls, pattern in [
        ('a negative pointer', dict(data=(-16, False)), ptxpose.InvalidArgument, 'data pointer -16 is out of range'),
        ('a pointer past 64 bits', dict(data=(1 << 64, False)), ptxpose.SizeOverflow,
         'data pointer 18446744073709551616'),
        ('a float pointer', dict(data=(1.5, False)), ptxpose.InvalidArgument, 'data pointer 1.5 is not an integer'),
        ('a shape of str', dict(shape='ab'), ptxpose.InvalidArgument, "shape 'ab' is not a tuple of integers"),
        ('strides of str', dict(strides=('a', 4)), ptxpose.InvalidArgument, r"strides \('a', 4\) is not a tuple of integers"),
        ('a typestr not a str', dict(typestr=4), ptxpose.InvalidArgument, 'typestr 4 is not a NumPy type string'),
        ('a version of str', dict(version='3'), ptxpose.InvalidArgument, "version '3' is not an integer"),
        ('a v3 stream 0', dict(stream=0), ptxpose.InvalidArgument, 'stream 0 is disallowed by version 3'),
        ('a v3 stream past 64 bits', dict(stream=1 << 70), ptxpose.SizeOverflow, 'stream 1180591620717411303424'),
        ('a v3 stream of str', dict(stream='s'), ptxpose.InvalidArgument, "stream 's' is not an integer")]:
    base = dict(shape=(4, 4), typestr='<f4', data=(0x10000, False), version=3)
    raises(lambda: _arrays.view(type('C', (), {'__cuda_array_interface__': dict(base, **cai)})()), cls, pattern,
           f'CAI: {desc}')
ok([_arrays.view(CAI((2, 2), stream=s)).stream for s in (1, 2)] == [1, 2], 'CAI v3 streams 1 and 2 are taken')
raises(lambda: mat((4, 4), (1 << 66, 4)), ptxpose.SizeOverflow, r'strides \(18446744073709551616, 1\).*past 2\^63',
       'a row stride past 2^63 elements (the desc\'s ld_in would wrap to 0: cols)')
raises(lambda: mat((1 << 64, 2, 2), typestr='|u1'), ptxpose.SizeOverflow, '18446744073709551616 elements is past',
       'a batch past 2^63 (it would wrap to 0)')
raises(lambda: mat((3, -4)), ptxpose.InvalidArgument, r'shape \(3, -4\) has a negative dimension',
       'a negative dimension')
raises(lambda: ptxpose.transpose(CAI((4, 4), ptr=0)), ptxpose.InvalidArgument,
       r'x: a null data pointer for shape \(4, 4\)', 'a null pointer')
for arg, cls, pattern in [(1 << 64, ptxpose.InvalidArgument, 'past 64 bits'),
                          (type('S', (), {'cuda_stream': -5})(), ptxpose.InvalidArgument, 'S.cuda_stream -5'),
                          (type('S', (), {'__cuda_stream__': lambda s: 7})(), ptxpose.InvalidArgument, 'gave 7')]:
    raises(lambda: _streams.handle(arg), cls, pattern, f'stream= {pattern}')
for kw, cls, pattern in [(dict(align=1 << 40), ptxpose.SizeOverflow, 'align 1099511627776 is out of range'),
                         (dict(align=-1), ptxpose.InvalidArgument, 'align -1 is out of range'),
                         (dict(measure_budget_ms='x'), ptxpose.InvalidArgument,
                          "measure_budget_ms 'x' is not a number"),
                         (dict(kernel='fast\0b32'), ptxpose.InvalidArgument, "kernel 'fast"),
                         (dict(kernel=b'fast_b32'), ptxpose.InvalidArgument, "kernel b'fast_b32'"),
                         (dict(mode=['measure']), ptxpose.InvalidArgument, r"mode \['measure'\]")]:
    raises(lambda: ptxpose.Plan(CAI((4, 4)), **kw), cls, pattern, f'Plan({", ".join(kw)}=...)')
for dev in (1 << 40, 'x', 1.5, True):
    raises(lambda: ptxpose.device(dev), ptxpose.InvalidArgument, 'not a device ordinal',
           f'device({dev!r}) (cuDeviceGet takes a C int)')
bad_dev = type('D', (), {'__dlpack__': lambda s, stream=None: 0, '__dlpack_device__': lambda s: 'ab'})()
raises(lambda: _arrays.view(bad_dev),
       ptxpose.InvalidArgument, 'is not \\(device type, id\\)', 'a malformed __dlpack_device__')

# ---- errors
ok(all(isinstance(_errors.from_status(s, 'm'), ptxpose.Error) and _errors.from_status(s, 'm').status == s
       for s in range(1, 14)), 'every status has its Error subclass, carrying the status')
ok(type(_errors.from_status(2, 'm')) is ptxpose.Misaligned and isinstance(_errors.from_status(1, 'm'), ValueError)
   and isinstance(_errors.from_status(9, 'm'), MemoryError) and _errors.from_status(10, 'one line').message == 'one line',
   'Misaligned for 2; InvalidArgument is a ValueError, OutOfMemory a MemoryError; the message kept')
ok(type(_errors.from_status(99, '')) is ptxpose.Error, 'an unknown status: the base class')

# ---- the library search
here = os.path.join(ROOT, 'python', 'ptxpose')
pfx = os.path.join(ROOT, 'no-such-prefix')  # a prefix of this tree's, never made
c = _lib.candidates({}, here, [pfx])
ok([s for _, s in c] == ['installed prefix', 'build folder'] and c[0][0] == os.path.join(pfx, 'lib', _lib.SONAME)
   and c[1][0] == os.path.join(ROOT, 'build', _lib.SONAME), 'without a bundled library: the prefix, then the build folder')
mine = os.path.join(pfx, 'x', 'lib.so')
c = _lib.candidates({'PTXPOSE_LIB': mine}, here, [pfx])
ok(c == [(mine, '$PTXPOSE_LIB')], '$PTXPOSE_LIB: that library and no other')
ok(_lib.candidates({'PTXPOSE_LIB': here}, here, [])[0][0] == os.path.join(here, _lib.SONAME),
   '$PTXPOSE_LIB a folder: the soname in it')
ok(repr(_lib.Located(mine, 'bundled')) == f"'{mine}' (bundled)" and _lib.Located(pfx, 's') == pfx,
   'library_path(): a str with its source')

# ---- the wheel's tag
sys.path.insert(0, os.path.join(ROOT, 'python'))
import wheelbuild  # noqa: E402
elf = b'\x7fELF\x02\x01\x01' + bytes(11) + (62).to_bytes(2, 'little') + bytes(40)
ok(wheelbuild.platform_tag(elf + b'\0GLIBC_2.2.5\0GLIBC_2.34\0GLIBC_2.17\0') == 'manylinux_2_34_x86_64',
   'platform tag: the newest GLIBC_2.N the library names')
raises(lambda: wheelbuild.platform_tag(b'MZ' + bytes(60)), wheelbuild.BuildError, 'not a 64-bit ELF', 'a non-ELF library')
finish()
