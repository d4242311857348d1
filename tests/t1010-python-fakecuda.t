#!/usr/bin/env python3
# t1010-python-fakecuda: every call path of the ptxpose package against the
# fake driver (tests/fakecuda: host memory for device memory, a CPU transpose
# for a kernel, streams, capture and graphs), on buffers the fake driver
# allocates, exposed through a minimal __cuda_array_interface__ object:
# transpose() on every width, odd, padded, batched and offset views, out= and
# a result made through the array's module; the stream (explicit, or the CAI
# v3 one) checked by capturing it into a graph; Plan (heuristic, measured, a
# kernel by name) and its info; the queries; every bad input the package refuses,
# each an Error naming the value, before anything reaches the device; and
# `python -m ptxpose` with and without a library or a driver.
import ctypes
import os
import subprocess
import sys
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok, raises  # noqa: E402

import fakearrays  # noqa: E402
from fakearrays import FAKE, WIDTH, Arr, Dev, cu, transposed  # noqa: E402
import ptxpose  # noqa: E402

VP = ctypes.c_void_p


def same(x, y, desc):
    ok(y.elements() == transposed(x), desc)


# ---- queries
where = ptxpose.library_path()
ok(where.source == 'build folder' and where == os.path.join(ROOT, 'build', ptxpose._lib.SONAME),
   f'library_path(): the build folder of this tree ({where!r})')
ok(ptxpose.version().startswith('0.3.0 (commit ') and ptxpose.__version__ == '0.3.0', f'version(): {ptxpose.version()}')
d = ptxpose.device()
ok(d.name == 'Fake CUDA Device 0' and d.ordinal == 0 and d.cc == (9, 0), f'device(): {d}')
ks = ptxpose.kernels()
ok(len(ks) > 20 and {k.elem_bytes for k in ks} == {1, 2, 4, 8, 16} and all(k.source == 'built in' for k in ks)
   and all('.entry' in k.ptx for k in ks), f'kernels(): {len(ks)} built in, every width, their PTX')

# ---- transpose() on every width, odd shapes
for dt in WIDTH:
    x = Arr((67, 129), dt)
    x.fill(1)
    y = ptxpose.transpose(x)
    cu('cuStreamSynchronize', None)
    ok(type(y) is Arr and y.shape == (129, 67) and y.dtype == dt, f'{dt}: a result of the caller kind, shape (129, 67)')
    same(x, y, f'{dt}: 67x129 transposed')
x = Arr((67, 129), '<f4', strides=(140 * 4, 4))
x.fill(2)
y = Arr((129, 67), '<f4', strides=(70 * 4, 4))
ok(ptxpose.transpose(x, out=y) is y, 'out=: the caller\'s array is returned')
cu('cuStreamSynchronize', None)
same(x, y, 'padded rows in and out (ld_in 140, ld_out 70)')
x = Arr((3, 33, 31), '<f8', strides=(1100 * 8, 31 * 8, 8))
x.fill(3)
y = ptxpose.transpose(x)
cu('cuStreamSynchronize', None)
same(x, y, 'a batch of 3, 1100 elements apart, into a packed (3, 31, 33)')
x = Arr((2, 3, 5, 7), '|u1')
x.fill(4)
same(x, ptxpose.transpose(x), 'two leading dimensions: a batch of 6') if not cu('cuStreamSynchronize', None) else 0
x = Arr((45, 77), '<f2', offset=2)
x.fill(5)
y = Arr((77, 45), '<f2', offset=6)
ptxpose.transpose(x, out=y)
cu('cuStreamSynchronize', None)
same(x, y, 'pointers one and three elements past 256-byte alignment')
x = Arr((9, 0), '<f4')
ok(ptxpose.transpose(x).shape == (0, 9), 'an empty array: an empty result, nothing launched')

# ---- streams: the explicit one, or the CAI v3 one, captured into a graph (so not run until launched)
s, g, ge = VP(), VP(), VP()
cu('cuStreamCreate', ctypes.byref(s), 1)


def captured(call, x, y):
    cu('cuStreamBeginCapture_v2', s, 0)
    try:
        call()
    except ptxpose.Error as e:  # on another stream, the capture refuses it: say so, end it
        print(f'# {e}')
        cu('cuStreamEndCapture', s, ctypes.byref(g), check=False)
        return False
    cu('cuStreamEndCapture', s, ctypes.byref(g))
    before = y.elements()
    cu('cuGraphInstantiateWithFlags', ctypes.byref(ge), g, 0)
    cu('cuGraphLaunch', ge, s)
    cu('cuStreamSynchronize', s)
    return before != transposed(x) and y.elements() == transposed(x)


x, y = Arr((100, 300), '<f4'), Arr((300, 100), '<f4')
x.fill(6)
ptxpose.transpose(x, out=y)  # plans it: the capture then holds only the launch
cu('cuStreamSynchronize', None)
y.clear()
ok(captured(lambda: ptxpose.transpose(x, out=y, stream=s.value), x, y),
   'stream=: the launch went to that stream (captured, run by the graph only)')
y.clear()
xs = Arr((100, 300), '<f4', mem=x.mem, stream=s.value)
ok(captured(lambda: ptxpose.transpose(xs, out=y), x, y), "no stream=: the array's CAI v3 stream")


class TorchStream:
    cuda_stream = s.value


y.clear()
ok(captured(lambda: ptxpose.transpose(x, out=y, stream=TorchStream()), x, y), 'a stream object (cuda_stream)')

# ---- Plan
p = ptxpose.Plan(x)
i = p.info
ok(i.kernel and i.kernel_index >= 0 and i.grid[0] > 0 and not i.from_cache and i.timed == 0,
   f'Plan (heuristic): {i.kernel}, grid {i.grid}')
y.clear()
ok(p.execute(x, y) is y and not cu('cuStreamSynchronize', None) and y.elements() == transposed(x), 'Plan.execute(x, out)')
y2 = p.execute(x)
cu('cuStreamSynchronize', None)
same(x, y2, 'Plan.execute(x): a new result')
y.clear()
ok(captured(lambda: p.execute(x, y, s.value), x, y), 'Plan.execute on a stream, captured')
k32 = sorted(k.name for k in ks if k.elem_bytes == 4)
other = next(n for n in k32 if n != i.kernel)
with ptxpose.Plan(x, y, kernel=other) as pk:
    y.clear()
    pk.execute(x, y)
    cu('cuStreamSynchronize', None)
    ok(pk.info.kernel == other and y.elements() == transposed(x), f'Plan(kernel={other!r}): that kernel, correct')
pm = ptxpose.Plan(x, y, mode='measure', measure_budget_ms=50)
ok(pm.info.timed >= 1 and pm.info.measured_us > 0 and pm.desc['mode'] == 'measure',
   f'Plan(mode="measure"): {pm.info.timed} timed, {pm.info.kernel} {pm.info.measured_us:.2f} us')
raises(lambda: p.execute(Arr((100, 301), '<f4'), None), ptxpose.InvalidArgument,
       r'do not have the layout of this plan: .*\(4, 100, 301, 301, 100', 'Plan.execute of another layout')
raises(lambda: ptxpose.Plan(x, kernel='no_such_kernel'), ptxpose.NoKernel, 'no_such_kernel',
       "a library error: NoKernel, the library's message")
raises(lambda: ptxpose.Plan(x, mode='fast'), ptxpose.InvalidArgument, "mode 'fast'", 'a bad mode')
raises(lambda: ptxpose.Plan(x, kernel=next(k.name for k in ks if k.elem_bytes == 8)), ptxpose.Error, '.',
       'a kernel of another width')

# ---- threads: plans made and dropped (a small cache) while other threads execute theirs
ptxpose._core.PLANS_KEPT, kept = 3, ptxpose._core.PLANS_KEPT
bad = []


def work(t):
    try:
        cu('cuCtxSetCurrent', fakearrays.ctx)  # the fake's context is per thread, as CUDA's is
        for k in range(12):
            x = Arr((5 + t, 7 + k % 5), '<f4')
            x.fill(t * 100 + k)
            y = ptxpose.transpose(x)
            cu('cuStreamSynchronize', None)
            if y.elements() != transposed(x):
                bad.append((t, k, 'wrong'))
    except Exception as e:  # noqa: BLE001
        bad.append((t, repr(e)))


threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
for th in threads:
    th.start()
for th in threads:
    th.join()
ok(not bad, '4 threads, 48 transposes of 20 problems through a cache of 3 plans: all correct', bad)
# the plans dropped are destroyed (the library says STALE of them), and the cache stays within its bound
h = ptxpose._handles.get(0)
lib, info = ptxpose._lib.load(), ptxpose._lib.PlanInfo()
old = [o.ptr for o in h.plans.values()]
for k in range(4):
    ptxpose.transpose(Arr((3, 40 + k), '<f4'))
cu('cuStreamSynchronize', None)
ok(len(h.plans) <= 3 and old and all(lib.ptxpose_plan_get(p, ctypes.byref(info)) == 12 for p in old),
   f"transpose()'s cache: {len(h.plans)} plans kept of 3; the {len(old)} dropped destroyed (PTXPOSE_ERR_STALE)")
ptxpose._core.PLANS_KEPT = kept
pc = ptxpose.Plan(x)
ptr = pc._ptr
pc.close()
ok(lib.ptxpose_plan_get(ptr, ctypes.byref(info)) == 12 and pc._ptr is None, 'Plan.close(): the plan destroyed')
pc = ptxpose.Plan(x)
ptr = pc._ptr
del pc
ok(lib.ptxpose_plan_get(ptr, ctypes.byref(info)) == 12, 'a Plan collected: its plan destroyed')

# ---- bad input: each an Error naming the value, nothing launched
x = Arr((64, 64), '<f4')
raises(lambda: ptxpose.transpose(type('Host', (), {'__array_interface__': {}})()), ptxpose.InvalidArgument,
       'a host array', 'a host array')
raises(lambda: ptxpose.transpose(x, out=Arr((64, 64), '<f4', device=1)), ptxpose.InvalidArgument,
       'out: on device 1, x on device 0', 'out on another device')
raises(lambda: p.execute(Arr((100, 300), '<f4', device=1), Arr((300, 100), '<f4', device=1)), ptxpose.ContextMismatch,
       'x: on device 1, the plan on device 0', 'x on another device than its plan')
raises(lambda: ptxpose.transpose(Arr((4, 4), '|V12')), ptxpose.Unsupported, 'void96 has 12-byte elements',
       'an unsupported dtype width')
raises(lambda: ptxpose.transpose(Arr((4, 4), '<f4', strides=(-16, 4), offset=48)), ptxpose.Unsupported,
       'negative stride -4 elements.*not supported yet', 'a negative stride')
raises(lambda: ptxpose.transpose(x, out=Arr((64, 65), '<f4')), ptxpose.InvalidArgument,
       r'out: shape \(64, 65\), but x of shape \(64, 64\) transposes to \(64, 64\)', 'out of the wrong shape')
raises(lambda: ptxpose.transpose(x, out=Arr((64, 64), '<i4')), ptxpose.InvalidArgument, 'out: dtype int32, x is float32',
       'out of the wrong dtype')
big = Dev(64 * 64 * 4 * 2)
raises(lambda: ptxpose.transpose(Arr((64, 64), mem=big), out=Arr((64, 64), mem=big, offset=64 * 64 * 4 - 4)),
       ptxpose.InvalidArgument, r'x and out overlap: x spans 0x[0-9a-f]+\.\.0x[0-9a-f]+, out', 'x and out overlap')
raises(lambda: ptxpose.transpose(Arr((4, 4), '<c16', offset=8)), ptxpose.Misaligned,
       'complex128 .*aligned to 8 bytes only: ptxpose needs 16', 'a 16-byte dtype 8-byte aligned')
ro = Arr((64, 64))
ro.__class__ = type('RO', (Arr,), {'__cuda_array_interface__': property(
    lambda a: dict(Arr.__cuda_array_interface__.fget(a), data=(a.ptr, True)))})
raises(lambda: ptxpose.transpose(x, out=ro), ptxpose.InvalidArgument, 'out: a read-only array', 'a read-only out')
raises(lambda: ptxpose.transpose(x, stream='s'), ptxpose.InvalidArgument, 'not a CUDA stream', 'a bad stream')
raises(lambda: ptxpose.device(7), ptxpose.NoDevice, 'device 7: .*no such CUDA device', 'a device that is not there')

# ---- python -m ptxpose, and what a missing library or driver gives


def run(args, **env):
    e = dict(os.environ, PYTHONPATH=os.path.join(ROOT, 'python'), PYTHONDONTWRITEBYTECODE='1', **env)
    p = subprocess.run([sys.executable] + args, capture_output=True, text=True, env=e, cwd='/')
    return p.returncode, p.stdout, p.stderr


rc, out, err = run(['-m', 'ptxpose', '--version'])
ok(rc == 0 and out.startswith('ptxpose 0.3.0 (commit ') and '(build folder)' in out, f'python -m ptxpose --version: {out.strip()}', err)
rc, out, err = run(['-m', 'ptxpose', '--version'], PTXPOSE_LIB=where)
ok(rc == 0 and out.endswith('($PTXPOSE_LIB)\n'), '$PTXPOSE_LIB is taken, and said', out + err)
rc, out, err = run(['-m', 'ptxpose', '--version'], PTXPOSE_LIB='/nonexistent/libptxpose.so')
ok(rc == 7 and err.count('\n') == 1 and 'libptxpose.so.0.3 not found' in err and '$PTXPOSE_LIB names no file' in err,
   f'no library: exit 7, one line ({err.strip()[:90]}...)', err)
rc, out, err = run(['-c', 'import ptxpose; print(hasattr(ptxpose, "__version__"))'], PTXPOSE_LIB='/nonexistent/l.so')
ok(rc == 0 and out == 'False\n', 'no library: hasattr(ptxpose, "__version__") is False, not an exception', err)
rc, out, err = run(['-c', 'import ptxpose, sys\ntry:\n ptxpose.device()\nexcept ptxpose.NoDriver as e:\n'
                    ' print(e.status, e.message)'], PTXPOSE_LIBCUDA='/nonexistent/libcuda.so.1')
ok(rc == 0 and out.startswith('4 ') and 'libcuda' in out, f'no driver: NoDriver, status 4 ({out.strip()[:80]})', err)
rc, out, err = run(['-m', 'ptxpose', '--kernels'], PTXPOSE_LIBCUDA='/nonexistent/libcuda.so.1')
lines = out.splitlines()
ok(rc == 0 and len(lines) == len(ks) and lines[0].startswith(ks[0].name + ' elem=') and not err,
   f'no driver: python -m ptxpose --kernels lists the {len(ks)} kernels', err)
rc, out, err = run(['-c', 'import ptxpose\nks = ptxpose.kernels()\nprint(len(ks), ks[0].name, len(ks[0].ptx) > 100, '
                    'ptxpose.version()[:5], ptxpose.library_path().source)'], PTXPOSE_LIBCUDA='/nonexistent/libcuda.so.1')
ok(rc == 0 and out.split() == [str(len(ks)), ks[0].name, 'True', '0.3.0', 'build', 'folder'], 'no driver: kernels(), version() and '
   f'library_path() answer ({out.strip()})', err)
finish()
