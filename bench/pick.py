#!/usr/bin/env python3
"""Add the plan's choice to bench/peers.py results: what a user of the library gets.

    python3 bench/pick.py [--ptxpose build/ptxpose] RESULTS.json...

For every case of each file, `ptxpose plan --cases` (the library's heuristic
plan: the cost model, no GPU) chooses a kernel for the case's problem on the
results' device, and the case gains an entry "ptxpose-pick": a copy of that
kernel's figures from the same run (so the pick is judged on the same
replays as every other column), with "kernel" naming it. A pick the run did
not time (a kernel outside --ptx) is recorded with status "n/a" and the
reason. The plan's own choice of a copy (for shapes whose transpose is the
identity on memory) takes the copy's figures. An N-d case (bench/peers.py's
perm=) gets an "n/a" entry: the plan command takes 2-D problems. Each entry says whether the
case is one the model was fitted on ("fitted": its name is a case of one of
the results files under lib/model_data/ that the model's "fitted from"
names), and the file's top level gains "pick": the ptxpose that picked (its
--version and commit), the model's params and "fitted from", and those files
(with their case counts, or "missing"). Each file is rewritten atomically (compressed
again where its name ends in .xz or .gz).
Needs no GPU. Exit status: 0, 2 usage, 3 an unreadable or foreign input, 4
the plan command failed.
"""
import argparse
import json
import lzma
import os
import re
import subprocess
import sys
import tempfile

import peers_model as pm

FORMAT = 'ptxpose-peers 1'
PICK = 'ptxpose-pick'
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL_RESULTS = 'lib/model_data/'


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        print(f'pick.py: {message} (see --help)', file=sys.stderr)
        sys.exit(2)


def fail(code, msg):
    print(f'pick.py: {msg}', file=sys.stderr)
    sys.exit(code)


def problem_flags(c):
    """The plan command's flags for a results case."""
    f = ['--elem', str(c['elem_bits']), '--rows', str(c['rows']), '--cols', str(c['cols']),
         '--ld-in', str(c['ld_in']), '--ld-out', str(c['ld_out'])]
    if c.get('batch', 1) > 1:
        f += ['--batch', str(c['batch']), '--stride-in', str(c['stride_in']),
              '--stride-out', str(c['stride_out'])]
    if c.get('offset'):
        f += ['--offset', str(c['offset'])]
    return f


def plan_all(ptxpose, device, cases):
    """The chosen kernel of every case, in order, from one plan --cases call."""
    with tempfile.NamedTemporaryFile('w', suffix='.cases', delete=False) as t:
        for c in cases:
            t.write(' '.join(problem_flags(c)) + '\n')
        name = t.name
    try:
        p = subprocess.run([ptxpose, 'plan', '--json', '--device', device, '--cases', name],
                           capture_output=True, text=True)
    finally:
        os.unlink(name)
    if p.returncode != 0:
        fail(4, f'{ptxpose} plan failed (exit {p.returncode}): {p.stderr.strip()[:300]}')
    try:
        out = json.loads(p.stdout)
        planned, model = out['cases'], out['model']
    except (ValueError, KeyError, TypeError) as e:
        fail(4, f'{ptxpose} plan printed no plan JSON ({e})')
    if len(planned) != len(cases):
        fail(4, f'{ptxpose} plan answered {len(planned)} cases for {len(cases)}')
    return [pl['choice'] for pl in planned], model


def version(ptxpose):
    """(--version's line, the commit in it or 'unknown')."""
    try:
        line = subprocess.run([ptxpose, '--version'], capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        line = ''
    m = re.search(r'\b[0-9a-f]{7,40}(-dirty)?\b', line)
    return line or 'unknown', m.group(0) if m else 'unknown'


def fitted_files(fitted_from):
    """{path: set of case names or None (missing)} of the results files under lib/model_data/
    that a model's "fitted from" names ("PATH (DEVICE; ...; N cases); ...; ptxpose COMMIT")."""
    out = {}
    for part in re.findall(r'(?:^|; )(' + re.escape(MODEL_RESULTS) + r'[^ ;]+)', fitted_from or ''):
        try:
            with pm.open_results(os.path.join(ROOT, part)) as f:
                out[part] = {c['case'] for c in json.load(f)['cases']}
        except (OSError, ValueError, KeyError, TypeError, EOFError, lzma.LZMAError):
            out[part] = None
    return out


def add_picks(res, ptxpose):
    nd = [c for c in res['cases'] if 'perm' in c]  # N-d permutations: the plan command takes none yet
    for c in nd:
        c['impls'][PICK] = {'status': 'n/a', 'note': 'ptxpose plan takes 2-D problems only', 'fitted': False}
    cases = [c for c in res['cases'] if 'perm' not in c]
    picks, model = plan_all(ptxpose, res['device']['name'], cases) if cases else ([], {})
    files = fitted_files(model.get('fitted_from'))
    fitted = set().union(*[names for names in files.values() if names])
    line, commit = version(ptxpose)
    res['pick'] = {'ptxpose': line, 'commit': commit, 'params': model.get('params'),
                   'fitted_from': model.get('fitted_from'),
                   'fitted_files': {p: (len(n) if n is not None else 'missing') for p, n in files.items()}}
    for c, k in zip(cases, picks):
        src = c['impls'].get('copy' if k == 'copy' else pm.KERNEL_PREFIX + k)
        if src is None:
            e = {'status': 'n/a', 'kernel': k, 'note': f'the plan chose {k}, which this run did not time'}
        else:
            e = dict(src, kernel=k, note=f'the plan chose {k}; its figures from this run')
        e['fitted'] = c['case'] in fitted
        c['impls'][PICK] = e
    return len(picks)


def main():
    ap = Parser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--ptxpose', default='build/ptxpose', help='the ptxpose binary (default build/ptxpose)')
    ap.add_argument('results', nargs='+')
    a = ap.parse_args()
    for path in a.results:
        try:
            with pm.open_results(path) as f:
                res = json.load(f)
        except (OSError, ValueError, EOFError, lzma.LZMAError) as e:
            fail(3, f'{path}: {e}')
        if not isinstance(res, dict) or res.get('format') != FORMAT or 'cases' not in res:
            fail(3, f"{path}: not a bench/peers.py results file (want format '{FORMAT}')")
        n = add_picks(res, a.ptxpose)
        pm.write_results(path, res)  # all or nothing, the file's mode and compression kept
        print(f'pick.py: {path}: {n} cases picked')


if __name__ == '__main__':
    main()
