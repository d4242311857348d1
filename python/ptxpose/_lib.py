"""libptxpose through ctypes: where the library is found, and its C declarations.

ctypes rather than cffi: ctypes is in every Python's standard library, so the
package stays pure Python with no dependency and no compiler at install time;
cffi's ABI mode would add a dependency for no gain, and its faster API mode
needs a compiler. The calls that matter (ptxpose_execute on a ready plan) take
a few scalar arguments, which ctypes passes in well under a microsecond.

These declarations describe include/ptxpose.h at ABI 0.3 (the soname
libptxpose.so.0.3): a library of another ABI is refused when it is loaded.
"""
from __future__ import annotations

import ctypes
import glob
import os
import sys
import threading
from typing import Optional

ABI = (0, 3)  # the MAJOR.MINOR of include/ptxpose.h these declarations describe
SONAME = f'libptxpose.so.{ABI[0]}.{ABI[1]}' if ABI[0] == 0 else f'libptxpose.so.{ABI[0]}'
HERE = os.path.dirname(os.path.abspath(__file__))

# ---- the structs of include/ptxpose.h ---------------------------------------


MAX_RANK = 8  # PTXPOSE_MAX_RANK


class Desc(ctypes.Structure):
    _fields_ = [('size', ctypes.c_uint32), ('elem_bytes', ctypes.c_uint32),
                ('rows', ctypes.c_uint64), ('cols', ctypes.c_uint64),
                ('ld_in', ctypes.c_uint64), ('ld_out', ctypes.c_uint64),
                ('batch', ctypes.c_uint64), ('stride_in', ctypes.c_uint64), ('stride_out', ctypes.c_uint64),
                ('align_in', ctypes.c_uint32), ('align_out', ctypes.c_uint32),
                ('mode', ctypes.c_uint32), ('reserved', ctypes.c_uint32),
                ('measure_budget_ms', ctypes.c_double), ('kernel', ctypes.c_char_p),
                ('rank', ctypes.c_uint32), ('perm', ctypes.c_uint32 * MAX_RANK),
                ('extents', ctypes.c_uint64 * MAX_RANK),
                ('strides_in', ctypes.c_int64 * MAX_RANK), ('strides_out', ctypes.c_int64 * MAX_RANK)]


class KernelInfo(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char_p), ('elem_bytes', ctypes.c_uint32),
                ('tile_rows', ctypes.c_uint32), ('tile_cols', ctypes.c_uint32),
                ('per_block', ctypes.c_uint64), ('block', ctypes.c_uint32 * 3), ('regs', ctypes.c_uint32),
                ('source', ctypes.c_char_p), ('meta', ctypes.c_char_p), ('ptx', ctypes.c_char_p)]


class PlanInfo(ctypes.Structure):
    _fields_ = [('kernel', ctypes.c_char_p), ('kernel_index', ctypes.c_int),
                ('grid', ctypes.c_uint32 * 3), ('block', ctypes.c_uint32 * 3), ('dyn_smem', ctypes.c_uint32),
                ('predicted_us', ctypes.c_double), ('measured_us', ctypes.c_double),
                ('unsure', ctypes.c_int), ('candidates', ctypes.c_int), ('from_cache', ctypes.c_int),
                ('timed', ctypes.c_int), ('measure_ms', ctypes.c_double)]


class DeviceInfo(ctypes.Structure):
    _fields_ = [('name', ctypes.c_char * 256), ('ordinal', ctypes.c_int),
                ('cc_major', ctypes.c_int), ('cc_minor', ctypes.c_int), ('sm_count', ctypes.c_int),
                ('l2_bytes', ctypes.c_int), ('driver_version', ctypes.c_int), ('context', ctypes.c_void_p)]


VP, U32, I32 = ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int
SIGNATURES = {  # name: (restype, argtypes)
    'ptxpose_version': (ctypes.c_char_p, []),
    'ptxpose_status_string': (ctypes.c_char_p, [I32]),
    'ptxpose_last_error': (ctypes.c_char_p, []),
    'ptxpose_create': (I32, [ctypes.POINTER(VP), ctypes.c_uint]),
    'ptxpose_destroy': (I32, [VP]),
    'ptxpose_plan_create': (I32, [VP, ctypes.POINTER(VP), ctypes.POINTER(Desc)]),
    'ptxpose_plan_destroy': (I32, [VP]),
    'ptxpose_execute': (I32, [VP, VP, VP, VP]),
    'ptxpose_transpose': (I32, [VP, ctypes.POINTER(Desc), VP, VP, VP]),
    'ptxpose_permute': (I32, [VP, ctypes.POINTER(Desc), VP, VP, VP]),
    'ptxpose_kernel_count': (I32, [VP, ctypes.POINTER(I32)]),
    'ptxpose_kernel_get': (I32, [VP, I32, ctypes.POINTER(KernelInfo)]),
    'ptxpose_plan_get': (I32, [VP, ctypes.POINTER(PlanInfo)]),
    'ptxpose_device_get': (I32, [VP, ctypes.POINTER(DeviceInfo)]),
    'ptxpose_driver_symbol': (I32, [ctypes.c_char_p, ctypes.POINTER(VP)]),
}

# ---- finding the library -------------------------------------------------------


class Located(str):
    """The library's path (a str), with `.source`: how it was found ("bundled",
    "$PTXPOSE_LIB", "installed prefix", "dynamic loader" or "build folder")."""
    source: str

    def __new__(cls, path: str, source: str) -> 'Located':
        s = super().__new__(cls, path)
        s.source = source
        return s

    def __repr__(self) -> str:
        return f'{str.__repr__(self)} ({self.source})'


def candidates(environ=os.environ, here=HERE, prefixes=None):
    """(path, source) in the order they are tried. Pure: it only looks at files."""
    out = [(p, 'bundled') for p in sorted(glob.glob(os.path.join(here, SONAME + '*')))]
    lib = environ.get('PTXPOSE_LIB')
    if lib:
        out.append((os.path.join(lib, SONAME) if os.path.isdir(lib) else lib, '$PTXPOSE_LIB'))
        return out  # a stated library is the one: never another behind the caller's back
    if prefixes is None:
        prefixes = [sys.prefix, '/usr/local', '/usr']
    for p in dict.fromkeys(prefixes):
        out.append((os.path.join(p, 'lib', SONAME), 'installed prefix'))
    out.append((os.path.join(os.path.dirname(os.path.dirname(here)), 'build', SONAME), 'build folder'))
    return out


def locate(environ=os.environ, here=HERE, prefixes=None) -> Optional[Located]:
    """The first candidate that exists; None when none does."""
    for path, source in candidates(environ, here, prefixes):
        if os.path.isfile(path):
            return Located(os.path.abspath(path), source)
    return None


_lock = threading.Lock()
_lib = None
_where: Optional[Located] = None


def load():
    """The loaded library (declared), loading it on first use. Raises LibraryNotFound."""
    global _lib, _where
    if _lib is not None:
        return _lib
    from ._errors import LibraryNotFound
    with _lock:
        if _lib is not None:
            return _lib
        where = locate()
        lib = None
        try:
            if where is not None:
                lib = ctypes.CDLL(where, mode=ctypes.RTLD_LOCAL)
            elif 'PTXPOSE_LIB' not in os.environ:
                lib = ctypes.CDLL(SONAME, mode=ctypes.RTLD_LOCAL)  # ld.so.conf, LD_LIBRARY_PATH
                where = Located(SONAME, 'dynamic loader')
        except OSError as e:
            raise LibraryNotFound(f'cannot load {where or SONAME}: {e}') from None
        if lib is None:
            tried = ', '.join(p for p, _ in candidates())
            raise LibraryNotFound(f'{SONAME} not found (tried {tried}, then the dynamic loader'
                                  + ('' if 'PTXPOSE_LIB' not in os.environ else '; $PTXPOSE_LIB names no file')
                                  + '): install the ptxpose wheel, or set $PTXPOSE_LIB to the library')
        for name, (res, args) in SIGNATURES.items():
            try:
                fn = getattr(lib, name)
            except AttributeError:
                raise LibraryNotFound(f'{where}: no symbol {name}: not libptxpose {ABI[0]}.{ABI[1]}') from None
            fn.restype, fn.argtypes = res, args
        v = lib.ptxpose_version().decode()
        if tuple(int(t) for t in v.split()[0].split('.')[:2]) != ABI:
            raise LibraryNotFound(f'{where} is libptxpose {v}; this package needs {ABI[0]}.{ABI[1]}')
        _where, _lib = where, lib
        return lib


def where() -> Located:
    load()
    assert _where is not None
    return _where
