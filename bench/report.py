#!/usr/bin/env python3
"""Turn bench/peers.py results into a side-by-side report, one folder per device.

    python3 bench/report.py --out OUT RESULTS.json...

Files of the same device are merged (a case measured twice keeps its first
figures). For each device it writes, under OUT/<device>/:
  side-by-side.md    per case: copy GB/s, every implementation as % of the copy,
                     ptxpose's best kernel, the plan's pick (bench/pick.py), the
                     winner, ptxpose best / best peer; geometric means over all
                     cases and per case set; how the pick compares with the
                     fastest kernel (the oracle), also over the cases the model
                     was not fitted on
  side-by-side.csv   the same table
  peers.json         the results (the input, or the merged inputs)
  chart-SET[-N].svg  the chart, per case set (split where a set has many cases)
(The selection table that `run --elem` read is gone: the library's plans
choose by the cost model, which bench/fit_model.py fits to these results.)
Plain Python 3: no numpy, no torch. Exit status: 0, 2 usage, 3 an input that
cannot be read or is not a results file.
"""
import argparse
import csv
import io
import json
import lzma
import os
import re
import sys

import peers_model as pm
import report_svg

FORMAT = 'ptxpose-peers 1'
PER_CHART = 20
PICK = 'ptxpose-pick'
WITHIN = 1.03  # "the pick is within 3% of the oracle": its time at most 1.03 times the oracle's
NOISE = ('Noise: two runs of the same case on one device differed by up to 3-5% (30 cases measured twice: '
         'ratios to the best peer by up to 0.031, the pick by up to 0.05), so ratios within that of each other '
         'are ties.')


class InputError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2
        print(f'report.py: {message} (see --help)', file=sys.stderr)
        sys.exit(2)


def load(path):
    try:
        with pm.open_results(path) as f:  # .xz and .gz too
            text = f.read()
    except OSError as e:
        raise InputError(f'{path}: {e.strerror or e}') from None
    except (EOFError, lzma.LZMAError, UnicodeDecodeError) as e:
        raise InputError(f'{path}: not readable ({e})') from None
    try:
        res = json.loads(text)
    except ValueError as e:
        raise InputError(f'{path}: not JSON ({e})') from None
    if not isinstance(res, dict) or res.get('format') != FORMAT:
        raise InputError(f"{path}: not a bench/peers.py results file (want format '{FORMAT}')")
    try:
        for c in res['cases']:
            c['case'], c['impls'], c['sets']
        res['device']['name']
    except (KeyError, TypeError) as e:
        raise InputError(f'{path}: a results file without {e}') from None
    return res, text


def merge(loaded):
    """{device name: {'runs': [results...], 'cases': [case...], 'text': [raw json...]}}."""
    out = {}
    for res, text in loaded:
        d = out.setdefault(res['device']['name'], {'runs': [], 'cases': [], 'by_name': {}, 'text': []})
        d['runs'].append(res)
        d['text'].append(text)
        for c in res['cases']:
            kept = d['by_name'].get(c['case'])
            if kept is None:
                d['by_name'][c['case']] = c
                d['cases'].append(c)
            else:
                kept['sets'] += [s for s in c['sets'] if s not in kept['sets']]
    return out


def slug(name):
    return re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')


def mib(n):
    return f'{n / 2**20:g} MiB' if n else 'unknown'


def cell_text(impls, column):
    """(text for the table, % of copy or None) of one column of one case."""
    name, e = pm.cell(impls, column)
    if e is None:
        return '—', None
    if e.get('status') == 'ok':
        return f"{e['pct_copy']:.1f}", e['pct_copy']
    return e.get('status', '?'), None


def winner_label(name):
    return pm.BEST if name and name.startswith(pm.KERNEL_PREFIX) else (name or '—')


class Table:
    """The rows of the side-by-side table of a list of cases, shared by the Markdown and the CSV."""

    def __init__(self, cases):
        self.cases = cases
        self.columns = pm.columns(cases)
        self.ptx_columns = pm.ptxpose_columns(cases)
        self.ratio_names = [f'{c} / best peer' for c in self.ptx_columns]
        self.pick = PICK in self.ptx_columns
        self.header = (['case', 'copy GB/s'] + self.columns + ['kernel'] + (['pick kernel'] if self.pick else [])
                       + ['winner'] + self.ratio_names)

    def row(self, c):
        impls = c['impls']
        if c.get('error') or 'copy' not in impls:
            return [c['case'], 'failed'] + ['—'] * (len(self.header) - 2)
        cells = [cell_text(impls, col)[0] for col in self.columns]
        best = pm.summarize(impls)
        ratios = [pm.summarize(impls, col)['ratio'] for col in self.ptx_columns]
        pick = [impls.get(PICK, {}).get('kernel') or '—'] if self.pick else []
        return ([c['case'], f"{impls['copy']['GBps']:.0f}"] + cells
                + [pm.kernel_of(best['name'], impls.get(best['name'])) or '—'] + pick + [winner_label(best['winner'])]
                + [f'{r:.2f}x' if r else '—' for r in ratios])

    def ratios(self, column=pm.BEST, cases=None):
        cases = self.cases if cases is None else cases
        return [r for r in (pm.summarize(c['impls'], column)['ratio'] for c in cases if not c.get('error')) if r]

    def held_out(self):
        """The cases the plan's model was not fitted on (bench/pick.py's "fitted"), or None
        where the results do not say."""
        flags = [c['impls'].get(PICK, {}).get('fitted') for c in self.cases if not c.get('error')]
        if not flags or any(f is None for f in flags):
            return None
        return [c for c in self.cases if not c.get('error') and not c['impls'][PICK]['fitted']]

    def pick_vs_oracle(self, cases=None):
        """[(oracle time / pick time, case name)]: 1 where the pick is the fastest kernel timed."""
        out = []
        for c in self.cases if cases is None else cases:
            if c.get('error'):
                continue
            name, _ = pm.cell(c['impls'], pm.BEST)
            oracle, pick = pm.ok_us(c['impls'], name) if name else None, pm.ok_us(c['impls'], PICK)
            if oracle and pick:
                out.append((oracle / pick, c['case']))
        return out

    def failures(self):
        out = []
        for c in self.cases:
            if c.get('error'):
                out.append(f"{c['case']}: {c['error']}")
            for n, e in c['impls'].items():
                st, note = e.get('status'), e.get('note', '')
                if st in ('WRONG', 'error'):
                    out.append(f"{c['case']} {n}: {note if note.startswith(st) else f'{st}: {note}'}")
        return out


def md_table(t):
    lines = ['| ' + ' | '.join(t.header) + ' |', '|' + ' --- |' * len(t.header)]
    lines += ['| ' + ' | '.join(t.row(c)) + ' |' for c in t.cases]
    return lines


def count(n, what):
    return f'{n} {what}' + ('' if n == 1 else 's')


def gm_text(xs):
    g = pm.geomean(xs)
    return f'{g:.2f}x over {count(len(xs), "case")}' if g else 'none (no case with both a ptxpose kernel and a peer)'


def pick_lines(t):
    """The pick against the oracle (the fastest kernel of the run) and the best peer, over
    every case and over those the model was not fitted on."""
    po = t.pick_vs_oracle()
    if not po:
        return [f'{PICK} / {pm.BEST}: none (no case with both timed).']
    near = sum(1 for r, _ in po if r * WITHIN >= 1)
    worst = min(po)
    lines = [f'**{PICK} / {pm.BEST} (the oracle: the fastest kernel this run timed): geometric mean '
             f'{pm.geomean([r for r, _ in po]):.2f}x over {count(len(po), "case")}; within 3% of the oracle in '
             f'{near} of {len(po)} ({100 * near / len(po):.0f}%); worst {worst[0]:.2f}x ({worst[1]}).**']
    held = t.held_out()
    if held is None:
        lines.append('The results do not say which cases the model was fitted on (run bench/pick.py again).')
    else:
        hpo = [r for r, _ in t.pick_vs_oracle(held)]
        lines.append(f'**On the {count(len(held), "case")} the model was not fitted on: {PICK} / best peer '
                     f'{gm_text(t.ratios(PICK, held))}; {PICK} / {pm.BEST} '
                     + (f'{pm.geomean(hpo):.2f}x over {count(len(hpo), "case")}' if hpo else 'none') + '.**')
    return lines


def sets_of(cases):
    order = []
    for c in cases:
        order += [s for s in c['sets'] if s not in order]
    return [(s, [c for c in cases if s in c['sets']]) for s in order]


def chart_rows(t, cases):
    rows = []
    for c in cases:
        if c.get('error') or 'copy' not in c['impls']:
            rows.append((c['case'], [], c.get('error', 'no copy measured')))
            continue
        cells = []
        for col in t.columns:
            text, v = cell_text(c['impls'], col)
            cells.append((col, v, text))
        rows.append((c['case'], cells, None))
    return rows


def run_dates(runs):
    """Every run's day, once each, in order."""
    days = []
    for r in runs:
        d = r.get('date', '?')[:10]
        if d not in days:
            days.append(d)
    return ', '.join(days)


def charts(dev, runs, t, set_name, cases):
    """[(file name, svg)] for one set, PER_CHART cases per chart."""
    parts = [cases[i:i + PER_CHART] for i in range(0, len(cases), PER_CHART)] or [[]]
    out = []
    l2 = mib(runs[0]['device'].get('l2_bytes'))
    note = (f'Warm L2: matrices that fit in the L2 ({l2}) can pass 100% of the copy. '
            f'Bars are scaled to the largest value; none is clipped.')
    for i, part in enumerate(parts, 1):
        suffix = f'-{i}' if len(parts) > 1 else ''
        title = (f"{set_name}: % of the same-run copy, {dev}, {run_dates(runs)}"
                 + (f' (part {i} of {len(parts)})' if len(parts) > 1 else ''))
        out.append((f'chart-{set_name}{suffix}.svg', report_svg.chart(title, t.columns, chart_rows(t, part), note)))
    return out


def run_flags(args):
    """A run's options (its "args") as the peers.py flags that give them."""
    if not args:
        return 'options not recorded'
    ms = args.get('target_ms')
    f = [f"--replays {args.get('replays')}", f"--target-ms {ms:g}" if isinstance(ms, (int, float)) else '--target-ms ?',
         f"--max-calls {args.get('max_calls')}"] + (['--quick'] if args.get('quick') else [])
    f += [f'--set {s}' for s in args.get('sets') or []] + [f"--ptx '{g}'" for g in args.get('ptx') or []]
    if args.get('no_peers'):
        f.append('--no-peers')
    return ' '.join(f)


def options_text(runs):
    flags = []
    for r in runs:
        t = run_flags(r.get('args'))
        if t not in flags:
            flags.append(t)
    return 'Run with: ' + '; '.join(f'`bench/peers.py {t}`' for t in flags) + '.'


def header_lines(dev, runs):
    d = runs[0]['device']
    lines = [f'# ptxpose and its peers, side by side: {dev}', '',
             f"Device: {dev}, {d.get('sms', '?')} SMs, L2 {mib(d.get('l2_bytes'))}, driver {d.get('driver', '?')}, "
             f"CUDA runtime {d.get('cuda_runtime', '?')}."]
    for r in runs:
        v = r.get('versions', {})
        lines.append(f"Run of {r.get('date', '?')}: ptxpose commit {r.get('commit', 'unknown')}; "
                     + ', '.join(f'{k} {v[k]}' for k in sorted(v)) + '.')
        if r.get('pick'):
            p = r['pick']
            lines.append(f"Its {PICK} column: the plan of ptxpose {p.get('commit', 'unknown')} "
                         f"({p.get('ptxpose', '?')}), model {p.get('params', '?')}, fitted from: "
                         f"{p.get('fitted_from', '?')}.")
    lines += ['', f"Method: {runs[0].get('method', '?')}. " + options_text(runs) + ' ' + NOISE, '',
              'Each implementation column is bandwidth (bytes read + written) as % of a device-to-device copy '
              'of the same bytes timed in the same run. The L2 stays warm between calls, so matrices that fit '
              f"in the L2 ({mib(d.get('l2_bytes'))} here) can pass 100% of the copy. "
              f'"{pm.BEST}" is the fastest committed ptxpose kernel of the case ("kernel" names it); '
              f'the best peer is the fastest of {", ".join(pm.peers_of([c for r in runs for c in r["cases"]]))}; "{pm.BEST} / best peer" is the best '
              "peer's time over ptxpose's (above 1: ptxpose is faster). WRONG: failed the bit-exact check "
              '(never timed); error: the implementation failed; n/a: it does not do the case (peers.json says why).']
    return lines


def device_files(dev, d):
    """{file name: text} of one device's folder."""
    cases, runs = d['cases'], d['runs']
    t = Table(cases)
    md = header_lines(dev, runs) + ['']
    md.append(f'**Geometric mean of {pm.BEST} / best peer: {gm_text(t.ratios())}.**')
    for col in t.ptx_columns[1:]:
        md.append(f'**Geometric mean of {col} / best peer: {gm_text(t.ratios(col))}.**')
    if t.pick:
        md += [''] + pick_lines(t)
    files = {}
    for s, sc in sets_of(cases):
        st = Table(sc)
        md += ['', f'## {s} ({count(len(sc), "case")})', '']
        md += [f'Geometric mean of {col} / best peer: {gm_text(st.ratios(col))}.' for col in st.ptx_columns] + ['']
        for name, svg in charts(dev, runs, st, s, sc):
            files[name] = svg
            md.append(f'![{s}: % of copy per case and implementation]({name})')
        md += [''] + md_table(st)
        fails = st.failures()
        if fails:
            md += ['', 'Failures:', ''] + [f'- {f}' for f in fails]
    files['side-by-side.md'] = '\n'.join(md) + '\n'
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator='\n')
    w.writerow(['sets'] + t.header)
    for c in cases:
        w.writerow([' '.join(c['sets'])] + t.row(c))
    files['side-by-side.csv'] = buf.getvalue()
    if len(d['text']) == 1:
        files['peers.json'] = d['text'][0]
    else:
        merged = dict(runs[0], cases=cases, merged_from=[r.get('date') for r in runs])
        files['peers.json'] = json.dumps(merged, indent=1) + '\n'
    return files


def write_all(folder, files):
    """Every file written whole (a temporary name, then renamed)."""
    os.makedirs(folder, exist_ok=True)
    for name, text in files.items():
        path = os.path.join(folder, name)
        tmp = f'{path}.tmp.{os.getpid()}'
        with open(tmp, 'w', encoding='utf-8') as f:
            f.write(text)
        os.replace(tmp, path)


def main(argv):
    ap = Parser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', required=True, metavar='DIR', help='results folder: OUT/<device>/ is written')
    ap.add_argument('json', nargs='+', metavar='RESULTS.json')
    a = ap.parse_args(argv)
    try:
        loaded = [load(p) for p in a.json]
    except InputError as e:
        print(f'report.py: {e}', file=sys.stderr)
        return 3
    for dev, d in merge(loaded).items():
        folder = os.path.join(a.out, slug(dev))
        try:
            files = device_files(dev, d)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            print(f"report.py: {', '.join(a.json)}: malformed results for {dev} ({type(e).__name__}: {e})",
                  file=sys.stderr)
            return 3
        try:
            write_all(folder, files)
        except OSError as e:
            print(f'report.py: {folder}: {e.strerror}', file=sys.stderr)
            return 3
        print(f"{dev}: {len(d['cases'])} cases -> {folder}/ ({', '.join(sorted(files))})")
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
