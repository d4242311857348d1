#!/usr/bin/env python3
"""Summarize a peers.json of N-d cases (bench/peers.py --set permute-*): per
set, ptxpose's pick (`ptxpose-heuristic`: the library's plan through the
package) as % of the same-run copy and against the best peer (torch, CuPy,
cuTENSOR; cuBLAS and Triton where they apply), then one line a case.

    python3 lab/permute_summary.py peers.json [--cases] > summary.md

Ratios come from each case's own run (peers_model.fill_derived); a set's
figures are geometric means over its cases that ptxpose and at least one
peer ran."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'bench'))
from peers_model import PEERS, geomean, open_results  # noqa: E402



def gmean(xs):
    return geomean(xs, float('nan'))


def case_row(c):
    im = c['impls']
    px = im.get('ptxpose-heuristic', {})
    if px.get('status') != 'ok' or im.get('copy', {}).get('status') != 'ok':
        return None
    peers = {k: im[k]['us'] for k in PEERS if im.get(k, {}).get('status') == 'ok'}
    if not peers:
        return None
    best = min(peers, key=peers.get)
    ct = im.get('cutensor', {})
    return {'case': c['case'], 'sets': c.get('sets', []), 'pct': 100.0 * im['copy']['us'] / px['us'],
            'vs': peers[best] / px['us'], 'best': best,
            'ct_pct': 100.0 * im['copy']['us'] / ct['us'] if ct.get('status') == 'ok' else None}


def main(argv):
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open_results(argv[0]) as f:
        d = json.load(f)
    rows = [r for r in (case_row(c) for c in d['cases']) if r]
    sets = []
    for r in rows:
        for s in r['sets']:
            if s not in sets:
                sets.append(s)
    dev = d.get('device', {})
    print(f"# {dev.get('name', '?') if isinstance(dev, dict) else dev}, {d.get('date', '?')}, ptxpose {d.get('commit', '?')}\n")
    print('| set | cases | % of copy, geomean (min) | vs the best peer, geomean (min) | below 1.0x | cuTENSOR % of copy, geomean |')
    print('| --- | --- | --- | --- | --- | --- |')
    for s in sets:
        rs = [r for r in rows if s in r['sets']]
        pct = [r['pct'] for r in rs]
        vs = [r['vs'] for r in rs]
        ct = [r['ct_pct'] for r in rs if r['ct_pct']]
        print(f"| {s} | {len(rs)} | {gmean(pct):.1f} ({min(pct):.1f}) | {gmean(vs):.2f}x ({min(vs):.2f}x) | "
              f"{sum(v < 1.0 for v in vs)} | {gmean(ct):.1f} ({len(ct)} cases) |" if ct else
              f"| {s} | {len(rs)} | {gmean(pct):.1f} ({min(pct):.1f}) | {gmean(vs):.2f}x ({min(vs):.2f}x) | "
              f"{sum(v < 1.0 for v in vs)} | - |")
    if '--cases' in argv:
        print('\n```')
        for r in rows:
            ct = f"cutensor {r['ct_pct']:.1f}" if r['ct_pct'] else 'cutensor -'
            print(f"{r['case']:46s} {r['pct']:6.1f}%  vs best {r['vs']:.2f}x ({r['best']}; {ct})")
        print('```')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
