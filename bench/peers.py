#!/usr/bin/env python3
"""Time ptxpose's kernels and the common alternatives side by side, the same way.

    python3 bench/peers.py [--set NAME]... [--ptx GLOB]... [--out FILE.json] [CASE...]

CASE is ROWSxCOLS:DTYPE[:batch=B][:ld_in=N][:ld_out=N][:offset=N][:stride_in=S][:stride_out=S]
or, an N-d permutation, D0xD1x...xDn:DTYPE:perm=P0,P1,...[:offset=N] (out = x.permute(perm),
both packed), DTYPE one of u8 i8 f16 bf16 i16 f32 i32 f64 c64 i64 c128. With no case and no
--set, the default sets (mixed, extremes, small-elements) run. Implementations:
  copy         the same bytes copied device to device (the floor)
  torch        y.copy_(x.transpose(-1, -2)); N-d: y.copy_(x.permute(perm))
  cupy         y[...] = x.swapaxes(-1, -2); N-d: y[...] = x.transpose(perm)
  cublas_geam  cuBLAS geam through ctypes (4-, 8- and 16-byte elements, one matrix)
  triton       a tl.trans kernel, the best of a small sweep of tiles and warps
               (those that fit the device's shared memory); 2-D only
  cutensor     cutensorPermute through ctypes (2- to 16-byte elements, every case;
               the library: $PTXPOSE_CUTENSOR, a path to libcutensor.so.2)
  ptxpose-heuristic, ptxpose-measured, ptxpose:K
               ptxpose through its Python package (python/), as a user calls
               it: a Plan for the case's buffers (the cost model's choice, a
               measured plan, or kernel K by name), Plan.execute on the
               harness's stream; K: every kernel of --ptx (given to the
               library as $PTXPOSE_PTX), else every kernel built into it;
               N-d: ptxpose.permute where the package has it (else n/a)
Method: K back-to-back calls captured in one CUDA graph, the graph replayed R
times between CUDA events after a warm-up, the median replay / K (the copy:
the faster of that and K back-to-back calls outside a graph). Every output is
checked bit-exactly, with the rest of its buffer, before it is timed.
See bench/README.md. Exit status: 0 all correct, 1 a result WRONG or an
implementation failed, 2 usage, 3 a PTX file refused or the ptxpose package
cannot load its library, 4 no torch or no GPU, 5 the CUDA context was lost.
"""
import argparse
import glob
import json
import os
import sys

import peers_cases
import peers_ptx

FORMAT = 'ptxpose-peers 1'


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        print(f'peers.py: {message} (see --help)', file=sys.stderr)
        sys.exit(2)


def parse_args(argv):
    ap = Parser(description=__doc__.split('\n')[0], usage='%(prog)s [options] [CASE...]')
    ap.add_argument('cases', nargs='*', metavar='CASE')
    ap.add_argument('--set', action='append', default=[], metavar='NAME',
                    help=f'a named case set (repeatable): {", ".join(peers_cases.SETS)}')
    ap.add_argument('--ptx', action='append', default=[], metavar='GLOB',
                    help="ptxpose PTX files whose kernels are timed by name (repeatable; quote it: "
                         "--ptx 'ptx/*.ptx'; default: every kernel built into the library)")
    ap.add_argument('--out', metavar='FILE', help='the results JSON (rewritten after every case)')
    ap.add_argument('--resume', action='store_true', help='keep the cases already in --out and run the rest')
    ap.add_argument('--replays', type=int, metavar='R', help='graph replays per figure (default 30, at least 15)')
    ap.add_argument('--target-ms', type=float, default=1.0, metavar='MS', help='a replay lasts at least this (default 1)')
    ap.add_argument('--max-calls', type=int, default=1000, metavar='K', help='most calls per graph (default 1000)')
    ap.add_argument('--quick', action='store_true', help='a smoke run: 10 replays, 200 calls at most, 2 Triton configs')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--no-peers', action='store_true',
                    help="time the copy and ptxpose's kernels only (sweeps that train the plan model)")
    ap.add_argument('--dry-run', action='store_true',
                    help="print the cases, cuBLAS geam's call and the ptxpose plans; no GPU needed")
    ap.add_argument('--list-sets', action='store_true', help='print every named set and its cases')
    a = ap.parse_args(argv)
    if a.replays is None:
        a.replays = 10 if a.quick else 30
    if a.replays < (1 if a.quick else 15):
        ap.error(f'--replays {a.replays}: at least 15 (or --quick)')
    if a.max_calls < 1 or a.target_ms <= 0:
        ap.error('--max-calls and --target-ms must be positive')
    if a.quick:
        a.max_calls, a.target_ms = min(a.max_calls, 200), min(a.target_ms, 0.5)
    if a.resume and not a.out:
        ap.error('--resume needs --out')
    if not a.cases and not a.set:
        a.set = list(peers_cases.DEFAULT_SETS)
    return a


def method(a):
    return (f'K back-to-back calls captured in one CUDA graph (K per case: a replay lasts >= {a.target_ms:g} ms, '
            f'K <= {a.max_calls}; lower for an implementation whose calls are slower), the graph replayed {a.replays} times between CUDA events after a warm-up, '
            f'the median replay / K; the copy is the faster of that and K back-to-back copies outside a graph; '
            f'an implementation whose capture is refused is timed as K back-to-back calls between two events '
            f'(said in its note); L2 warm; every output checked bit-exactly, padding included, after poisoning, '
            f'before timing; GB/s counts bytes read + written; ptxpose timed through its Python package: '
            f'Plan made once, Plan.execute(x, y, stream) captured like the others')


def dry_run(cases, kernels):
    import peers_cublas
    import peers_cutensor
    trans = {peers_cublas.OP_N: 'N', peers_cublas.OP_T: 'T'}
    for c in cases:
        print(f'{c.name}  ({",".join(c.sets)}; {c.moved_bytes} bytes moved)')
        geam, why = peers_cublas.geam_args(c)
        if geam:
            name, ta, tb, m, n, lda, ldb, ldc = geam
            print(f'  cublas_geam: {name} {trans[ta]} {trans[tb]} m {m} n {n} lda {lda} ldb {ldb} ldc {ldc}')
        else:
            print(f'  cublas_geam: n/a ({why})')
        args, why = peers_cutensor.permute_args(c)
        print(f'  cutensor: {args.describe() if args else f"n/a ({why})"}')
        if c.nd:
            print('  ptxpose: ptxpose.permute (Plan(x, y, perm=...) where it takes perm=), heuristic and measured')
            continue
        names = [k.name for k in kernels if k.elem == c.elem_bits]
        print(f"  ptxpose: Plan(x, y) heuristic and measured, then by name: "
              f"{' '.join(names) if kernels else 'every kernel of the library for ' + str(c.elem_bits) + '-bit elements'}"
              f" (the package plans and launches them)")


def main(argv):
    a = parse_args(argv)
    try:
        if a.list_sets:
            for name, specs in peers_cases.SETS.items():
                print(f'{name} ({len(specs)}): {" ".join(specs)}')
            return 0
        cases = peers_cases.expand(a.set, a.cases)
    except peers_cases.CaseError as e:
        print(f'peers.py: {e}', file=sys.stderr)
        return 2
    try:
        kernels = peers_ptx.load(a.ptx, glob.glob)
    except peers_ptx.PtxError as e:
        print(f'peers.py: {e}', file=sys.stderr)
        return 3
    if a.dry_run:
        dry_run(cases, kernels)
        return 0
    old = {}
    if a.resume and os.path.exists(a.out):
        try:
            with open(a.out) as f:
                old = json.load(f)
            assert old.get('format') == FORMAT and isinstance(old.get('cases'), list)
        except (OSError, ValueError, AssertionError):
            print(f'peers.py: --resume: {a.out} is not a results file of this format ({FORMAT})', file=sys.stderr)
            return 2
    try:
        import torch
        if not torch.cuda.is_available():
            raise RuntimeError('torch.cuda.is_available() is False')
    except Exception as e:
        print(f'peers.py: no CUDA device for PyTorch ({type(e).__name__}: {e})', file=sys.stderr)
        return 4
    import peers_run
    return peers_run.run(a, cases, kernels, old, torch, method(a), FORMAT)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
