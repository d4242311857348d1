#!/usr/bin/env python3
"""Fit the plan cost model's constants (lib/model_params.tsv) to measured kernel times.

    python3 bench/fit_model.py [--out lib/model_params.tsv] [--holdout-every K] [--ptxas]
                               MEASUREMENTS...

MEASUREMENTS are results of bench/peers.py (JSON, format "ptxpose-peers 1": every
"ptxpose:KERNEL" entry of a case is a timing), of the older shared harness (JSON with
"cases": {SPEC: {IMPL: {"us": ...}}}), or `ptxpose bench` CSVs (bench/results/bench.csv:
per-call CUDA events, so only cases whose copy takes at least --min-copy-us are used).

The features are computed by the C code, once: `ptxpose plan --cases FILE --json
--features` for every case and every kernel of ptx/ on the measuring device (a built-in
description matched by name). The model is linear in its constants:

    us = sum over features f of theta(kernel, f) * x[f]

(lib/model_cost.c; the sum here must stay the same). Every (kernel, feature) pair with
enough support in the training data gets a theta of its own, the rest share the default
row "*". The fit minimizes the squared relative error, sum ((pred - us) / us)^2, with a
small ridge towards the current default row, under lower bounds that keep every
throughput positive and no path faster than its floor (a DRAM path at most 1/DRAM_FLOOR
times the nominal bandwidth). Cases are split deterministically: every K-th case (sorted
by device and spec) is held out. The errors of the fit on the training cases and on the
held-out ones are printed and written into the file's header; the committed constants
are then refitted on all cases. The unsure margin is the 90th percentile of the error
of predicted time ratios between a case's pick and the kernels predicted within 1.5x.

Exit status: 0, 2 usage, 3 a measurement file that cannot be read, 4 ptxpose failed or
disagrees with this script's sum.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from fit_data import FitError, load, shown  # noqa: E402
import fit_objective as obj  # noqa: E402

# Where the fit starts, and what the ridge pulls towards: nominal costs, so that a
# fit depends on the data alone (not on the file it replaces).
PRIOR = {'launch': 2.0, 'waves': 0.5, 'vec_dram': 1.1, 'vec_l2': 0.5, 'realign_dram': 1.3,
         'realign_l2': 0.7, 'elem_dram': 1.5, 'elem_l2': 0.9, 'edge_dram': 2.0, 'edge_l2': 1.2,
         'slots': 0.1, 'tail': 30.0, 'smem': 0.5}
DEFAULT_CONSTS = {'l2_lo': 0.5, 'l2_hi': 1.0, 'inflight_need': 65536, 'sm_share_cap': 2, 'unsure_margin': 0.05}
GLOBAL_ONLY = ('launch', 'waves')      # one theta for every kernel
DRAM_FLOOR = 0.8                       # theta of a *_dram feature is at least this
LOWER = {'launch': 0.0, 'waves': 0.0, 'slots': 0.0, 'tail': 0.0, 'smem': 0.0}
OTHER_FLOOR = 0.05                     # *_l2
MIN_SUPPORT = 2                        # training timings where the feature weighs >= SUPPORT_SHARE
SUPPORT_SHARE = 0.05
RIDGE = 1e-3
DEFAULT_OBJECTIVE = 'regret'  # the better of the two on the unseen set (lab/TUNING.md, 2026-11-26)
HEADER = '# ptxpose cost model parameters: DO NOT EDIT by hand; bench/fit_model.py writes this file.'


# ---- features from the C code -----------------------------------------------------------

def device_flag(name):
    low = name.lower()
    for dev in ('h100', 'h200'):
        if dev in low:
            return dev
    raise FitError(f"no built-in description of the device '{name}' (lib/model_dev.c has h100 and h200)", 3)


def features(a, cases, params, unsure=None):
    """{case index: {kernel: (x dict, predicted us)}, in the plan's order (its pick first)} from
    `ptxpose plan --cases`, one call per device; unsure (a dict), if given, gets the plan's
    unsure flag of every case."""
    out = {}
    by_dev = {}
    for i, c in enumerate(cases):
        by_dev.setdefault(device_flag(c.device), []).append(i)
    for dev, idx in sorted(by_dev.items()):
        with tempfile.NamedTemporaryFile('w', suffix='.cases', delete=False) as f:
            f.write(''.join(cases[i].flags() + '\n' for i in idx))
            name = f.name
        cmd = [a.ptxpose, 'plan', '--cases', name, '--json', '--features', '--device', dev,
               '--params', params] + (['--ptxas'] if a.ptxas else []) + [a.ptx]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise FitError(f'{a.ptxpose}: {e.strerror} (build it: ninja build/ptxpose)', 4)
        finally:
            os.unlink(name)
        if p.returncode:
            raise FitError(f'ptxpose plan failed (exit {p.returncode}): {p.stderr.strip()}', 4)
        doc = json.loads(p.stdout)
        for i, rec in zip(idx, doc['cases']):
            out[i] = {k['kernel']: (k['features']['x'], k['us']) for k in rec['candidates']}
            if unsure is not None:
                unsure[i] = bool(rec.get('unsure'))
    return out


# ---- the fit --------------------------------------------------------------------------

def read_params(path):
    consts, theta = {}, {}
    for line in open(path):
        t = line.split()
        if not t or t[0].startswith('#'):
            continue
        if t[0] == 'const':
            consts[t[1]] = float(t[2])
        elif t[0] == 'theta':
            theta.setdefault(t[1], {})[t[2]] = float(t[3])
    return consts, theta


def lower_bound(feat):
    if feat.endswith('_dram'):
        return DRAM_FLOOR
    return LOWER.get(feat, OTHER_FLOOR)


class Model:
    """Columns: (who, feature); who is a kernel name or '*'."""

    def __init__(self, feats, prior, table=None):
        """prior: {feature: nominal theta}; table: {who: {feature: theta}} of a fitted table to
        start from and pull towards (--prior-params), else the nominal costs."""
        self.feats, self.prior, self.table = feats, prior, table or {}
        self.cols, self.index, self.theta = [], {}, []

    def start(self, who, f):
        row = self.table.get(who) or {}
        v = row.get(f, (self.table.get('*') or {}).get(f, self.prior[f]))
        return max(lower_bound(f), v)

    def col(self, who, f):
        key = (who, f)
        if key not in self.index:
            self.index[key] = len(self.cols)
            self.cols.append(key)
            self.theta.append(self.start(who, f))
        return self.index[key]

    def who(self, kernel, f):
        return kernel if (kernel, f) in self.index else '*'

    def predict(self, kernel, x):
        return sum(self.theta[self.index[(self.who(kernel, f), f)]] * x[f] for f in self.feats)


def choose_columns(m, rows):
    """Per-kernel columns where a kernel's timings lean on a feature often enough."""
    support = {}
    for kernel, x, _ in rows:
        total = sum(m.prior[f] * x[f] for f in m.feats) or 1
        for f in m.feats:
            if f not in GLOBAL_ONLY and m.prior[f] * x[f] >= SUPPORT_SHARE * total:
                support[(kernel, f)] = support.get((kernel, f), 0) + 1
    for f in m.feats:
        m.col('*', f)
    for (kernel, f), n in sorted(support.items()):
        if n >= MIN_SUPPORT:
            m.col(kernel, f)


def solve(m, rows, ridge=RIDGE, sweeps=20000):
    """Box-constrained weighted least squares, sum w (terms . theta - y)^2, by coordinate descent.
    rows: (terms {column: coefficient}, target y, weight w) (bench/fit_objective.py)."""
    n = len(m.cols)
    G = [dict() for _ in range(n)]
    c = [0.0] * n
    for terms, y, wt in rows:
        for j, v in terms.items():
            c[j] += wt * v * y
            for k, w in terms.items():
                G[j][k] = G[j].get(k, 0.0) + wt * v * w
    diag = [G[j].get(j, 0.0) for j in range(n)]
    lam = ridge * (sum(diag) / n if n else 1)
    lb = [lower_bound(f) for _, f in m.cols]
    prior = [m.start(who, f) for who, f in m.cols]
    th = m.theta
    g = [sum(v * th[k] for k, v in G[j].items()) - c[j] + lam * (th[j] - prior[j]) for j in range(n)]
    # the sweeps in plain locals and lists (the same arithmetic, in the same
    # order, as max() and dict.items() would give, without their calls)
    Gl = [list(G[j].items()) for j in range(n)]
    hs = [diag[j] + lam for j in range(n)]
    for _ in range(sweeps):
        worst = 0.0
        for j in range(n):
            t, lbj = th[j] - g[j] / hs[j], lb[j]
            new = t if t > lbj else lbj
            d = new - th[j]
            if d:
                th[j] = new
                for k, v in Gl[j]:
                    g[k] += v * d
                g[j] += lam * d
                a = new if new >= 0 else -new
                r = (d if d >= 0 else -d) / (1e-3 if 1e-3 > a else a)
                if r > worst:
                    worst = r
        if worst < 1e-9:
            break


def evaluate(m, cases, feats_of, which):
    rel, within, ratio = [], 0, []
    for i in which:
        c, fx = cases[i], feats_of[i]
        pred = {k: m.predict(k, fx[k][0]) for k in c.times if k in fx}
        if not pred:
            continue
        rel += [abs(pred[k] / c.times[k] - 1) for k in pred]
        pick = min(pred, key=lambda k: (pred[k], k))
        best = min(c.times[k] for k in pred)
        within += c.times[pick] <= 1.03 * best
        ratio.append(best / c.times[pick])
    n = len(ratio)
    if not n:
        return None
    rel.sort()
    return {'cases': n, 'timings': len(rel), 'median': rel[len(rel) // 2], 'worst': rel[-1],
            'within3': within / n, 'geomean': math.exp(sum(map(math.log, ratio)) / n), 'min': min(ratio)}


def margin(m, cases, feats_of, which):
    errs = []
    for i in which:
        c, fx = cases[i], feats_of[i]
        pred = {k: m.predict(k, fx[k][0]) for k in c.times if k in fx}
        if len(pred) < 2:
            continue
        b = min(pred, key=lambda k: (pred[k], k))
        for k in pred:
            if k != b and pred[k] <= 1.5 * pred[b]:
                errs.append(abs(math.log(pred[k] / pred[b]) - math.log(c.times[k] / c.times[b])))
    if not errs:
        return 0.05
    errs.sort()
    return min(0.5, max(0.01, math.exp(errs[int(0.9 * (len(errs) - 1))]) - 1))


def fit(cases, feats_of, which, feats, prior, how=None):
    """how: the objective ('relerr', 'regret'), the case weighting ('equal', 'users'), the
    starting table and the ridge (an argparse namespace or None: relerr, equal, nominal)."""
    objective = getattr(how, 'objective', 'relerr')
    weighting = getattr(how, 'weights', None) or ('users' if objective == 'regret' else 'equal')
    m = Model(feats, prior, getattr(how, 'start_table', None))
    support = [(k, feats_of[i][k][0], us) for i in which for k, us in cases[i].times.items() if k in feats_of[i]]
    choose_columns(m, support)
    for who, row in sorted(m.table.items()):  # a starting table's own thetas stay, pulled towards their values
        for f in row:
            if who != '*' and f in m.feats and f not in GLOBAL_ONLY:
                m.col(who, f)
    weights = obj.case_weights(cases, which, weighting)
    ridge = getattr(how, 'ridge', None) or RIDGE
    if objective == 'relerr':
        solve(m, obj.rows_relerr(m, cases, feats_of, which, weights), ridge)
        return m
    predicted = None
    for _ in range(obj.ROUNDS):
        solve(m, obj.rows_regret(m, cases, feats_of, which, weights, predicted), ridge)
        predicted = {i: {k: m.predict(k, feats_of[i][k][0]) for k in cases[i].times if k in feats_of[i]}
                     for i in which}
    return m


def plan_eval(a, cases, which, params):
    """How the plan (the C code's ranking with the table `params`) picks on these cases: its
    pick is the first kernel of its order that the case timed. Within 3% of the best timed
    kernel, the geometric mean and worst of best/pick, and the unsure cases."""
    unsure = {}
    fx = features(a, cases, params, unsure)
    ratio, untimed, unsure_n, unsure_miss = [], 0, 0, 0
    for i in which:
        c = cases[i]
        order = [k for k in fx[i] if k in c.times]
        if not order:
            continue
        untimed += next(iter(fx[i])) != order[0]
        r = min(c.times[k] for k in order) / c.times[order[0]]
        ratio.append(r)
        unsure_n += unsure[i]
        unsure_miss += unsure[i] and r < 1 / 1.03
    n = len(ratio)
    if not n:
        return None
    return {'cases': n, 'within3': sum(r >= 1 / 1.03 for r in ratio) / n,
            'geomean': math.exp(sum(map(math.log, ratio)) / n), 'min': min(ratio), 'untimed': untimed,
            'unsure': unsure_n, 'unsure_miss': unsure_miss, 'miss': sum(r < 1 / 1.03 for r in ratio)}


def plan_summary(e):
    if not e:
        return 'no cases'
    return (f"within 3% of the best kernel in {100 * e['within3']:.0f}% of {e['cases']} cases, geometric mean "
            f"best/pick {e['geomean']:.3f}, worst {e['min']:.3f}; unsure on {e['unsure']} "
            f"({e['unsure_miss']} of the {e['miss']} misses)"
            + (f"; {e['untimed']} picks not timed (the next taken)" if e['untimed'] else ''))


def summary(e):
    if not e:
        return 'no cases'
    return (f"{e['cases']} cases, {e['timings']} timings: relative error median {100 * e['median']:.1f}%, "
            f"worst {100 * e['worst']:.0f}%; the predicted best within 3% of the measured best in "
            f"{100 * e['within3']:.0f}% of cases (geometric mean best/pick {e['geomean']:.3f}, worst {e['min']:.3f})")


def write_params(path, m, consts, header):
    """Write the file to path (the caller renames it into place)."""
    lines = [HEADER,
             '# us = sum over features f of theta(kernel, f) * x[f] (lib/README.md); a theta row names',
             '# a kernel, family:NAME or * (the default for every kernel and feature).'] + header
    for k in ('l2_lo', 'l2_hi', 'inflight_need', 'sm_share_cap', 'unsure_margin'):
        lines.append(f'const\t{k}\t{consts[k]:.6g}')
    order = sorted(range(len(m.cols)), key=lambda j: (m.cols[j][0] != '*', m.cols[j][0], m.feats.index(m.cols[j][1])))
    for j in order:
        who, f = m.cols[j]
        lines.append(f'theta\t{who}\t{f}\t{m.theta[j]:.6g}')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def check_against_c(a, m, cases, path):
    """The C code's predictions with the written constants equal this script's sum."""
    _, theta = read_params(path)
    for j, (who, f) in enumerate(m.cols):
        m.theta[j] = theta[who][f]  # as written (rounded)
    fx = features(a, cases, path)
    worst = 0.0
    for i, c in enumerate(cases):
        for k, (x, us) in fx[i].items():
            mine = m.predict(k, x)
            worst = max(worst, abs(mine - us) / max(us, 1e-9))
    if worst > 1e-6:
        raise FitError(f'ptxpose plan and this script disagree on a prediction by {100 * worst:.2g}%: '
                       f'lib/model_cost.c and Model.predict must compute the same sum', 4)
    return worst


def git_commit():
    try:
        p = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True)
        return p.stdout.strip() if p.returncode == 0 else 'unknown'
    except OSError:
        return 'unknown'


SEARCH = {'inflight_need': (16384, 32768, 65536, 131072), 'l2_lo': (0.4, 0.5, 0.6, 0.75),
          'sm_share_cap': (2, 4)}


def with_consts(a, consts, theta, tmpdir):
    """A parameter file with these constants and the starting thetas (the features depend on the constants)."""
    path = os.path.join(tmpdir, 'start.tsv')
    lines = [HEADER] + [f'const\t{k}\t{v:.6g}' for k, v in sorted(consts.items())]
    lines += [f'theta\t{who}\t{f}\t{v:.6g}' for who, row in sorted(theta.items()) for f, v in row.items()]
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


def search(a, cases, consts, theta, train, tmpdir):
    """The shape constants (not fitted by least squares) that fit the training cases best."""
    best = None
    for need in SEARCH['inflight_need']:
        for lo in SEARCH['l2_lo']:
            for cap in SEARCH['sm_share_cap']:
                c = dict(consts, inflight_need=need, l2_lo=lo, sm_share_cap=cap)
                fx = features(a, cases, with_consts(a, c, theta, tmpdir))
                feats = list(next(iter(fx[0].values()))[0].keys())
                e = evaluate(fit(cases, fx, train, feats, theta['*'], a), cases, fx, train)
                key = (-e['within3'], e['median'])
                if best is None or key < best[0]:
                    best = (key, c)
    return best[1]


def holdout(n, every, seed):
    """The held-out case indices: every K-th of n, or (seed) a seeded random n/K of them."""
    if seed is None:
        return [i for i in range(n) if i % every == every - 1]
    import random
    idx = list(range(n))
    random.Random(seed).shuffle(idx)
    return sorted(idx[:n // every])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('measurements', nargs='+', metavar='FILE')
    ap.add_argument('--out', default=os.path.join(ROOT, 'lib', 'model_params.tsv'))
    ap.add_argument('--params', help='inflight_need, l2_lo, l2_hi, sm_share_cap from this file (default: --out, '
                    'if it exists; thetas always start from the nominal PRIOR)')
    ap.add_argument('--ptxpose', default=os.path.join(ROOT, 'build', 'ptxpose'))
    ap.add_argument('--ptx', default=os.path.join(ROOT, 'ptx'), help='the kernels (a folder)')
    ap.add_argument('--ptxas', action='store_true', help='registers from ptxas (pass it to plan as well)')
    ap.add_argument('--holdout-every', type=int, default=4, metavar='K')
    ap.add_argument('--min-copy-us', type=float, default=20.0, metavar='US')
    ap.add_argument('--search', action='store_true',
                    help='also choose inflight_need, l2_lo and sm_share_cap from a small grid (training cases)')
    ap.add_argument('--objective', choices=('regret', 'relerr'), default=DEFAULT_OBJECTIVE,
                    help="what the fit minimizes (bench/fit_objective.py): 'regret' (the relative error, "
                    "each case weighted, and the gaps to each case's best kernel) or 'relerr' (every timing "
                    f"alike); default {DEFAULT_OBJECTIVE}")
    ap.add_argument('--weights', choices=('users', 'equal'),
                    help="case weights: 'users' (by width, size and kind: fit_objective.py; regret's default) "
                    "or 'equal' (relerr's default)")
    ap.add_argument('--prior-params', metavar='FILE',
                    help="thetas start from and are pulled towards this table's (a device with few cases: "
                    "the H100's), not the nominal costs")
    ap.add_argument('--ridge', type=float, metavar='L', help=f'the pull towards the prior (default {RIDGE:g})')
    ap.add_argument('--holdout-seed', type=int, metavar='S',
                    help='hold out a seeded random one case in K (default: every K-th case, sorted)')
    ap.add_argument('--final', choices=('all', 'train'), default='all',
                    help="the written table fitted on all cases (default) or the training cases only, "
                    "so that the held-out ones stay never fitted")
    ap.add_argument('--unseen', nargs='+', metavar='FILE', default=[],
                    help='results never fitted: the plan\'s picks on them, before and after, go into the header')
    ap.add_argument('--baseline', metavar='FILE',
                    help="the table 'before' is (default: --out as it is, if it exists)")
    ap.add_argument('--dry-run', action='store_true', help='fit and report; write nothing')
    a = ap.parse_args(argv)
    if a.holdout_every < 2:
        ap.error('--holdout-every must be at least 2')
    a.start_table = read_params(a.prior_params)[1] if a.prior_params else None
    try:
        start = a.params or a.out
        consts = dict(DEFAULT_CONSTS, **(read_params(start)[0] if a.params or os.path.exists(start) else {}))
        theta = {'*': dict(PRIOR)}
        cases, sources = [], []
        for path in a.measurements:
            got, how = load(path, a.min_copy_us)
            got = [c for c in got if c.times]
            cases += got
            devs = sorted({c.device for c in got})
            sources.append(f'{shown(path)} ({", ".join(devs)}; {how}; {len(got)} cases)')
        cases.sort(key=lambda c: (c.device, c.spec))
        if not cases:
            raise FitError('no case with a kernel timing in the measurements', 3)
        unseen, unseen_src = [], []
        for path in a.unseen:
            got, how = load(path, a.min_copy_us)
            got = [c for c in got if c.times]
            unseen += got
            unseen_src.append(f'{shown(path)} ({len(got)} cases)')
        held = holdout(len(cases), a.holdout_every, a.holdout_seed)
        train = [i for i in range(len(cases)) if i not in set(held)]
        baseline = a.baseline or (a.out if os.path.exists(a.out) else None)
        with tempfile.TemporaryDirectory() as tmpdir:
            if a.search:
                consts = search(a, cases, consts, theta, train, tmpdir)
            feats_of = features(a, cases, with_consts(a, consts, theta, tmpdir))
        feats = list(next(iter(feats_of[0].values()))[0].keys())
        missing = sorted({k for i, c in enumerate(cases) for k in c.times if k not in feats_of[i]})
        if missing:
            print(f'fit_model: not in {shown(a.ptx)}, left out: {" ".join(missing)}', file=sys.stderr)
        m = fit(cases, feats_of, train, feats, theta['*'], a)
        e_train, e_held = evaluate(m, cases, feats_of, train), evaluate(m, cases, feats_of, held)
        final = list(range(len(cases))) if a.final == 'all' else train
        if a.final == 'all':
            m = fit(cases, feats_of, final, feats, theta['*'], a)
        e_all = evaluate(m, cases, feats_of, final)
        consts['unsure_margin'] = margin(m, cases, feats_of, final)
        split = f'seeded ({a.holdout_seed}) random' if a.holdout_seed is not None else 'every K-th sorted'
        weighting = a.weights or ('users' if a.objective == 'regret' else 'equal')
        report = [f'# fitted from: {"; ".join(sources)}; ptxpose {git_commit()}',
                  f'# fitted cases: {len(final)}',
                  f'# objective: {a.objective} (bench/fit_objective.py), cases weighted {weighting}'
                  + (f'; thetas pulled towards {shown(a.prior_params)}' if a.prior_params else '')
                  + (f'; ridge {a.ridge:g}' if a.ridge else ''),
                  f'# training ({len(train)} cases; one in {a.holdout_every} held out, {split}): {summary(e_train)}',
                  f'# held out ({len(held)} cases, same split): {summary(e_held)}',
                  (f'# these constants, refitted on all cases: {summary(e_all)}' if a.final == 'all' else
                   f'# these constants: fitted on the training cases only (the held-out ones never fitted): '
                   f'{summary(e_all)}'),
                  '# inflight_need, l2_lo, sm_share_cap: ' + ('the best of a grid on the training cases'
                                                              if a.search else 'kept from the starting file'),
                  f"# unsure margin {100 * consts['unsure_margin']:.1f}%: the 90th percentile of the error of "
                  'predicted time ratios between the pick and the kernels predicted within 1.5x of it']
        for line in report:
            print(line[2:])
        with tempfile.TemporaryDirectory() as tmpdir:
            mine = os.path.join(tmpdir, 'fitted.tsv')
            write_params(mine, m, consts, report)
            checks = [('held out', cases, held, 'never fitted' if a.final == 'train' else 'refitted on all')]
            checks += [('unseen', unseen, list(range(len(unseen))), '; '.join(unseen_src))] if unseen else []
            for what, cs, which, note in checks:
                before = plan_summary(plan_eval(a, cs, which, baseline)) if baseline else 'no baseline'
                after = plan_summary(plan_eval(a, cs, which, mine))
                line = (f'# the plan\'s pick, {what} ({note}): before ({shown(baseline) if baseline else "-"}): '
                        f'{before}; after: {after}')
                print(line[2:])
                report.append(line)
        if not a.dry_run:
            tmp = a.out + '.tmp'
            try:
                write_params(tmp, m, consts, report)
                worst = check_against_c(a, m, cases, tmp)
                os.replace(tmp, a.out)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
            print(f'wrote {shown(a.out)}: {len(m.cols)} constants; ptxpose plan agrees with this fit '
                  f'(largest difference {worst:.1e})')
    except FitError as e:
        print(f'fit_model: {e}', file=sys.stderr)
        return e.code
    except OSError as e:
        print(f'fit_model: {e}', file=sys.stderr)
        return 3
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
