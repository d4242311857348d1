#!/usr/bin/env python3
"""Turn one GPU call's results into the committed side-by-side report.

    python3 bench/report.py --bench DIR/bench.csv --peers DIR/peers.json --out bench/results

Reads the `ptxpose bench` CSV (our kernels, the copy and cuBLAS geam, timed in
one process) and the JSON of ../shared/peers/peers.py (PyTorch, CuPy, cuBLAS,
Triton, each against its own copy, run in the same call), and writes:
  side-by-side.md  every case: copy GB/s, our best kernel, each peer, all as % of copy
  side-by-side.svg the same as a bar chart
  select.tsv       the fastest verified kernel per (width, shape): the selection table
Percentages are each implementation's bandwidth over the copy measured in its own run.
"""
import argparse, csv, json, os, sys

DTYPE_BITS = {'u8': 8, 'f16': 16, 'bf16': 16, 'f32': 32, 'f64': 64, 'c64': 64, 'c128': 128}
PEERS = ['torch', 'cupy', 'cublas_geam', 'triton']


def read_bench(path):
    meta, rows = {}, []
    with open(path) as f:
        lines = []
        for line in f:
            if line.startswith('#'):
                k, _, v = line[1:].strip().partition(':')
                meta[k.strip()] = v.strip()
            else:
                lines.append(line)
    for r in csv.DictReader(lines):
        rows.append(r)
    return meta, rows


def cases_of(rows):
    cases = {}
    for r in rows:
        if int(r['ld_in']) != int(r['cols']) or int(r['ld_out']) != int(r['rows']):
            continue
        key = (int(r['elem']), int(r['rows']), int(r['cols']))
        cases.setdefault(key, []).append(r)
    return cases


def peer_cases(path):
    if not path or not os.path.exists(path):
        return {}, None
    j = json.load(open(path))
    out = {}
    for name, res in j['cases'].items():
        shape, dt = name.split(':')
        rr, cc = (int(v) for v in shape.lower().split('x'))
        out.setdefault((DTYPE_BITS[dt], rr, cc), {})[dt] = res
    return out, j.get('device')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bench', required=True)
    ap.add_argument('--peers')
    ap.add_argument('--out', required=True)
    ap.add_argument('--commit', help='the commit measured, where the bench could not ask git')
    a = ap.parse_args()
    meta, rows = read_bench(a.bench)
    if a.commit and meta.get('commit', 'unknown') == 'unknown':
        meta['commit'] = a.commit
    cases = cases_of(rows)
    peers, peer_dev = peer_cases(a.peers)
    os.makedirs(a.out, exist_ok=True)
    md, sel, bars = [], [], []
    md.append('# ptxpose against the alternatives, side by side\n')
    md.append(f"- device: {meta.get('device', '?')}; driver {meta.get('driver', '?')}; "
              f"{meta.get('date', '?')}; commit {meta.get('commit', '?')}")
    md.append(f"- peers (PyTorch, CuPy, cuBLAS via CuPy, Triton) from ../shared/peers/peers.py in the same "
              f"call{' on ' + peer_dev if peer_dev else ''}, each against the copy of its own run")
    md.append(f"- ours: {meta.get('timing', '')}")
    md.append('- cells are % of a device-to-device copy of the same bytes; "ptxpose best" is the fastest '
              'verified kernel of ptx/ for the case\n')
    md.append('| width | shape | copy GB/s | ptxpose best | % | cuBLAS geam (ours) | PyTorch | CuPy | cuBLAS geam (peers) | Triton | best peer | ours / best peer |')
    md.append('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    for key in sorted(cases):
        elem, r, c = key
        rs = cases[key]
        copy = next((x for x in rs if x['variant'] == 'copy'), None)
        ours = [x for x in rs if x['variant'] not in ('copy', 'cublas_geam') and x['status'] == 'ok']
        if not ours or not copy:
            continue
        best = max(ours, key=lambda x: float(x['pct_copy']))
        geam = next((x for x in rs if x['variant'] == 'cublas_geam' and x['status'] == 'ok'), None)
        sel.append(f"{elem} {r} {c} {best['variant']} {float(best['pct_copy']):.1f}")
        pc = {}
        for dt, res in sorted(peers.get(key, {}).items()):
            for p in PEERS:
                if p in res:
                    v = res[p]['pct_of_copy']
                    if p not in pc or v > pc[p][0]:
                        pc[p] = (v, dt)
        if geam:
            pc['cublas_ours'] = (float(geam['pct_copy']), 'ours')
        best_peer = max((v[0] for v in pc.values()), default=None)
        cell = lambda p: f"{pc[p][0]:.1f}" if p in pc else '—'
        ratio = f"{float(best['pct_copy']) / best_peer:.2f}x" if best_peer else '—'
        md.append(f"| {elem} | {r}x{c} | {float(copy['gbps']):.0f} | {best['variant']} | "
                  f"{float(best['pct_copy']):.1f} | {float(geam['pct_copy']):.1f} | " if geam else
                  f"| {elem} | {r}x{c} | {float(copy['gbps']):.0f} | {best['variant']} | "
                  f"{float(best['pct_copy']):.1f} | — | ")
        md[-1] += ' | '.join(cell(p) for p in PEERS) + f" | {best_peer if best_peer else '—'} | {ratio} |"
        bars.append((f"b{elem} {r}x{c}", float(best['pct_copy']), {p: pc[p][0] for p in pc if p in PEERS}))
    with open(os.path.join(a.out, 'side-by-side.md'), 'w') as f:
        f.write('\n'.join(md) + '\n')
    with open(os.path.join(a.out, 'select.tsv'), 'w') as f:
        f.write(f"# ptxpose selection table: the fastest verified kernel per width and shape\n"
                f"# measured on {meta.get('device', '?')}, {meta.get('date', '?')}, commit {meta.get('commit', '?')}\n"
                f"# elem rows cols kernel pct_of_copy\n")
        f.write('\n'.join(sel) + '\n')
    write_svg(os.path.join(a.out, 'side-by-side.svg'), bars, meta)
    write_headline(os.path.join(a.out, 'headline.md'), cases, peers)
    print(f"{len(sel)} cases -> {a.out}/side-by-side.md, side-by-side.svg, select.tsv")


def write_headline(path, cases, peers):
    """Four shapes per width: our best against the best alternative of the call."""
    out = ['| width | shape | ptxpose (kernel) | best alternative | ratio |', '| --- | --- | --- | --- | --- |']
    for elem in (8, 16, 32, 64, 128):
        for r, c in ((16384, 16384), (8191, 8193), (4096, 4096), (2048, 2048)):
            rs = cases.get((elem, r, c))
            if not rs:
                continue
            ours = [x for x in rs if x['variant'] not in ('copy', 'cublas_geam') and x['status'] == 'ok']
            best = max(ours, key=lambda x: float(x['pct_copy']))
            alts = {}
            for res in peers.get((elem, r, c), {}).values():
                for p in PEERS:
                    if p in res:
                        alts[p] = max(alts.get(p, 0), res[p]['pct_of_copy'])
            for x in rs:
                if x['variant'] == 'cublas_geam' and x['status'] == 'ok':
                    alts['cuBLAS geam (our run)'] = float(x['pct_copy'])
            if not alts:
                continue
            name = max(alts, key=alts.get)
            b = float(best['pct_copy'])
            out.append(f"| {elem} | {r}x{c} | {b:.1f}% ({best['variant']}) | {alts[name]:.1f}% ({name}) | "
                       f"{b / alts[name]:.2f}x |")
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


def write_svg(path, bars, meta):
    colors = {'ptxpose': '#1b7837', 'torch': '#b2182b', 'cupy': '#ef8a62', 'cublas_geam': '#2166ac', 'triton': '#762a83'}
    names = ['ptxpose'] + PEERS
    bw, gap, left, top, h = 7, 12, 60, 40, 260
    width = left + len(bars) * (len(names) * bw + gap) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{top + h + 150}" font-family="sans-serif" font-size="10">',
           f'<text x="{left}" y="16" font-size="13">Transpose bandwidth as % of a same-run device-to-device copy — '
           f'{meta.get("device", "?")}, {meta.get("date", "?")[:10]}</text>']
    for pct in range(0, 121, 20):
        y = top + h - h * pct / 120
        out.append(f'<line x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{y + 3:.1f}" text-anchor="end">{pct}%</text>')
    y100 = top + h - h * 100 / 120
    out.append(f'<line x1="{left}" x2="{width - 10}" y1="{y100:.1f}" y2="{y100:.1f}" stroke="#888" stroke-dasharray="4 2"/>')
    x = left + gap / 2
    for label, ours, pc in bars:
        for i, n in enumerate(names):
            v = ours if n == 'ptxpose' else pc.get(n)
            if v is not None:
                bh = h * min(v, 120) / 120
                out.append(f'<rect x="{x + i * bw:.1f}" y="{top + h - bh:.1f}" width="{bw - 1}" height="{bh:.1f}" '
                           f'fill="{colors[n]}"><title>{n} {label}: {v:.1f}%</title></rect>')
        cx = x + len(names) * bw / 2
        out.append(f'<text transform="translate({cx:.1f},{top + h + 8}) rotate(60)">{label}</text>')
        x += len(names) * bw + gap
    for i, n in enumerate(names):
        out.append(f'<rect x="{left + i * 110}" y="{top + h + 120}" width="10" height="10" fill="{colors[n]}"/>'
                   f'<text x="{left + i * 110 + 14}" y="{top + h + 129}">{"ptxpose (best)" if n == "ptxpose" else n}</text>')
    out.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    sys.exit(main())
