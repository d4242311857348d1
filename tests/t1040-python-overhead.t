#!/usr/bin/env python3
# t1040-python-overhead: the host time of ptxpose.transpose(x) from Python on
# a warm plan, its result allocated by torch (the target: at most 10
# us a call), on a GPU with torch tensors of 64x64 floats, through
# bench/py_overhead.py: every figure (transpose(x), transpose(x, out),
# Plan.execute, torch's own y.copy_(x.t()) and x.t().contiguous(), and each
# part of transpose(x)'s warm path) timed together, interleaved, 61 rounds of
# 100 calls, the median round; no retry (a best of several tries would hide
# a slow path): noise on a shared host hits ptxpose and torch alike, and
# both are reported, with the C library's figures from the same run
# (build/bench/overhead: ptxpose_execute and a bare cuLaunchKernel of the same
# kernel). Skips without a GPU.
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, finish, ok, skip_all  # noqa: E402

try:
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError('torch.cuda.is_available() is False')
except Exception as e:  # noqa: BLE001
    skip_all(f'no CUDA device ({type(e).__name__}: {e})')

with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, 'py_overhead.txt')
    c = subprocess.run([sys.executable, os.path.join(ROOT, 'bench', 'py_overhead.py'), out], capture_output=True,
                       text=True, timeout=300)
    text = open(out).read() if os.path.exists(out) else ''
ok(c.returncode == 0 and text, f'bench/py_overhead.py: exit {c.returncode}, its figures written', c.stderr)
for line in text.splitlines():
    print(line if line.startswith('#') else f'# {line}')
fig = {line.rsplit(' ', 2)[0]: float(line.rsplit(' ', 2)[1]) for line in text.splitlines()
       if line.endswith(' us') and not line.startswith('#')}
ok('C: execute_legacy' in fig and 'C: launch_floor_legacy' in fig,
   f"the C library's figures, same run: ptxpose_execute {fig.get('C: execute_legacy')} us on the legacy stream, "
   f"a bare cuLaunchKernel {fig.get('C: launch_floor_legacy')} us", text)
us = fig.get('ptxpose.transpose(x)', float('inf'))
ok(us <= 10.0, f"ptxpose.transpose(x) on a warm plan: {us:.2f} us a call <= 10 (transpose(x, out) "
   f"{fig.get('ptxpose.transpose(x, out)')} us, Plan.execute {fig.get('ptxpose.Plan.execute(x, out)')} us; torch "
   f"x.t().contiguous() {fig.get('torch: x.t().contiguous()')} us, y.copy_(x.t()) "
   f"{fig.get('torch: y.copy_(x.t())')} us; C ptxpose_execute {fig.get('C: execute_legacy')} us)")
finish()
