#!/usr/bin/env python3
# t1040-python-overhead: the host time of ptxpose.transpose(x) from Python
# on a warm plan, its result allocated by torch (the issue's target: at most
# 10 us a call), and of transpose(x, out) and Plan.execute, beside
# the C library's own figures from the same run (build/bench/overhead:
# ptxpose_execute with a ready plan, ptxpose_transpose on a warm cache), on a
# GPU, with torch tensors of 64x64 floats (kernels finish long before the
# launch queue fills). Each figure: runs of 100 calls timed with
# perf_counter, a synchronize outside the timing, the median run / 100. Up to
# three tries, as a shared machine may deschedule one. Skips without a GPU.
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok, skip_all  # noqa: E402

try:
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError('torch.cuda.is_available() is False')
except Exception as e:  # noqa: BLE001
    skip_all(f'no CUDA device ({type(e).__name__}: {e})')
import ptxpose  # noqa: E402

TARGET_US = 10.0
BATCH, RUNS = 100, 15


def per_call_us(fn):
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        for _ in range(BATCH):
            fn()
        ts.append((time.perf_counter() - t0) / BATCH * 1e6)
        torch.cuda.synchronize()
    return statistics.median(ts)


x = torch.randn(64, 64, device='cuda')
y = torch.empty(64, 64, device='cuda')
p = ptxpose.Plan(x, y)
for attempt in (1, 2, 3):
    fig = {'transpose(x, out)': per_call_us(lambda: ptxpose.transpose(x, y)),
           'transpose(x)': per_call_us(lambda: ptxpose.transpose(x)),
           'Plan.execute(x, out)': per_call_us(lambda: p.execute(x, y)),
           'torch y.copy_(x.t())': per_call_us(lambda: y.copy_(x.t()))}
    if fig['transpose(x)'] <= TARGET_US:
        break
c = subprocess.run([os.path.join(ROOT, 'build', 'bench', 'overhead'), '--runs', '15', '--batch', '100'],
                   capture_output=True, text=True)
cfig = dict(line.rsplit(' ', 2)[:2] for line in c.stdout.splitlines() if line.endswith(' us'))
ok(c.returncode in (0, 1) and 'transpose_warm' in cfig and 'execute' in cfig,
   f"the C library's figures, same run: ptxpose_transpose warm {cfig.get('transpose_warm')} us, ptxpose_execute "
   f"{cfig.get('execute')} us", c.stderr)
for name, us in fig.items():
    print(f'# {name}: {us:.2f} us a call (try {attempt})')
ok(fig['transpose(x)'] <= TARGET_US, f"ptxpose.transpose(x) on a warm plan: {fig['transpose(x)']:.2f} us a call <= "
   f"{TARGET_US:g} (C ptxpose_transpose: {cfig.get('transpose_warm')} us; transpose(x, out) "
   f"{fig['transpose(x, out)']:.2f} us, Plan.execute {fig['Plan.execute(x, out)']:.2f} us, torch's own "
   f"y.copy_(x.t()) {fig['torch y.copy_(x.t())']:.2f} us)")
finish()
