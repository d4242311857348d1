"""Which CUDA stream a call runs on.

Explicit: an int handle (0 is the legacy default stream; 1 and 2 are
CU_STREAM_LEGACY and CU_STREAM_PER_THREAD, as in the CUDA Array Interface),
a torch.cuda.Stream (`cuda_stream`), a CuPy stream (`ptr`), a Numba stream
(`handle`), or any object with `__cuda_stream__` (returning (version, handle)).
Default: the caller's current stream: torch's current_stream() for a torch
tensor, the CUDA Array Interface v3 `stream` where the array gives one,
CuPy's current stream for a CuPy array; else the legacy default stream.
Nothing here synchronizes.
"""
from __future__ import annotations

import sys
from typing import Any, Optional

from ._arrays import ADDRESS_MAX, integer
from ._errors import InvalidArgument, InvalidType


def handle(stream: Any) -> Optional[int]:
    """The CUstream handle of an explicit `stream=` (None stays None)."""
    if stream is None:
        return None
    if isinstance(stream, int) and not isinstance(stream, bool):
        if not 0 <= stream <= ADDRESS_MAX:
            raise InvalidArgument(f'stream: {stream} is not a stream handle (' +
                                  ('a negative int)' if stream < 0 else 'past 64 bits)'))
        return stream
    if hasattr(stream, '__cuda_stream__'):
        try:
            got = stream.__cuda_stream__()
        except Exception as e:
            raise InvalidArgument(f'stream: {type(stream).__name__}.__cuda_stream__() raised {type(e).__name__}: '
                                  f'{e}') from None
        if not isinstance(got, tuple) or len(got) != 2:
            raise InvalidType(f'stream: {type(stream).__name__}.__cuda_stream__() gave {got!r}, not '
                                  f'(version, handle)')
        return integer(got[1], 'stream: the __cuda_stream__ handle')
    for attr in ('cuda_stream', 'ptr'):  # torch.cuda.Stream, cupy.cuda.Stream
        v = getattr(stream, attr, None)
        if isinstance(v, int):
            return integer(v, f'stream: {type(stream).__name__}.{attr}')
    h = getattr(stream, 'handle', None)  # numba.cuda stream: a ctypes c_void_p
    if h is not None and hasattr(h, 'value'):
        return int(h.value or 0)
    if hasattr(type(stream), '__index__') and not isinstance(stream, bool):  # a NumPy integer
        return integer(stream, 'stream')
    raise InvalidType(f'stream: a {type(stream).__module__}.{type(stream).__name__} is not a CUDA stream (an '
                          f'int handle, a torch.cuda.Stream, a CuPy or Numba stream, or an object with '
                          f'__cuda_stream__)')


def current(view) -> int:
    """The caller's current stream for this array (see the module's text)."""
    if view.kind == 'torch':
        torch = sys.modules['torch']
        raw = getattr(torch._C, '_cuda_getCurrentRawStream', None)  # the handle, without a Stream object
        return raw(view.device) if raw else torch.cuda.current_stream(view.device).cuda_stream
    if view.stream is not None:
        return int(view.stream)
    if view.kind == 'cupy':
        return sys.modules['cupy'].cuda.get_current_stream().ptr
    return 0


def record(stream: int, device: int, *tensors: Any) -> None:
    """torch tensors a call enqueued work on `stream` with (an explicit stream=): where that is not
    torch's current stream of the device, the caching allocator is told (Tensor.record_stream) that
    their memory is in use there, so that it is not handed out again, when the caller frees them,
    before that work ends. On the current stream the allocator's own order holds."""
    torch = sys.modules['torch']
    raw = getattr(torch._C, '_cuda_getCurrentRawStream', None)
    if stream == (raw(device) if raw else torch.cuda.current_stream(device).cuda_stream):
        return
    s = torch.cuda.ExternalStream(stream, device=device)
    for t in tensors:
        t.record_stream(s)
