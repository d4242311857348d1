#!/usr/bin/env python3
# t0815-lab-flat-gather-table: lab/flat_gather_table.py, the per-width summary
# of the gathering flat kernels (lab/gpu-session.sh flat-gather), from hand-made results with known
# speeds: the ratios and their geometric means and ranges, the best peer, the
# other flat_g kernels against flat_g_b<w>, the cases a flat_g kernel leads;
# usage and a file that is not results: one line, exit 2 and 3.
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, bench_script, finish, ok, scratch  # noqa: E402

tmp = scratch('t0815')


run = bench_script('flat_gather_table.py', 'lab')


def case(name, pcts):
    return {'case': name, 'elem_bits': 8,
            'impls': {k: {'status': 'ok', 'pct_copy': v} for k, v in pcts.items()}}


cases = [case('3x3:u8:batch=1000', {'ptxpose:flat_g_b8': 80, 'ptxpose:flat_b8': 40, 'ptxpose:flat_s_b8': 20,
                                    'ptxpose:naive_1d_b8': 40, 'torch': 20, 'triton': 40,
                                    'ptxpose:flat_g8_b8': 40}),
         case('8x8:u8:batch=1000', {'ptxpose:flat_g_b8': 50, 'ptxpose:flat_b8': 100, 'ptxpose:flat_s_b8': 10,
                                    'ptxpose:naive_1d_b8': 100, 'torch': 25, 'ptxpose:flat_g8_b8': 50})]
cases[1]['impls']['ptxpose:flat_g4_b8'] = {'status': 'WRONG', 'pct_copy': 500}
res = os.path.join(tmp, 'r.json')
with open(res, 'w') as f:
    json.dump({'device': {'name': 'GPU X'}, 'date': 'D', 'commit': 'C', 'cases': cases}, f)
rc, out, err = run(res)
row = [line for line in out.splitlines() if line.startswith('| 1 B ')]
cells = [c.strip() for c in row[0].split('|')[1:-1]] if row else []
ok(rc == 0 and 'GPU X' in out and len(row) == 1, 'a row for 1-byte elements, the device named: exit 0')
ok(cells[1:3] == ['2', '1.00 (0.50-2.00)'], 'flat_g_b8 against the faster of flat_b8 and flat_s_b8: 2 and 0.5 (%s)' % cells)
ok(cells[3:5] == ['1.00 (0.50-2.00)', '2.00 (2.00-2.00)'], '... against naive_1d and the best peer (%s)' % cells[3:5])
ok(cells[5:7] == ['1', 'flat_g8_b8 0.71 (0.50-1.00)'], '... leads one case; flat_g8_b8 0.5 and 1, WRONG left out (%s)' % cells[5:7])
ok('Cases a flat_g kernel leads: 3x3:u8:batch=1000 flat_g_b8 80%' in out, '... the case it leads, named')
ok('| 2 B ' not in out, 'no row for a width with no flat_g timing')
rc, out, err = run()
ok(rc == 2 and err.count('\n') == 1 and 'usage' in err, 'no file: usage, exit 2')
bad = os.path.join(tmp, 'bad.json')
with open(bad, 'w') as f:
    f.write('{"cases": 3')
rc, out, err = run(bad)
ok(rc == 3 and err.count('\n') == 1 and 'bad.json' in err, 'not JSON: one line, exit 3')
finish()
