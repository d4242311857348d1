#!/usr/bin/env python3
"""Put the generator's bank-conflict model beside ncu's hardware counts.

    python3 bench/bankcheck.py --ncu DIR/ncu.csv --rows 4096 --cols 4096 [--device NAME] [--date D] > OUT.md

The model lines (`// ptxpose-smem ... requests=R total=W ideal=I`) give, per
block, the shared-memory wavefronts of the stores and the loads; at a shape
where every tile is interior, the whole launch needs W x blocks wavefronts,
of which (W - R*I) x blocks are conflicts. ncu counts both per launch.
"""
import argparse, csv, re, sys

M = {'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum': ('ld', 'conflicts'),
     'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum': ('st', 'conflicts'),
     'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum': ('ld', 'wavefronts'),
     'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum': ('st', 'wavefronts')}


def model(path):
    text = open(path).read()
    tile = re.search(r'tile=(\d+)x(\d+)', text)
    acc = {}
    for m in re.finditer(r'// ptxpose-smem id=\S+ op=(ld|st) bytes=(\d+) wavefronts=(\d+) ideal=(\d+) '
                         r'requests=(\d+) total=(\d+)', text):
        op, b, w, i, r, t = m.groups()
        acc[op] = dict(bytes=int(b), worst=int(w), ideal=int(i), requests=int(r), total=int(t))
    return (int(tile.group(1)), int(tile.group(2))), acc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ncu', required=True)
    ap.add_argument('--ptx', default='ptx')
    ap.add_argument('--rows', type=int, default=4096)
    ap.add_argument('--cols', type=int, default=4096)
    ap.add_argument('--device', default='?')
    ap.add_argument('--date', default='?')
    a = ap.parse_args()
    got = {}
    for row in csv.reader(open(a.ncu)):
        if len(row) < 15 or row[12] not in M:
            continue
        op, what = M[row[12]]
        got.setdefault(row[4], {})[(op, what)] = int(row[14].replace(',', ''))
    print(f'# Shared-memory bank conflicts: the model against ncu\n')
    print(f'- device: {a.device}; date: {a.date}; shape {a.rows}x{a.cols} (every tile interior)')
    print('- ncu --clock-control none, metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum '
          'and l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum, one launch')
    print('- model: the `// ptxpose-smem` lines of each file (wavefronts per warp request, worst / ideal; '
          'wavefronts per launch = total per block x blocks)\n')
    print('| kernel | op | bytes | model worst/ideal | model wavefronts | ncu wavefronts | model conflicts | ncu conflicts | agree |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    bad = 0
    for k in sorted(got):
        (tm, tn), acc = model(f'{a.ptx}/{k}.ptx')
        blocks = -(-a.rows // tm) * -(-a.cols // tn)
        for op in ('st', 'ld'):
            if op not in acc:
                continue
            m = acc[op]
            mw = m['total'] * blocks
            mc = (m['total'] - m['requests'] * m['ideal']) * blocks
            nw = got[k].get((op, 'wavefronts'))
            nc = got[k].get((op, 'conflicts'))
            # Agreement: wavefronts within 5% plus a few per block. ncu counts one to
            # three extra "conflict" wavefronts per block on every kernel,
            # conflict-free or not (see the note printed below); with 8 requests a
            # block (julia_16x16) that alone is about 19%.
            slack = 0.05 * mw + 3 * blocks
            ok = nw is not None and abs(nw - mw) <= slack and ((mc == 0) == (nc <= slack))
            bad += not ok
            print(f"| {k} | {op} | {m['bytes']} | {m['worst']}/{m['ideal']} | {mw:,} | {nw:,} | {mc:,} | {nc:,} | "
                  f"{'yes' if ok else '**no**'} |")
    print(f'\n{bad} disagreement(s).\n')
    print('Every conflict-free kernel still shows a small ncu conflict count: about one to three wavefronts '
          'per block, whatever the pattern (cute_padded_b32: 0.9 per block; fast_b128: 2.3; julia_16x16_b32: '
          '1.5, which is 19% of its 8 load requests per block). The count does not grow with the requests a '
          'block makes, so it is a fixed cost per block in the counter, not a bank conflict of the access '
          'pattern; agreement allows 5% plus 3 wavefronts a block.')


if __name__ == '__main__':
    sys.exit(main())
