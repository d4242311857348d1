"""The results model shared by bench/peers.py (which writes it) and bench/report.py (which reads it).

A case's `impls` maps an implementation's name to its entry:
    {"status": "ok" | "WRONG" | "error" | "n/a", "us", "GBps", "pct_copy",
     "vs_best_peer", "timing", "note"}
Names: "copy"; the peers "torch", "cupy", "cublas_geam", "triton", "cutensor"; and the
ptxpose group: "ptxpose:KERNEL" for every committed kernel timed, and any
other name starting with "ptxpose" (such as "ptxpose-pick", the kernel a plan
chose, with the kernel in "kernel") for a ptxpose column of its own.

A results file may be stored compressed: a name ending in .xz or .gz is read and
written through lzma or gzip (open_results, write_results), as the committed ones
under lib/model_data/ and bench/results/ are.

The table and chart columns are derived here, once: the peers that any case
has an entry for (results from before a peer was added have no column for it), then
"ptxpose best" (the fastest ptxpose:* kernel of the case), then each other
ptxpose name. Plain Python: the report runs without torch.
"""
import gzip
import json
import lzma
import math
import os
import tempfile

PEERS = ('torch', 'cupy', 'cublas_geam', 'triton', 'cutensor')
KERNEL_PREFIX = 'ptxpose:'
BEST = 'ptxpose best'


def open_results(path, mode='r'):
    """A results file as text, plain or compressed by its name's ending (.xz, .gz)."""
    opener = lzma.open if path.endswith('.xz') else gzip.open if path.endswith('.gz') else None
    if opener:
        return opener(path, mode + 't', encoding='utf-8')
    return open(path, mode, encoding='utf-8')


def write_results(path, res):
    """Write results JSON to path atomically (a temporary file beside it, then renamed), compressed
    as its name says; the file keeps its mode. All or nothing: on an error path stays as it was."""
    d, base = os.path.split(os.path.abspath(path))
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    ext = os.path.splitext(base)[1] if base.endswith(('.xz', '.gz')) else ''
    fd, tmp = tempfile.mkstemp(dir=d, prefix='.' + base + '.', suffix=ext)  # the same compression
    os.close(fd)
    try:
        with open_results(tmp, 'w') as f:
            json.dump(res, f, indent=1)
            f.write('\n')
        os.chmod(tmp, mode)  # a temporary file is 0600
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def geomean(xs, empty=None):
    """The geometric mean of positive numbers; `empty` for none."""
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else empty


def ok_us(impls, name):
    e = impls.get(name)
    return e['us'] if e and e.get('status') == 'ok' else None


def best_of(impls, names):
    """The fastest correct implementation among names, or None."""
    timed = [(ok_us(impls, n), n) for n in names if ok_us(impls, n) is not None]
    return min(timed)[1] if timed else None


def ptxpose_columns(cases):
    """'ptxpose best', then every other ptxpose name (not a ptxpose:KERNEL) any case has."""
    extra = sorted({n for c in cases for n in c['impls']
                    if n.startswith('ptxpose') and not n.startswith(KERNEL_PREFIX)})
    return [BEST] + extra


def peers_of(cases):
    """The peers that any of the cases has an entry for, in PEERS's order."""
    return [p for p in PEERS if any(p in c['impls'] for c in cases)]


def columns(cases):
    return peers_of(cases) + ptxpose_columns(cases)


def cell(impls, column):
    """(name of the entry behind a column, its entry) for a case; (None, None) when absent."""
    if column == BEST:
        kernels = [n for n in impls if n.startswith(KERNEL_PREFIX)]
        name = best_of(impls, kernels)
        if name is None:  # no correct kernel: show the first failure, if any
            name = next((n for n in kernels if impls[n].get('status') in ('WRONG', 'error')), None)
        return (name, impls[name]) if name else (None, None)
    return (column, impls[column]) if column in impls else (None, None)


def kernel_of(name, entry):
    if name and name.startswith(KERNEL_PREFIX):
        return name[len(KERNEL_PREFIX):]
    return (entry or {}).get('kernel', '')


def summarize(impls, column=BEST):
    """For one ptxpose column: its entry name, the best peer, the winner of the case (a peer
    or a ptxpose:KERNEL) and the ratio best-peer time / ptxpose time (above 1: ptxpose is
    faster), or None."""
    name, _ = cell(impls, column)
    peer = best_of(impls, PEERS)
    # the winner is a peer or a ptxpose:KERNEL, never a column such as ptxpose-pick that
    # repeats one of those kernels' figures (a tie would otherwise name it)
    others = [n for n in impls if n != 'copy' and (n.startswith(KERNEL_PREFIX) or not n.startswith('ptxpose'))]
    winner = best_of(impls, others)
    ratio = None
    if peer and name and ok_us(impls, name) is not None:
        ratio = ok_us(impls, peer) / ok_us(impls, name)
    return {'name': name, 'best_peer': peer, 'winner': winner, 'ratio': ratio}


def fill_derived(impls):
    """Write GB/s-derived fields: % of the copy and the ratio to the best peer, for every timed entry."""
    copy = ok_us(impls, 'copy')
    peer = best_of(impls, PEERS)
    for name, e in impls.items():
        if e.get('status') != 'ok':
            continue
        e['pct_copy'] = round(100 * copy / e['us'], 1) if copy else None
        e['vs_best_peer'] = round(ok_us(impls, peer) / e['us'], 3) if peer else None
