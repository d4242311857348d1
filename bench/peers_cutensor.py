"""cuTENSOR's cutensorPermute for bench/peers.py, through ctypes (the cuTENSOR 2.x API).

The permutation B = alpha * A (alpha = 1, the identity operator), planned once
per case outside the graph: cutensorCreateTensorDescriptor for A and B,
cutensorCreatePermutation, cutensorCreatePlanPreference (default algorithm,
no JIT), cutensorCreatePlan (no workspace); the timed call is cutensorPermute
alone, on the harness's stream, so it is captured in the graph like the others
(cuTENSOR documents it as calling asynchronous functions only; should the capture
be refused all the same, the harness times it back to back and says so).

Layout: a case's layout() (input shape and strides, perm, output shape and
strides, in elements, row-major order) becomes cuTENSOR's: modes listed
fastest first, every stride given explicitly, input dimension i named mode i,
output dimension j named mode perm[j]. A 2-D transpose is the 2-mode
permutation, a batch the 3-mode one.

Types: cuTENSOR permutes floats, not 1-byte types (n/a). Integer types move as
the float type of their width (i16 as f16, i32 as f32, i64 as f64): the harness
fills those inputs with finite float values, so 1 * x gives back the same bits
(a NaN's payload could come out canonicalized; the inputs hold none).
Loading: $PTXPOSE_CUTENSOR (a path to libcutensor.so.2, from the cutensor-cu13
wheel), else the cutensor wheel's lib folder, else the soname; libcublasLt.so.13,
which it needs, is loaded first with RTLD_GLOBAL (the nvidia-cublas wheel's, the
CUDA toolkit's). Only ctypes is imported here, so the dry run and the tests can
use permute_args and Handle with a stand-in library.
"""
import ctypes
import glob
import os

R_16F, R_16BF, R_32F, R_64F, C_32F, C_64F = 2, 14, 0, 1, 4, 5  # cutensorDataType_t (= cudaDataType_t)
TYPE_NAMES = {R_16F: 'R_16F', R_16BF: 'R_16BF', R_32F: 'R_32F', R_64F: 'R_64F', C_32F: 'C_32F', C_64F: 'C_64F'}
# dtype: (the data type its bits are moved as, the compute descriptors to try in order; the
# same-width one first, as cuTENSOR's table of permutation types lists it)
TYPES = {'f16': (R_16F, ('16F', '32F')), 'i16': (R_16F, ('16F', '32F')), 'bf16': (R_16BF, ('16BF', '32F')),
         'f32': (R_32F, ('32F',)), 'i32': (R_32F, ('32F',)), 'f64': (R_64F, ('64F',)),
         'i64': (R_64F, ('64F',)), 'c64': (C_32F, ('32F',)), 'c128': (C_64F, ('64F',))}
OP_IDENTITY = 1        # cutensorOperator_t
ALGO_DEFAULT = -1      # cutensorAlgo_t
JIT_MODE_NONE = 0      # cutensorJitMode_t
SCALAR_TYPE = 1        # CUTENSOR_OPERATION_DESCRIPTOR_SCALAR_TYPE
STATUS_NOT_SUPPORTED = 15  # planning refused: the peer is n/a for the case, not an error
ALIGN_MAX = 256        # the alignment promised for a pointer: its largest power of two, at most this
# alpha = 1 in each scalar type: (ctypes type, value)
ONE = {R_16F: (ctypes.c_uint16, 0x3C00), R_16BF: (ctypes.c_uint16, 0x3F80), R_32F: (ctypes.c_float, 1.0),
       R_64F: (ctypes.c_double, 1.0), C_32F: (ctypes.c_float * 2, (1.0, 0.0)),
       C_64F: (ctypes.c_double * 2, (1.0, 0.0))}
LIBDIRS = ('/usr/local/cuda/lib64', '/usr/local/cuda/targets/x86_64-linux/lib',
           '/usr/local/cuda-13.0/targets/x86_64-linux/lib')


class CutensorError(RuntimeError):
    def __init__(self, name, status, text=''):
        super().__init__(f'{name}: {text or "CUTENSOR_STATUS"} ({status})')
        self.status = status


class Args:
    """A case's permutation for cuTENSOR: per tensor (extents, strides, modes), fastest mode first."""

    def __init__(self, a, b, dtype, computes):
        self.a, self.b, self.dtype, self.computes = a, b, dtype, computes

    def describe(self, compute=None):
        def one(t):
            e, s, m = t
            return f"extents {list(e)} strides {list(s)} modes {list(m)}"
        return (f'{TYPE_NAMES[self.dtype]}, A {one(self.a)}, B {one(self.b)}, '
                f'compute {compute or " or ".join(self.computes)}')


def permute_args(case):
    """(Args, None) for the case, or (None, why cuTENSOR does not apply)."""
    if case.dtype not in TYPES:
        return None, f'cuTENSOR has no permutation of {case.eb}-byte ({case.dtype}) elements'
    shape_in, st_in, perm, shape_out, st_out = case.layout()
    n = len(shape_in)
    a = (tuple(reversed(shape_in)), tuple(reversed(st_in)), tuple(range(n - 1, -1, -1)))
    b = (tuple(reversed(shape_out)), tuple(reversed(st_out)), tuple(reversed(perm)))
    dtype, computes = TYPES[case.dtype]
    return Args(a, b, dtype, computes), None


def alignment(ptr):
    """The alignment (bytes) a pointer has: its largest power of two dividing it, at most ALIGN_MAX."""
    return ALIGN_MAX if ptr % ALIGN_MAX == 0 else ptr & -ptr


def library_candidates():
    """Where to look for libcutensor.so.2, in order."""
    out = [os.environ['PTXPOSE_CUTENSOR']] if os.environ.get('PTXPOSE_CUTENSOR') else []
    try:
        import cutensor as wheel  # the cutensor-cu13 wheel: cutensor/lib/libcutensor.so.2
        for d in getattr(wheel, '__path__', []):
            out += sorted(glob.glob(os.path.join(d, 'lib', 'libcutensor.so*')), key=len)[:1]
    except ImportError:
        pass
    return out + ['libcutensor.so.2']


def cublaslt_candidates():
    out = []
    try:
        import nvidia.cublas as wheel
        for d in getattr(wheel, '__path__', []):
            out += glob.glob(os.path.join(d, 'lib', 'libcublasLt.so.13'))
    except ImportError:
        pass
    return ['libcublasLt.so.13'] + out + [os.path.join(d, 'libcublasLt.so.13') for d in LIBDIRS]


def load_library(cands=None, cublaslt=None, dll=ctypes.CDLL):
    """libcutensor, after libcublasLt.so.13 (RTLD_GLOBAL); OSError with one line naming what failed."""
    for name in cublaslt_candidates() if cublaslt is None else cublaslt:
        try:
            dll(name, mode=ctypes.RTLD_GLOBAL)
            break
        except OSError:
            continue
    why = []
    for name in library_candidates() if cands is None else cands:
        try:
            return dll(name, mode=ctypes.RTLD_GLOBAL)
        except OSError as e:
            why.append(str(e).splitlines()[0] if str(e) else name)
    hint = '' if os.environ.get('PTXPOSE_CUTENSOR') else '$PTXPOSE_CUTENSOR is not set; '
    raise OSError(f'no libcutensor could be loaded ({hint}{"; ".join(why) or "no candidate"})')


P = ctypes.c_void_p
PP = ctypes.POINTER(ctypes.c_void_p)
I64P = ctypes.POINTER(ctypes.c_int64)
I32P = ctypes.POINTER(ctypes.c_int32)
SIGNATURES = {  # name: argtypes (every one returns cutensorStatus_t)
    'cutensorCreate': [PP], 'cutensorDestroy': [P],
    'cutensorCreateTensorDescriptor': [P, PP, ctypes.c_uint32, I64P, I64P, ctypes.c_int, ctypes.c_uint32],
    'cutensorDestroyTensorDescriptor': [P],
    'cutensorCreatePermutation': [P, PP, P, I32P, ctypes.c_int, P, I32P, P],
    'cutensorDestroyOperationDescriptor': [P],
    'cutensorOperationDescriptorGetAttribute': [P, P, ctypes.c_int, P, ctypes.c_size_t],
    'cutensorCreatePlanPreference': [P, PP, ctypes.c_int, ctypes.c_int],
    'cutensorDestroyPlanPreference': [P],
    'cutensorCreatePlan': [P, PP, P, P, ctypes.c_uint64], 'cutensorDestroyPlan': [P],
    'cutensorPermute': [P, P, P, P, P, P],
}


class Handle:
    """A cuTENSOR handle and the plans made on it. lib: a loaded libcutensor (or, in the tests,
    any object with the same functions and the CUTENSOR_COMPUTE_DESC_* values)."""

    def __init__(self, lib):
        self.lib, self.plans = lib, []
        for fn, args in SIGNATURES.items():
            getattr(lib, fn).argtypes, getattr(lib, fn).restype = args, ctypes.c_int
        lib.cutensorGetVersion.argtypes, lib.cutensorGetVersion.restype = [], ctypes.c_size_t
        lib.cutensorGetErrorString.argtypes, lib.cutensorGetErrorString.restype = [ctypes.c_int], ctypes.c_char_p
        v = lib.cutensorGetVersion()
        self.version = f'{v // 10000}.{v // 100 % 100}.{v % 100}'
        self.h = P()
        self._check('cutensorCreate', lib.cutensorCreate(ctypes.byref(self.h)))

    def _check(self, name, status):
        if status != 0:
            text = self.lib.cutensorGetErrorString(status)
            raise CutensorError(name, status, text.decode() if isinstance(text, bytes) else '')

    def compute(self, name):
        """The compute descriptor CUTENSOR_COMPUTE_DESC_<name>: an exported global of the library
        (a stand-in library has it as an attribute)."""
        sym = f'CUTENSOR_COMPUTE_DESC_{name}'
        return P.in_dll(self.lib, sym) if isinstance(self.lib, ctypes.CDLL) else P(getattr(self.lib, sym))

    def _descriptor(self, t, dtype, ptr, made):
        extents, strides, _ = t
        d = P()
        n = len(extents)
        self._check('cutensorCreateTensorDescriptor', self.lib.cutensorCreateTensorDescriptor(
            self.h, ctypes.byref(d), n, (ctypes.c_int64 * n)(*extents), (ctypes.c_int64 * n)(*strides), dtype,
            alignment(ptr)))
        made.append(('cutensorDestroyTensorDescriptor', d))
        return d

    def permute(self, args, x_ptr, y_ptr, stream):
        """A function of no arguments that permutes x_ptr into y_ptr on the stream (planned now)."""
        lib, made = self.lib, []
        try:
            da = self._descriptor(args.a, args.dtype, x_ptr, made)
            db = self._descriptor(args.b, args.dtype, y_ptr, made)
            ma = (ctypes.c_int32 * len(args.a[2]))(*args.a[2])
            mb = (ctypes.c_int32 * len(args.b[2]))(*args.b[2])
            op = P()
            for i, name in enumerate(args.computes):  # the first compute type cuTENSOR takes
                status = lib.cutensorCreatePermutation(self.h, ctypes.byref(op), da, ma, OP_IDENTITY, db, mb,
                                                       self.compute(name))
                if status == 0 or i == len(args.computes) - 1:
                    self._check('cutensorCreatePermutation', status)
                    break
            made.append(('cutensorDestroyOperationDescriptor', op))
            scalar = ctypes.c_int(-1)
            self._check('cutensorOperationDescriptorGetAttribute', lib.cutensorOperationDescriptorGetAttribute(
                self.h, op, SCALAR_TYPE, ctypes.byref(scalar), ctypes.sizeof(scalar)))
            if scalar.value not in ONE:
                raise CutensorError('cutensorOperationDescriptorGetAttribute', 0,
                                    f'an unknown scalar type {scalar.value}')
            kind, value = ONE[scalar.value]
            alpha = kind(*value) if isinstance(value, tuple) else kind(value)
            pref = P()
            self._check('cutensorCreatePlanPreference', lib.cutensorCreatePlanPreference(
                self.h, ctypes.byref(pref), ALGO_DEFAULT, JIT_MODE_NONE))
            made.append(('cutensorDestroyPlanPreference', pref))
            plan = P()
            self._check('cutensorCreatePlan', lib.cutensorCreatePlan(self.h, ctypes.byref(plan), op, pref, 0))
            made.append(('cutensorDestroyPlan', plan))
        except Exception:
            self._destroy(made)  # nothing is leaked on a failed plan
            raise
        self.plans.append(made)
        call = (self.h, plan, ctypes.addressof(alpha), P(x_ptr), P(y_ptr), P(stream))

        def fn():
            self._check('cutensorPermute', lib.cutensorPermute(*call))
        fn.alpha, fn.compute = alpha, name  # alpha stays alive in the closure
        return fn

    def _destroy(self, made):
        for fn, obj in reversed(made):
            getattr(self.lib, fn)(obj)

    def close(self):
        for made in self.plans:
            self._destroy(made)
        self.plans = []
        if self.h:
            self.lib.cutensorDestroy(self.h)
            self.h = P()
