#!/usr/bin/env python3
"""One Markdown page from a tuning round's outputs (no GPU): the candidates of
a round beside the committed kernels timed in the same bench/peers.py run.

    python3 lab/candidates_page.py --prefix PREFIX [--show KERNEL]... [--check TAP]...
        [--ncu CSV]... [--text FILE]... [--out SUMMARY.md] RESULTS.json...
    python3 lab/candidates_page.py --top N --case CASE [--prefix P] RESULTS.json
    python3 lab/candidates_page.py --triton-config CASE RESULTS.json

A candidate is a kernel timed by name whose name starts with a --prefix; every
other kernel timed by name is a committed one. Per case: each candidate's % of
the same run's copy, its ratio to the best committed kernel of the case and to
Triton (their time / the candidate's: above 1, the candidate is faster). Per
width, each candidate over the cases of its width: geometric means, how many
cases it beats the best committed kernel by more than 3%, its worst ratio;
then every candidate, and every committed kernel named by --show, on every
case.
--check: `ptxpose check` TAP (counts, and every line that is not ok);
--ncu: `ncu --csv --print-units base` output, one kernel launch a file, the
case read from the file's name (KERNEL@ROWSxCOLS:DTYPE.csv): the counters
per byte the transpose moves; --text: files copied in verbatim (SASS
summaries). --top prints the N fastest kernels of a case (candidates of the
prefix; all kernels without one), --triton-config the Triton peer's winning
config (BMxBN/wW), for the next step of a script; either prints nothing
where the case (or Triton's figure) is absent. Exit status: 0, 2 usage,
3 an input that cannot be read.
"""
import argparse
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'bench'))
from peers_model import KERNEL_PREFIX, geomean, ok_us, open_results  # noqa: E402

WIN = 1.03  # "beats": by more than 3%
# ncu metric -> (column, what it is divided by: 'in' the bytes read, 'out' the bytes
# written, 'moved' both, None: as it is); sectors are 32 bytes
NCU = (
    ('gpu__time_duration.sum', 'us', None),
    ('dram__sectors_read.sum', 'DRAM rd / ideal', 'in'),
    ('dram__sectors_write.sum', 'DRAM wr / ideal', 'out'),
    ('lts__t_sectors_srcunit_tex_op_read.sum', 'L2 rd / ideal', 'in'),
    ('lts__t_sectors_srcunit_tex_op_write.sum', 'L2 wr / ideal', 'out'),
    ('lts__t_requests_srcunit_tex_op_read.sum', 'L2 rd req / KB', 'in'),
    ('lts__t_requests_srcunit_tex_op_write.sum', 'L2 wr req / KB', 'out'),
    ('smsp__inst_executed.sum', 'warp inst / KB', 'moved'),
    ('sm__warps_active.avg.pct_of_peak_sustained_active', 'warps active %', None),
    ('sm__maximum_warps_per_active_cycle_pct', 'occupancy limit %', None),
    ('launch__registers_per_thread', 'regs', None),
)


class InputError(Exception):
    """A file that cannot be read; str() is the one-line message."""


def load(path):
    try:
        with open_results(path) as f:
            res = json.load(f)
        assert isinstance(res.get('cases'), list)
        return res
    except (OSError, ValueError, AssertionError, AttributeError) as e:
        raise InputError(f'{path}: not a bench/peers.py results file ({type(e).__name__})') from None


def timed(impls):
    """{kernel: us} of every kernel timed by name and correct."""
    return {n[len(KERNEL_PREFIX):]: ok_us(impls, n) for n in impls
            if n.startswith(KERNEL_PREFIX) and ok_us(impls, n) is not None}


def is_cand(name, prefixes):
    return any(name.startswith(p) for p in prefixes)


def rows_of(case, prefixes, show=()):
    """Per candidate of a case (and per committed kernel named in `show`), fastest first:
    (name, % copy, vs best committed, vs triton); and the best committed kernel (name, us)
    or None."""
    im = case['impls']
    copy, tri, ks = ok_us(im, 'copy'), ok_us(im, 'triton'), timed(im)
    com = {k: us for k, us in ks.items() if not is_cand(k, prefixes)}
    best = min(com.items(), key=lambda kv: kv[1]) if com else None
    out = []
    for k, us in sorted(ks.items(), key=lambda kv: kv[1]):
        if is_cand(k, prefixes) or k in show:
            out.append((k, 100 * copy / us if copy else None, best[1] / us if best else None,
                        tri / us if tri else None))
    return out, best


def fmt(x, spec='.1f', none='-'):
    return none if x is None else format(x, spec)


def table(head, rows):
    out = ['| ' + ' | '.join(head) + ' |', '|' + ' --- |' * len(head)]
    out += ['| ' + ' | '.join(r) + ' |' for r in rows]
    return out


def width_of(case):
    return case.get('elem_bits') or 0


def section_cases(cases, prefixes, title, show):
    """Per width: each candidate over its cases, and each case's best; then every candidate
    (and every committed kernel named in `show`) on every case."""
    out = [f'## {title}', '']
    by_width = {}
    for c in cases:
        by_width.setdefault(width_of(c), []).append(c)
    for w in sorted(by_width):
        group = by_width[w]
        stats = {}
        for c in group:
            for k, pct, vb, vt in rows_of(c, prefixes)[0]:
                s = stats.setdefault(k, {'pct': [], 'vb': [], 'vt': []})
                for key, v in (('pct', pct), ('vb', vb), ('vt', vt)):
                    if v is not None:
                        s[key].append(v)
        out += [f'### {w}-bit elements: {len(group)} cases', '']
        if stats:
            out += ['Each candidate over the cases of its width (geometric means; vs: the other\'s time / '
                    'the candidate\'s, above 1 the candidate is faster).', '']
            rows = []
            for k, s in sorted(stats.items(), key=lambda kv: -(geomean(kv[1]['vb'], 0))):
                rows.append([k, str(len(s['pct'])), fmt(geomean(s['pct'])), fmt(geomean(s['vb']), '.3f'),
                             f"{sum(v > WIN for v in s['vb'])}", fmt(min(s['vb'], default=None), '.3f'),
                             fmt(geomean(s['vt']), '.3f')])
            out += table(['candidate', 'cases', '% of copy', 'vs best committed', 'beats it (>3%)', 'worst',
                          'vs Triton'], rows) + ['']
        rows = []
        for c in group:
            r, best = rows_of(c, prefixes)
            copy, tri = ok_us(c['impls'], 'copy'), ok_us(c['impls'], 'triton')
            top = r[0] if r else None
            rows.append([c['case'], f'{best[0]} {fmt(100 * copy / best[1]) if copy else "-"}' if best else '-',
                         fmt(100 * copy / tri if copy and tri else None),
                         f'{top[0]} {fmt(top[1])}' if top else '-', fmt(top and top[2], '.3f'),
                         fmt(top and top[3], '.3f')])
        out += ['The best candidate of each case (% of the copy):', '']
        out += table(['case', 'best committed', 'Triton', 'best candidate', 'vs best committed', 'vs Triton'],
                     rows) + ['']
    out += [f'### {title}: every candidate on every case' + (', and ' + ', '.join(show) if show else ''), '']
    rows = []
    for c in cases:
        for k, pct, vb, vt in rows_of(c, prefixes, show)[0]:
            rows.append([k, c['case'], fmt(pct), fmt(vb, '.3f'), fmt(vt, '.3f')])
    return out + table(['kernel', 'case', '% of copy', 'vs best committed', 'vs Triton'], rows) + ['']


def read_text(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError as e:
        raise InputError(f'{path}: {e.strerror}') from None


def section_check(paths):
    out = ['## Checks (`ptxpose check`)', '']
    for p in paths:
        lines = read_text(p).splitlines()
        oks = [x for x in lines if x.startswith('ok ')]
        skip = sum('# SKIP' in x for x in oks)
        bad = [x for x in lines if x.startswith('not ok')]
        plan = next((x for x in lines if x.startswith('1..')), None)
        out.append(f'- {os.path.basename(p)}: {len(oks) - skip} ok, {skip} skipped, {len(bad)} not ok'
                   f'{"" if plan else " (no plan line: cut short)"}')
        out += [f'  - {x}' for x in bad[:20]]
        if len(bad) > 20:
            out.append(f'  - ... {len(bad) - 20} more')
    return out + ['']


SCALE = {'K': 1e3, 'M': 1e6, 'G': 1e9, 'T': 1e12}
TIME_NS = {'nsecond': 1, 'usecond': 1e3, 'msecond': 1e6, 'second': 1e9}


def base_value(text, unit):
    """A metric's value in base units (time in ns): ncu without `--print-units base`
    writes prefixed units (Ksector, Minst, usecond)."""
    v = float(text.replace(',', ''))
    if unit in TIME_NS:
        return v * TIME_NS[unit]
    return v * SCALE[unit[0]] if len(unit) > 1 and unit[0] in SCALE and unit[1:2].islower() else v


def ncu_file(path):
    """(kernel, case, {metric: value}) of one ncu --csv output."""
    base = os.path.basename(path)[:-len('.csv')] if path.endswith('.csv') else os.path.basename(path)
    kernel, _, case = base.partition('@')
    vals = {}
    for row in csv.reader(line for line in read_text(path).splitlines() if line.startswith('"')):
        if len(row) < 15 or not row[0].isdigit():
            continue
        try:
            vals.setdefault(row[12], base_value(row[14], row[13]))
        except ValueError:
            pass
    return kernel, case, vals


def case_bytes(case):
    """Bytes read (= bytes written) of a ROWSxCOLS:DTYPE case, or None."""
    import peers_cases
    try:
        c = peers_cases.parse_case(case)
    except (peers_cases.CaseError, ValueError):
        return None
    return c.moved_bytes // 2


def section_ncu(paths):
    out = ['## ncu counters, one launch (per byte: sectors x 32 / the bytes read or written; '
           'requests and warp instructions per KB)', '']
    rows = []
    for p in paths:
        kernel, case, v = ncu_file(p)
        side = case_bytes(case)
        cells = [kernel, case]
        for metric, _, per in NCU:
            x = v.get(metric)
            if x is None:
                cells.append('-')
            elif metric == 'gpu__time_duration.sum':
                cells.append(fmt(x / 1000, '.1f'))
            elif per is None:
                cells.append(fmt(x, '.1f') if x != int(x) else str(int(x)))
            elif not side:
                cells.append('-')
            elif 'sectors' in metric:
                cells.append(fmt(32 * x / side, '.3f'))
            else:
                cells.append(fmt(1024 * x / (2 * side if per == 'moved' else side), '.2f'))
        rows.append(cells)
    return out + table(['kernel', 'case'] + [c for _, c, _ in NCU], rows) + ['']


def section_text(paths):
    out = []
    for p in paths:
        out += [f'### {os.path.basename(p)}', '', '```', read_text(p).rstrip(), '```', '']
    return ['## Attached', ''] + out if out else []


def find_case(results, name):
    for res in results:
        for c in res['cases']:
            if c['case'] == name:
                return c
    return None


def write(path, text):
    tmp = f'{path}.tmp.{os.getpid()}'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        print(f'candidates_page.py: {message} (see --help)', file=sys.stderr)
        sys.exit(2)


def main(argv):
    ap = Parser(description=__doc__.split('\n')[0])
    ap.add_argument('results', nargs='*', metavar='RESULTS.json')
    ap.add_argument('--prefix', action='append', default=[], help='a candidate kernel name prefix (repeatable)')
    ap.add_argument('--show', action='append', default=[], metavar='KERNEL',
                    help='a committed kernel to list beside the candidates on every case (repeatable)')
    ap.add_argument('--check', action='append', default=[], metavar='TAP')
    ap.add_argument('--ncu', action='append', default=[], metavar='CSV')
    ap.add_argument('--text', action='append', default=[], metavar='FILE')
    ap.add_argument('--title', default='Tuning round')
    ap.add_argument('--out', metavar='FILE')
    ap.add_argument('--top', type=int, metavar='N')
    ap.add_argument('--case', metavar='CASE')
    ap.add_argument('--triton-config', metavar='CASE')
    a = ap.parse_args(argv)
    if (a.top is None) != (a.case is None):
        ap.error('--top and --case go together')
    if a.top is not None and a.top < 1:
        ap.error('--top must be at least 1')
    try:
        results = [load(p) for p in a.results]
        if a.top is not None or a.triton_config:
            c = find_case(results, a.case or a.triton_config)
            if c is None:
                return 0  # nothing to print: the script that asked falls back
            if a.triton_config:
                note = c['impls'].get('triton', {}).get('note', '') if ok_us(c['impls'], 'triton') else ''
                cfg = note.split(': ', 1)[1].split(';')[0] if note.startswith('best of') else note.split(';')[0]
                if cfg:
                    print(cfg)
                return 0
            ks = timed(c['impls'])
            names = [k for k in sorted(ks, key=ks.get) if not a.prefix or is_cand(k, a.prefix)]
            print('\n'.join(names[:a.top]))
            return 0
        out = [f'# {a.title}', '']
        for p, res in zip(a.results, results):
            out.append(f"- {os.path.basename(p)}: {res.get('device', {}).get('name', '?')}, "
                       f"{res.get('date', '?')}, ptxpose {res.get('commit', '?')}, {len(res['cases'])} cases")
        out.append('')
        if a.check:
            out += section_check(a.check)
        for p, res in zip(a.results, results):
            out += section_cases(res['cases'], a.prefix, os.path.basename(p), a.show)
        if a.ncu:
            out += section_ncu(a.ncu)
        out += section_text(a.text)
    except InputError as e:
        print(f'candidates_page.py: {e}', file=sys.stderr)
        return 3
    text = '\n'.join(out) + '\n'
    if a.out:
        try:
            write(a.out, text)
        except OSError as e:
            print(f'candidates_page.py: {a.out}: {e.strerror}', file=sys.stderr)
            return 3
    else:
        sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
