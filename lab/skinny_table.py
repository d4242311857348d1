#!/usr/bin/env python3
"""Issue 22 item 3's table from a bench/peers.py results file: per case, the
best of the skinny kernels older than the issue, of the ones it added
(scripts/variants.lua: the first build's kmax 32 and packed ones, then the
_g<granules> winners and the tall packed study ones), of the candidates
(lab/candidates/2026-11-27-skinny-granules.lua, c14_*), of every other ptxpose kernel
timed, and the best peer, as % of the copy; the new and candidate columns
also as a ratio to the old best and to the best peer (above 1: faster).
The register kernels (gen/tp_skinny_reg.c, skinny_*_reg_*, and their
candidates of lab/candidates/2026-11-27-skinny-register.lua, creg_*) come last: their
best, and it as a ratio to the best of the other skinny kernels (old and
new) and to the best peer.

    python3 lab/skinny_table.py RESULTS.json
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'bench'))
from peers_model import KERNEL_PREFIX, PEERS, best_of, geomean, ok_us, open_results  # noqa: E402

NEW = re.compile(r'skinny_(wide|tall)_k(32|32_pack|64_pack|\d+(_pack)?_g\d+)_b(8|16)$')
REG = re.compile(r'(skinny_(wide|tall)_k\d+_reg|creg_(wide|tall)_k\d+_t\d+_r\d+)_b(8|16)$')


def group(kernel):
    if kernel.startswith('c14_'):
        return 'cand'
    if NEW.match(kernel):
        return 'new'
    if REG.match(kernel):
        return 'reg'
    return 'old' if kernel.startswith('skinny_') else 'other'


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.strip())
    try:
        with open_results(argv[1]) as f:
            cases = json.load(f)['cases']
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f'skinny_table.py: {argv[1]}: not a bench/peers.py results file ({type(e).__name__}: {e})', file=sys.stderr)
        return 3
    cols = ('old', 'new', 'cand', 'other')
    ratios = {c: ([], []) for c in ('new', 'cand', 'reg')}
    print('| case | ' + ' | '.join(f'{c} best' for c in cols) + ' | best peer | new/old | new/peer | cand/peer |'
          ' reg best | reg/skinny | reg/peer |')
    print('|' + ' --- |' * (len(cols) + 8))
    for c in cases:
        im = c['impls']
        copy = ok_us(im, 'copy')
        if not copy:
            continue
        best = {g: best_of(im, [n for n in im if n.startswith(KERNEL_PREFIX) and group(n[len(KERNEL_PREFIX):]) == g])
                for g in cols + ('reg',)}
        skinny = best_of(im, [n for n in (best['old'], best['new']) if n])
        peer = best_of(im, PEERS)

        def pct(n):
            return f'{100 * copy / ok_us(im, n):.0f}% {n.replace(KERNEL_PREFIX, "")}' if n else '-'

        def ratio(a, b, keep=None):
            if not (a and b):
                return '-'
            r = ok_us(im, b) / ok_us(im, a)
            if keep is not None:
                keep.append(r)
            return f'{r:.2f}x'
        print(f"| {c['case']} | " + ' | '.join(pct(best[g]) for g in cols) + f' | {pct(peer)} | '
              f"{ratio(best['new'], best['old'], ratios['new'][0])} | "
              f"{ratio(best['new'], peer, ratios['new'][1])} | {ratio(best['cand'], peer, ratios['cand'][1])} | "
              f"{pct(best['reg'])} | {ratio(best['reg'], skinny, ratios['reg'][0])} | "
              f"{ratio(best['reg'], peer, ratios['reg'][1])} |")
    for g, (vs_old, vs_peer) in ratios.items():
        than = 'the best other skinny kernel' if g == 'reg' else 'the old best'
        print(f'\n{g}: geometric mean {geomean(vs_old, 0):.3f}x {than} over {len(vs_old)} cases, '
              f'{geomean(vs_peer, 0):.3f}x the best peer over {len(vs_peer)}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
