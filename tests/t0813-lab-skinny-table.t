#!/usr/bin/env python3
# t0813-lab-skinny-table: lab/skinny_table.py, the table of the lab's skinny
# stages (skinny-granules, skinny-register), from hand-made results with known times: each kernel lands in its
# group (older skinny, the kmax 32 and packed ones, the c14_* candidates,
# the others, the register ones last), the ratios are the times' and the geometric means theirs; a
# file that is not results is one line and exit 3.
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, bench_script, finish, ok, scratch  # noqa: E402

tmp = scratch('t0813')


run = bench_script('skinny_table.py', 'lab')


def entry(us):
    return {'status': 'ok', 'us': us}


us = {'copy': 10, 'triton': 20, 'torch': 40, 'ptxpose:skinny_wide_k64_b8': 40, 'ptxpose:skinny_wide_k16_b8': 50,
      'ptxpose:skinny_wide_k32_b8': 25, 'ptxpose:skinny_wide_k32_pack_b8': 16, 'ptxpose:c14_wide_k32_g32_b8': 10,
      'ptxpose:fast_b8': 80, 'ptxpose:skinny_wide_k32_reg_b8': 20, 'ptxpose:skinny_wide_k16_reg_b8': 30}
case = {'case': '24x1048576:u8', 'impls': {n: entry(t) for n, t in us.items()}}
case['impls']['ptxpose:skinny_wide_k64_pack_b8'] = {'status': 'WRONG', 'us': 1}
res = os.path.join(tmp, 'r.json')
with open(res, 'w') as f:
    json.dump({'cases': [case]}, f)
rc, out, err = run(res)
row = [line for line in out.splitlines() if line.startswith('| 24x1048576:u8 ')]
ok(rc == 0 and len(row) == 1, 'a row for the case: exit 0')
cells = [c.strip() for c in row[0].split('|')[1:-1]] if row else []
ok(cells[1:6] == ['25% skinny_wide_k64_b8', '62% skinny_wide_k32_pack_b8', '100% c14_wide_k32_g32_b8',
                  '12% fast_b8', '50% triton'], 'the best of each group, as % of the copy (a WRONG one left out)')
ok(cells[6:9] == ['2.50x', '1.25x', '2.00x'], 'new vs old, new vs the best peer, candidates vs the best peer')
ok(cells[9:12] == ['50% skinny_wide_k32_reg_b8', '0.80x', '1.00x'],
   'the register kernels: their best, vs the best other skinny kernel and the best peer')
ok('new: geometric mean 2.500x the old best over 1 cases, 1.250x the best peer over 1' in out
   and 'reg: geometric mean 0.800x the best other skinny kernel over 1 cases, 1.000x the best peer over 1' in out,
   'the summary lines')
sys.path.insert(0, os.path.join(ROOT, 'lab'))
import skinny_table  # noqa: E402
ok([skinny_table.group(k) for k in ('skinny_wide_k16_pack_g64_b8', 'skinny_tall_k64_g32_b8', 'skinny_tall_k32_pack_b16',
                                 'skinny_tall_k16_b8', 'skinny_wide_k64_b16', 'c14_tall_k16_w16_g64_b8',
                                 'skinny_tall_k64_reg_b8', 'skinny_wide_k16_reg_b16', 'creg_tall_k16_t128_r1_b8')]
   == ['new', 'new', 'new', 'old', 'old', 'cand', 'reg', 'reg', 'reg'], "the committed _g, packed and register kernels, by name, are new or reg")
with open(os.path.join(tmp, 'bad.json'), 'w') as f:
    f.write('[1, 2]')
rc, out, err = run(os.path.join(tmp, 'bad.json'))
ok(rc == 3 and len(err.strip().splitlines()) == 1 and 'not a bench/peers.py results file' in err and not out,
   'a file that is not results: one line, exit 3')
finish()
