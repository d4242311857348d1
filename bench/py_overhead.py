#!/usr/bin/env python3
"""py_overhead: where the host time of ptxpose.transpose(x) goes, from Python on a GPU with torch.

    python3 bench/py_overhead.py OUT.txt [--runs N] [--batch K] [--fake]

On 64x64 float32 torch tensors (kernels finish long before the launch queue
fills), on a warm plan, it times:
  - each part of transpose(x)'s warm path alone: the torch attribute reads
    (is_conj, is_neg, stride, data_ptr, shape, dtype, get_device), the key
    made of them (ptxpose._core._torch_key) and its lookup, x.new_empty
    (torch's allocator, the result's free included: it is dropped), torch's
    current raw stream, and the ctypes call of ptxpose_execute (the C
    library and the driver's launch included);
  - the totals: ptxpose.transpose(x), transpose(x, out), Plan.execute(x,
    out), and torch's own y.copy_(x.t()) and x.t().contiguous() (which
    allocates, as transpose(x) does);
  - and, in a second process, build/bench/overhead: the C library's
    ptxpose_execute with a ready plan, on a stream and on the legacy stream
    (where torch's default stream sends transpose(x)), and its parts (the
    driver's bare cuLaunchKernel of the same kernel, cuCtxGetCurrent,
    cuStreamGetCtx).
Every Python figure is timed the same way, all of them together and
interleaved: a round times `batch` calls of each in turn (the order rotated
each round), a synchronize after each outside the timing; a figure is the
median round / batch, in microseconds a call, so noise on a shared host hits
every figure alike. A figure includes the loop's own call of a lambda (the
"loop" line). Derived lines: the sum of transpose(x)'s parts, the glue (the
total less that sum: the package's own Python), and ctypes' share (the call
from Python less the C library's execute_legacy, across the two processes).
`#` lines give the totals' spread: the first and third quartiles of their
rounds.

Writes `name value us` lines (and `#` lines saying what ran) to OUT.txt and
prints them. --fake: on the fake driver with tests/lib's stand-in torch (for
the tests: the figures mean nothing). Exit 0, 2 for usage, 4 without CUDA.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from typing import Callable, Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_US = 10.0  # the target for transpose(x) on a warm plan
Timed = Sequence[Tuple[str, Callable[[], object]]]


def interleaved(items: Timed, runs: int, batch: int, sync: Callable[[], object],
                quartiles: Optional[Dict[str, Tuple[float, float]]] = None) -> Dict[str, float]:
    """Each (name, fn) timed together: per round, `batch` calls of each in turn (the order rotated
    each round), sync() after each outside the timing; three rounds first, not counted. The median
    round / batch of each, microseconds a call (and into `quartiles`, the first and third)."""
    items = list(items)
    ts: Dict[str, List[float]] = {name: [] for name, _ in items}
    perf = time.perf_counter
    for r in range(-3, runs):
        k = r % len(items)
        for name, fn in items[k:] + items[:k]:
            t0 = perf()
            for _ in range(batch):
                fn()
            t = (perf() - t0) / batch * 1e6
            sync()
            if r >= 0:
                ts[name].append(t)
    if quartiles is not None:
        for name, v in ts.items():
            v = sorted(v)
            quartiles[name] = (v[len(v) // 4], v[(3 * len(v)) // 4])
    return {name: statistics.median(v) for name, v in ts.items()}


def c_figures(runs: int = 31, batch: int = 200) -> Tuple[Dict[str, float], str]:
    """build/bench/overhead's `name value us` lines, and what it said on failure ('' if none)."""
    exe = os.path.join(ROOT, 'build', 'bench', 'overhead')
    try:
        c = subprocess.run([exe, '--runs', str(runs), '--batch', str(batch)], capture_output=True, text=True,
                           timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {}, f'{exe}: {e}'
    fig = {}
    for line in c.stdout.splitlines():
        f = line.split(' ')
        if len(f) == 3 and f[2] == 'us':
            try:
                fig[f[0]] = float(f[1])
            except ValueError:
                pass
    return fig, '' if c.returncode in (0, 1) else f'{exe}: exit {c.returncode}: {c.stderr.strip()}'


def parts_and_totals(torch, ptxpose, x, y, with_torch: bool) -> Tuple[Timed, Timed]:
    """The timed parts of transpose(x)'s warm path, and the totals (the plans made first)."""
    core = ptxpose._core
    p = ptxpose.Plan(x, y)
    for _ in range(3):
        ptxpose.transpose(x)
        ptxpose.transpose(x, out=y)
        p.execute(x, y)
    key, xp = core._torch_key(x)
    owned, want = core._warm[key][:2]
    look = (type(key[0])(key[0]), tuple(key[1])) + key[2:]  # equal, not the same: the lookup compares
    plan, yp, dev = owned.ptr, y.data_ptr(), key[3]
    raw, execute, warm, key_of = core._raw_stream, core._execute, core._warm, core._torch_key
    s = raw(dev)
    parts = [
        ('loop: a lambda returning None', lambda: None),
        ('torch: x.is_conj()', lambda: x.is_conj()),
        ('torch: x.is_neg()', lambda: x.is_neg()),
        ('torch: x.stride()', lambda: x.stride()),
        ('torch: x.data_ptr()', lambda: x.data_ptr()),
        ('torch: x.shape', lambda: x.shape),
        ('torch: x.dtype', lambda: x.dtype),
        ('torch: x.get_device()', lambda: x.get_device()),
        ('ptxpose: _torch_key(x)', lambda: key_of(x)),
        ('ptxpose: the warm lookup', lambda: warm.get(look)),
        ('torch: x.new_empty(shape), then freed', lambda: x.new_empty(want)),
        ('torch: the current raw stream', lambda: raw(dev)),
        ('ctypes: ptxpose_execute(plan, x, y, stream)', lambda: execute(plan, xp, yp, s)),
    ]
    totals = [
        ('ptxpose.transpose(x)', lambda: ptxpose.transpose(x)),
        ('ptxpose.transpose(x, out)', lambda: ptxpose.transpose(x, out=y)),
        ('ptxpose.Plan.execute(x, out)', lambda: p.execute(x, y)),
    ]
    if with_torch:
        totals += [('torch: y.copy_(x.t())', lambda: y.copy_(x.t())),
                   ('torch: x.t().contiguous()', lambda: x.t().contiguous())]
    return parts, totals


def derived(fig: Dict[str, float], cfig: Dict[str, float]) -> Dict[str, float]:
    """The sum of transpose(x)'s parts, the glue, and ctypes' share of the execute call."""
    path = ('ptxpose: _torch_key(x)', 'ptxpose: the warm lookup', 'torch: x.new_empty(shape), then freed',
            'torch: x.data_ptr()', 'torch: the current raw stream', 'ctypes: ptxpose_execute(plan, x, y, stream)')
    loop = fig['loop: a lambda returning None']
    parts = sum(fig[k] - loop for k in path)  # each part's figure less the loop's own call
    out = {'derived: the parts of transpose(x), summed': parts,
           'derived: glue (transpose(x) less its parts)': fig['ptxpose.transpose(x)'] - loop - parts}
    if 'execute_legacy' in cfig:
        out['derived: ctypes and Python (the call less C execute_legacy)'] = (
            fig['ctypes: ptxpose_execute(plan, x, y, stream)'] - loop - cfig['execute_legacy'])
    return out


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description='Where the host time of ptxpose.transpose(x) goes.')
    ap.add_argument('out', help='the file the figures are written to')
    ap.add_argument('--runs', type=int, default=61, help='rounds (default 61)')
    ap.add_argument('--batch', type=int, default=100, help='calls of each figure a round (default 100)')
    ap.add_argument('--fake', action='store_true', help="the fake driver and tests/lib's stand-in torch")
    a = ap.parse_args(argv)
    if a.runs < 1 or a.batch < 1:
        ap.error('--runs and --batch are at least 1')
    if a.fake:
        sys.path.insert(0, os.path.join(ROOT, 'tests', 'lib'))
        import fakearrays  # noqa: F401  (the fake driver, device 0 current)
        import faketorch as torch
        x, y = torch.Tensor((64, 64)), torch.Tensor((64, 64))

        def sync():
            return fakearrays.cu('cuStreamSynchronize', None)
    else:
        try:
            import torch
            if not torch.cuda.is_available():
                raise RuntimeError('torch.cuda.is_available() is False')
        except Exception as e:  # noqa: BLE001
            print(f'py_overhead: no CUDA device through torch ({type(e).__name__}: {e})', file=sys.stderr)
            return 4
        x, y = torch.randn(64, 64, device='cuda'), torch.empty(64, 64, device='cuda')
        sync = torch.cuda.synchronize
    sys.path.insert(0, os.path.join(ROOT, 'python'))
    import ptxpose
    parts, totals = parts_and_totals(torch, ptxpose, x, y, not a.fake)
    q: Dict[str, Tuple[float, float]] = {}
    fig = interleaved(list(parts) + list(totals), a.runs, a.batch, sync, q)
    cfig, cerr = c_figures()
    lines = [f'# ptxpose {ptxpose.version()} ({ptxpose.library_path()}), Python {sys.version.split()[0]}, '
             f'torch {getattr(torch, "__version__", "stand-in")}, device {ptxpose.device().name}',
             f'# 64x64 float32; median of {a.runs} interleaved rounds of {a.batch} calls each, us a call; '
             f'C figures: build/bench/overhead --runs 31 --batch 200']
    lines += [f'{name} {us:.3f} us' for name, us in fig.items()]
    lines += [f'{name} {us:.3f} us' for name, us in derived(fig, cfig).items()]
    lines += [f'# spread of the rounds, {name}: first quartile {q[name][0]:.3f} us, third {q[name][1]:.3f} us'
              for name, _ in totals]
    lines += [f'C: {name} {us:.3f} us' for name, us in cfig.items()
              if name in ('execute', 'execute_legacy', 'transpose_warm', 'launch_floor', 'launch_floor_legacy',
                          'library_own', 'cuCtxGetCurrent', 'cuStreamGetCtx')]
    if cerr:
        lines.append(f'# C figures: {cerr}')
    us = fig['ptxpose.transpose(x)']
    lines.append(f'target ptxpose.transpose(x) <= {TARGET_US:g} us: {"ok" if us <= TARGET_US else "MISSED"} '
                 f'({us:.2f} us)')
    text = '\n'.join(lines) + '\n'
    tmp = a.out + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, a.out)
    sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
