"""cuBLAS geam for bench/peers.py, called through ctypes so that it can be graph-captured.

CuPy's cuBLAS bindings refuse to run during stream capture (NotImplementedError),
which would leave geam the one implementation timed outside a graph. cuBLAS
itself supports capturing geam, so the handful of entry points it needs are
called here directly: cublasCreate_v2, cublasSetStream_v2,
cublasSetPointerMode_v2 (host scalars), cublas<S|D|Z>geam, cublasDestroy_v2.
The library is found the way CuPy and PyTorch find it: the nvidia-cublas
wheel's lib folder, then ctypes.util.find_library, then the sonames of CUDA 13
and 12. Only ctypes is imported here, so the dry run can use geam_args.
"""
import ctypes
import ctypes.util
import glob
import os

OP_N, OP_T = 0, 1               # cublasOperation_t
POINTER_MODE_HOST = 0           # cublasPointerMode_t
ROUTINES = {'sgeam': ('cublasSgeam', ctypes.c_float, 1), 'dgeam': ('cublasDgeam', ctypes.c_double, 1),
            'zgeam': ('cublasZgeam', ctypes.c_double, 2)}  # name, scalar part, parts (complex: 2)
STATUS = {1: 'NOT_INITIALIZED', 3: 'ALLOC_FAILED', 7: 'INVALID_VALUE', 8: 'ARCH_MISMATCH', 11: 'MAPPING_ERROR',
          13: 'EXECUTION_FAILED', 14: 'INTERNAL_ERROR', 15: 'NOT_SUPPORTED', 16: 'LICENSE_ERROR'}


class CublasError(RuntimeError):
    pass


def geam_args(case):
    """(routine, transa, transb, m, n, lda, ldb, ldc) of the case's transpose as geam.

    Column-major view of row-major data: C (rows x cols, ldc = ld_out) = 1 * A^T + 0 * B
    with A (cols x rows, lda = ld_in) the input and B = C the output: beta = 0, so B is
    not read (in place, as cuBLAS allows). Case specs keep every dimension within a C
    int. None where geam does not apply (no routine for the width, a batch): the second
    value says why."""
    if case.nd:
        return None, 'cuBLAS geam is a 2-D transpose, not an N-d permutation'
    if case.geam is None:
        return None, f'cuBLAS has no geam for {case.eb}-byte elements'
    if case.batched:
        return None, 'cuBLAS geam has no batched form'
    return (ROUTINES[case.geam][0], OP_T, OP_N, case.rows, case.cols, case.ld_in, case.ld_out, case.ld_out), None


def library_candidates():
    """Where to look for libcublas, in order: the wheel's lib folder, find_library, the sonames."""
    out = []
    try:
        import nvidia.cublas as wheel
        for d in getattr(wheel, '__path__', []):
            out += sorted(glob.glob(os.path.join(d, 'lib', 'libcublas.so*')), key=len)[:1]
    except ImportError:
        pass
    found = ctypes.util.find_library('cublas')
    if found:
        out.append(found)
    return out + ['libcublas.so.13', 'libcublas.so.12']


def load_library(cands=None):
    why = []
    for name in library_candidates() if cands is None else cands:
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            why.append(str(e).splitlines()[0] if str(e) else name)
    raise OSError(f'no libcublas could be loaded ({"; ".join(why) or "no candidate"})')


def _check(name, status):
    if status != 0:
        raise CublasError(f'{name}: CUBLAS_STATUS_{STATUS.get(status, status)} ({status})')


class Handle:
    """A cuBLAS handle bound to one stream, scalars on the host. lib: a loaded libcublas
    (or, in the tests, any object with the same functions)."""

    def __init__(self, lib, stream):
        self.lib = lib
        p = ctypes.c_void_p
        for fn, args in (('cublasCreate_v2', [ctypes.POINTER(p)]), ('cublasDestroy_v2', [p]),
                         ('cublasSetStream_v2', [p, p]), ('cublasSetPointerMode_v2', [p, ctypes.c_int])):
            getattr(lib, fn).argtypes, getattr(lib, fn).restype = args, ctypes.c_int
        self.h = p()
        _check('cublasCreate_v2', lib.cublasCreate_v2(ctypes.byref(self.h)))
        try:
            _check('cublasSetPointerMode_v2', lib.cublasSetPointerMode_v2(self.h, POINTER_MODE_HOST))
            _check('cublasSetStream_v2', lib.cublasSetStream_v2(self.h, p(stream)))
        except Exception:
            lib.cublasDestroy_v2(self.h)  # the handle is not leaked on a failed setup
            raise

    def geam(self, case, x_ptr, y_ptr):
        """A function of no arguments that writes the case's transpose of x_ptr to y_ptr."""
        args, why = geam_args(case)
        if args is None:
            raise ValueError(why)
        name, ta, tb, m, n, lda, ldb, ldc = args
        part, parts = ROUTINES[case.geam][1:]
        scalar = part * parts
        one, zero = scalar(*([1] + [0] * (parts - 1))), scalar()  # host scalars, alive in fn's closure
        p, i = ctypes.c_void_p, ctypes.c_int
        routine = getattr(self.lib, name)
        routine.argtypes = [p, i, i, i, i, p, p, i, p, p, i, p, i]
        routine.restype = ctypes.c_int
        call = (self.h, ta, tb, m, n, ctypes.addressof(one), p(x_ptr), lda, ctypes.addressof(zero),
                p(y_ptr), ldb, p(y_ptr), ldc)

        def fn():
            _check(name, routine(*call))
        fn.scalars = (one, zero)
        return fn

    def close(self):
        if self.h:
            self.lib.cublasDestroy_v2(self.h)
            self.h = ctypes.c_void_p()
