"""A stand-in `torch` for the Python tests on the fake driver: a Tensor over fake device memory
with what ptxpose reads of a torch.Tensor (data_ptr, shape, stride, dtype, device, get_device,
is_conj, is_neg, layout, element_size, new_empty, record_stream), torch._C._cuda_getCurrentRawStream
and torch.cuda.ExternalStream.
Importing it installs it as sys.modules['torch'] (import fakearrays first)."""
import ctypes
import random
import sys
import types

from fakearrays import U64, Dev, cu

torch = types.ModuleType('torch')
torch.strided, torch.sparse_coo = 'torch.strided', 'torch.sparse_coo'
streams_asked = []  # the devices whose current stream was asked for
current_stream = [0]
new_offset = [0]  # bytes past the allocation new_empty's result starts (another pointer alignment)


def _raw(device):
    streams_asked.append(device)
    return current_stream[0]


torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=_raw)
recorded = []  # (tensor, stream handle) of each record_stream
torch.cuda = types.SimpleNamespace(ExternalStream=lambda handle, device=None: ('stream', handle, device))


class dtype:
    def __init__(self, name, width, is_complex=False):
        self.name, self.width, self.is_complex = name, width, is_complex

    def __repr__(self):
        return f'torch.{self.name}'


float32, float64, int16 = dtype('float32', 4), dtype('float64', 8), dtype('int16', 2)
complex64 = dtype('complex64', 8, True)


class device:
    def __init__(self, index):
        self.type, self.index = 'cuda', index


class Tensor:
    """A strided tensor of fake device memory (`mem`, bytes from `offset`)."""

    def __init__(self, shape, dt=float32, strides=None, mem=None, offset=0, dev=0, conj=False, layout='torch.strided'):
        if strides is None:
            strides, step = [], 1
            for n in reversed(shape):
                strides.insert(0, step)
                step *= n
        self.shape, self._strides, self.dtype, self._dev = tuple(shape), tuple(strides), dt, dev
        span = (sum((n - 1) * s for n, s in zip(shape, strides)) + 1 + strides[-2]) * dt.width
        self.mem = mem or Dev(span + offset)
        self._ptr, self._conj, self.layout = self.mem.ptr + offset, conj, layout

    def stride(self):  # as torch 2.11 on a GPU: a sparse tensor answers stride(), not data_ptr()
        return self._strides

    def data_ptr(self):
        if self.layout != torch.strided:
            raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")
        return self._ptr

    @property
    def device(self):
        return device(self._dev)

    def get_device(self):
        return self._dev

    def is_conj(self):
        return self._conj

    def is_neg(self):
        return False

    def record_stream(self, s):
        recorded.append((self, s[1]))

    def element_size(self):
        return self.dtype.width

    def new_empty(self, shape):
        return Tensor(shape, self.dtype, dev=self._dev, offset=new_offset[0])

    def fill(self, seed):
        rng = random.Random(seed)
        ctypes.memmove(self.mem.ptr, bytes(rng.getrandbits(8) for _ in range(self.mem.nbytes)), self.mem.nbytes)

    def clear(self):
        cu('cuMemsetD8_v2', U64(self.mem.ptr), 0, self.mem.nbytes)

    def element(self, idx):
        off = sum(i * s for i, s in zip(idx, self._strides)) * self.dtype.width
        return ctypes.string_at(self._ptr + off, self.dtype.width)


Tensor.__module__ = 'torch'
torch.Tensor = Tensor
sys.modules['torch'] = torch


def is_transpose(y, x):
    """Every element of the 2-D y is x's, transposed."""
    r, c = x.shape
    return y.shape == (c, r) and all(y.element((j, i)) == x.element((i, j)) for i in range(r) for j in range(c))
