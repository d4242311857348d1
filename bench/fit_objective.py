"""What bench/fit_model.py minimizes: the rows of its weighted least squares.

Two objectives:

- "relerr": every timing of every training case, the squared relative error
  of its predicted time, ((pred - us) / us)^2, every case weighing the same.
- "regret": what a wrong pick costs. Per case, weighted by what users run
  (case_weights): the relative error of each kernel's time, weighted by how
  close the kernel is to the case's best (1 within 5%, falling to FAR_WEIGHT
  at 2x; FAR_WEIGHT is 1, off: 0.5 and 0.1 let the fit predict far kernels
  fast, and the plan picked them, lab/TUNING.md 2026-11-26), plus a pairwise term per kernel measured or predicted within
  PAIR_RATIO of the best: the predicted gap to the best kernel against the
  measured gap, ((pred_k - pred_best) - (us_k - us_best)) / us_best, weighted
  PAIR_WEIGHT (0.5 did best of 0.5, 2 and 5 on held-out data). The
  pairs "predicted near" come from the previous round's fit (ROUNDS rounds).

Both are linear in the constants (the prediction is), so each row is a dict
{column: coefficient}, a target and a weight.
"""
import math

FAR_WEIGHT = 1.0
PAIR_RATIO = 1.5
PAIR_WEIGHT = 0.5
ROUNDS = 2

# What users run, as weights of classes (a case's weight is its classes'
# product, shared among the training cases of its class): 2- and 4-byte
# elements over 1- and 8-byte ones over 16-byte; 1 MB to 512 MB over smaller
# and larger; plain matrices over odd (padded, offset), skinny (a side of 64
# or less) and batched ones.
WIDTH_WEIGHT = {1: 1.0, 2: 2.0, 4: 2.0, 8: 1.0, 16: 0.5}
SIZE_WEIGHT = (('<1MB', 1 << 20, 1.0), ('1-32MB', 32 << 20, 2.0), ('32-512MB', 512 << 20, 2.0), ('>512MB', None, 1.0))
KIND_WEIGHT = {'plain': 2.0, 'odd': 1.0, 'skinny': 1.0, 'batched': 1.0}


def case_class(c):
    """(width, size class, kind) of a case."""
    size = c.rows * c.cols * c.eb * max(c.batch, 1)
    sclass = next(name for name, top, _ in SIZE_WEIGHT if top is None or size < top)
    if c.batch > 1:
        kind = 'batched'
    elif min(c.rows, c.cols) <= 64:
        kind = 'skinny'
    elif c.offset or c.ld_in != c.cols or c.ld_out != c.rows:
        kind = 'odd'
    else:
        kind = 'plain'
    return c.eb, sclass, kind


def case_weights(cases, which, how):
    """{case index: weight} over `which`, mean 1: 'equal', or 'users' (the classes
    above; a class's weight shared by the square root of its cases, so that a set
    with many cases of one class does not drown the others)."""
    if how == 'equal':
        return {i: 1.0 for i in which}
    cls = {i: case_class(cases[i]) for i in which}
    count = {}
    for k in cls.values():
        count[k] = count.get(k, 0) + 1
    size_w = {name: w for name, _, w in SIZE_WEIGHT}
    w = {i: WIDTH_WEIGHT.get(k[0], 1.0) * size_w[k[1]] * KIND_WEIGHT[k[2]] / math.sqrt(count[k])
         for i, k in cls.items()}
    mean = sum(w.values()) / len(w) if w else 1
    return {i: v / mean for i, v in w.items()}


def near_weight(ratio):
    """A kernel's weight from its time over the case's best: 1 up to 1.05, FAR_WEIGHT from 2 (log-linear)."""
    if ratio <= 1.05:
        return 1.0
    if ratio >= 2:
        return FAR_WEIGHT
    t = math.log(ratio / 1.05) / math.log(2 / 1.05)
    return math.exp((1 - t) * math.log(1.0) + t * math.log(FAR_WEIGHT))


def terms_of(m, kernel, x, scale, into=None, sign=1.0):
    """{column: coefficient} of kernel's prediction / scale, added into `into`."""
    t = {} if into is None else into
    for f in m.feats:
        if x[f]:
            j = m.index[(m.who(kernel, f), f)]
            t[j] = t.get(j, 0.0) + sign * x[f] / scale
    return t


def rows_relerr(m, cases, feats_of, which, weights):
    return [(terms_of(m, k, feats_of[i][k][0], us), 1.0, weights[i])
            for i in which for k, us in cases[i].times.items() if k in feats_of[i]]


def rows_regret(m, cases, feats_of, which, weights, predicted=None):
    """predicted: {case: {kernel: us}} of the previous round, or None (first round)."""
    rows = []
    for i in which:
        c, fx = cases[i], feats_of[i]
        times = {k: us for k, us in c.times.items() if k in fx}
        if not times:
            continue
        b = min(times, key=lambda k: (times[k], k))
        tb = times[b]
        for k, us in times.items():
            rows.append((terms_of(m, k, fx[k][0], us), 1.0, weights[i] * near_weight(us / tb)))
        pb = predicted[i][b] if predicted else None
        for k, us in times.items():
            near = us <= PAIR_RATIO * tb or (predicted and predicted[i][k] <= PAIR_RATIO * pb)
            if k == b or not near:
                continue
            t = terms_of(m, k, fx[k][0], tb)
            terms_of(m, b, fx[b][0], tb, into=t, sign=-1.0)
            rows.append((t, (us - tb) / tb, weights[i] * PAIR_WEIGHT))
    return rows
