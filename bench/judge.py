#!/usr/bin/env python3
"""The plan's picks judged against the named sets' targets, from bench/peers.py results (no GPU):

    python3 bench/judge.py RESULTS.json... [--cases] > picks.md

Each case is judged by its set (`small`, `tiny`, `skinny`, `skinny-mid`,
`large`, `holdout`; other sets are left out) on what a user gets: the
library's heuristic plan through the package (`ptxpose-heuristic`), beside
the measured plan (`ptxpose-measured`) and the best kernel timed by name in
the same run. Ratios are to the same run's copy and peers. Targets:

- small, skinny, skinny-mid: the pick >= 1.0x the best peer on every case;
- tiny: >= 90% of the copy and >= 1.0x PyTorch on every case;
- large: >= 95% of the copy on every case;
- holdout: the pick (its kernel's by-name time) within 3% of the best kernel
  on >= 90% of cases, never below 0.85 of it, >= 1.10x the best peer as a
  geometric mean.

Results of several files are merged by case: the first file's figures are
kept, and a kernel timed by name only in a later file's run of the same case
is added, its time scaled by the two runs' copies (the same % of the copy),
with a note saying so. `--merged OUT.json` writes that merge (then
`bench/pick.py OUT.json` adds the current build's pick); `--pick` judges
`ptxpose-pick` (pick.py's: the current build's heuristic plan, with its
kernel's figures from the run) instead of the plan measured in the run.
"""
import argparse
import json
import lzma
import sys

from peers_model import KERNEL_PREFIX, PEERS, geomean, ok_us, open_results, write_results

PICK = 'ptxpose-heuristic'
SETS = ('small', 'tiny', 'skinny', 'skinny-mid', 'large', 'holdout')


def gmean(xs):
    return geomean(xs, float('nan'))


def judge(c):
    """The figures of one case, or None where the copy or the pick did not run."""
    im = c['impls']
    copy, pick = ok_us(im, 'copy'), ok_us(im, PICK)
    if not copy or not pick:
        return None
    peers = {k: ok_us(im, k) for k in PEERS if ok_us(im, k)}
    kern = {k[len(KERNEL_PREFIX):]: ok_us(im, k) for k in im if k.startswith(KERNEL_PREFIX) and ok_us(im, k)}
    best_peer = min(peers, key=peers.get) if peers else None
    best_k = min(kern, key=kern.get) if kern else None
    chosen = im[PICK].get('kernel')
    r = {'case': c['case'], 'sets': c.get('sets', []), 'pct': 100 * copy / pick, 'kernel': chosen,
         'best_peer': best_peer, 'vs_peer': peers[best_peer] / pick if peers else None,
         'vs_torch': peers['torch'] / pick if 'torch' in peers else None,
         'best_kernel': best_k, 'best_kernel_pct': 100 * copy / kern[best_k] if kern else None,
         'measured_pct': 100 * copy / ok_us(im, 'ptxpose-measured') if ok_us(im, 'ptxpose-measured') else None}
    # the pick against the best kernel: its kernel's by-name time, the same run (no noise
    # between two timings of one kernel); the plan's own time where it has no by-name one
    if kern:
        r['regret'] = kern[best_k] / kern.get(chosen, pick)
    return r


def load(paths):
    seen, out = {}, []
    for p in paths:
        d = read(p)
        for c in d['cases']:
            if c['case'] not in seen:
                seen[c['case']] = c
                out.append((d, c))
                continue
            first = seen[c['case']]['impls']
            if ok_us(first, 'copy') and ok_us(c['impls'], 'copy'):
                scale = ok_us(first, 'copy') / ok_us(c['impls'], 'copy')
                for k, v in c['impls'].items():
                    if k.startswith(KERNEL_PREFIX) and k not in first and v.get('status') == 'ok':
                        first[k] = dict(v, us=v['us'] * scale,
                                        note=f"{v.get('note', '')}; timed in {p}'s run, scaled by the copies "
                                        f"of both runs ({scale:.3f})")
    return out


def line(s, rows):
    pct = [r['pct'] for r in rows]
    vp = [r['vs_peer'] for r in rows if r['vs_peer']]
    bk = [r['best_kernel_pct'] for r in rows if r['best_kernel_pct']]
    ms = [r['measured_pct'] for r in rows if r['measured_pct']]
    vs = f"{gmean(vp):.2f}x ({min(vp):.2f}x)" if vp else 'no peer ran'
    head = (f"| {s} | {len(rows)} | {gmean(pct):.1f} ({min(pct):.1f}) | {gmean(ms):.1f} | {gmean(bk):.1f} | "
            f"{vs} | {sum(v >= 1.0 for v in vp)} of {len(vp)} |")
    if s == 'tiny':
        vt = [r['vs_torch'] for r in rows if r['vs_torch']]
        ok = sum(r['pct'] >= 90 and (r['vs_torch'] or 0) >= 1.0 for r in rows)
        vt = f"{gmean(vt):.2f}x, min {min(vt):.2f}x" if vt else 'torch did not run'
        return head + f" >= 90% of copy and >= 1.0x torch: {ok} of {len(rows)} (vs torch {vt}) |"
    if s == 'large':
        return head + f" >= 95% of copy: {sum(p >= 95 for p in pct)} of {len(rows)} |"
    if s == 'holdout':
        rg = [r['regret'] for r in rows if 'regret' in r]
        if not rg:
            return head + ' no kernel timed by name: the pick cannot be judged against the best |'
        return head + (f" pick within 3% of the best kernel: {sum(g >= 0.97 for g in rg)} of {len(rg)} "
                       f"({100 * sum(g >= 0.97 for g in rg) / len(rg):.0f}%), geomean {gmean(rg):.3f}, worst "
                       f"{min(rg):.3f}; vs the best peer {vs} |")
    return head + f" >= 1.0x the best peer: {sum(v >= 1.0 for v in vp)} of {len(vp)} |"


class InputError(Exception):
    """Results that cannot be judged; str() is the one-line message."""


def read(path):
    try:
        with open_results(path) as f:  # .xz and .gz too
            d = json.load(f)
    except OSError as e:
        raise InputError(f'{path}: {e.strerror or e}') from None
    except (EOFError, lzma.LZMAError) as e:
        raise InputError(f'{path}: not readable ({e})') from None
    except ValueError as e:
        raise InputError(f'{path}: not JSON ({e})') from None
    if not isinstance(d, dict) or not isinstance(d.get('cases'), list) or not all(
            isinstance(c, dict) and isinstance(c.get('case'), str) and isinstance(c.get('impls'), dict)
            for c in d['cases']):
        raise InputError(f"{path}: not bench/peers.py results (no list of cases with 'case' and 'impls')")
    return d


def report(cases, show_cases):
    rows, dropped = [], []
    for d, c in cases:
        r = judge(c)
        (rows.append((d, r)) if r else dropped.append(c['case']))
    devs = sorted({f"{d.get('device', {}).get('name', '?')}, {d.get('date', '?')}, ptxpose {d.get('commit', '?')}"
                   for d, _ in rows})
    print('# The sets\' targets: ' + '; '.join(devs) + '\n')
    print(('The pick: the current build\'s heuristic plan (bench/pick.py), its kernel\'s figures from the run.'
           if PICK == 'ptxpose-pick' else 'The pick: the heuristic plan through the package.')
          + ' % of the same-run copy, geomean (min); the measured plan and the best kernel by name, geomean.\n')
    print('| set | cases | pick % of copy | measured plan % | best kernel % | pick vs best peer | '
          'pick >= 1.0x best peer | target |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- |')
    for s in SETS:
        rs = [r for _, r in rows if s in r['sets']]
        if rs:
            print(line(s, rs))
    if dropped:  # a case without figures is no case met
        print(f"\nNot judged ({len(dropped)}: the copy or `{PICK}` did not run): {', '.join(dropped)}")
    if show_cases:
        print('\n```')
        for s in SETS:
            for _, r in rows:
                if s in r['sets'] and r['sets'][0] == s:
                    vp = f"{r['vs_peer']:.2f}x {r['best_peer']}" if r['vs_peer'] else '-'
                    rg = f"{r['regret']:.3f}" if 'regret' in r else '-'
                    print(f"{s:10s} {r['case']:44s} {r['pct']:6.1f}% {r['kernel'] or '-':26s} vs peer {vp:18s} "
                          f"best kernel {r['best_kernel']} {r['best_kernel_pct'] or 0:.1f}% pick/best {rg}")
        print('```')


def main(argv):
    global PICK
    ap = argparse.ArgumentParser(prog='judge.py', description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('results', nargs='+', help='bench/peers.py results (JSON)')
    ap.add_argument('--cases', action='store_true', help='a line per case')
    ap.add_argument('--pick', action='store_true', help="judge bench/pick.py's ptxpose-pick")
    ap.add_argument('--merged', metavar='OUT.json', help='write the merge of the results instead')
    a = ap.parse_args(argv)
    if a.pick:
        PICK = 'ptxpose-pick'
    try:
        cases = load(a.results)
        if not cases:
            raise InputError('no cases in ' + ' '.join(a.results))
        if a.merged:
            d = dict(cases[0][0], cases=[c for _, c in cases], merged_from=a.results)
            d.pop('pick', None)
            try:
                write_results(a.merged, d)  # atomically, compressed where the name ends in .xz or .gz
            except OSError as e:
                raise InputError(f'{a.merged}: {e.strerror}') from None
            print(f'judge.py: {a.merged}: {len(cases)} cases', file=sys.stderr)
            return 0
        report(cases, a.cases)
    except (InputError, AttributeError, KeyError, TypeError, ValueError, ZeroDivisionError) as e:
        print(f'judge.py: {e if isinstance(e, InputError) else "malformed results: " + repr(e)}', file=sys.stderr)
        return 3
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
