#!/usr/bin/env python3
# t0814-lab-candidates-page: lab/candidates_page.py, the one page of a
# candidates run (lab/gpu-session.sh small-grids), on hand-made results with known ratios: the
# candidates by prefix against the best committed kernel and Triton per case
# and per width, the check TAP's counts, ncu's counters per byte (values with
# thousands separators), --top and --triton-config for the stage's next
# steps, and its errors (usage 2, unreadable input 3). No GPU.
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, bench_script, finish, ok, scratch  # noqa: E402

tmp = scratch('t0814')


run = bench_script('candidates_page.py', 'lab')


def impl(us, **kw):
    return dict(status='ok', us=us, **kw)


def case(name, bits, copy, kernels, triton=None):
    im = {'copy': impl(copy), **{'ptxpose:' + k: impl(v) for k, v in kernels.items()}}
    if triton:
        im['triton'] = impl(triton[0], note=f'best of 6: {triton[1]}')
    return {'case': name, 'sets': ['small'], 'elem_bits': bits, 'impls': im}


res = {'format': 'ptxpose-peers 1', 'device': {'name': 'Test GPU'}, 'date': 'today', 'commit': 'abc', 'cases': [
    # the best committed kernel 10 us; candidate a 8 us (1.25x it, 1.5x Triton), b 12.5 us (0.8x)
    case('256x256:f32', 32, 8.0, {'fast_b32': 10.0, 'narrow_b32': 11.0, 'r14s_a_b32': 8.0, 'r14s_b_b32': 12.5},
         (12.0, '32x32/w4')),
    # a 1.02x the best committed (not a win: 3% or less), b 0.5x
    case('512x512:f32', 32, 8.0, {'fast_b32': 10.2, 'r14s_a_b32': 10.0, 'r14s_b_b32': 20.4}, (10.0, '64x64/w8')),
    case('8192x8192:u8', 8, 90.0, {'fast_b8': 100.0, 'r14l_c_b8': 95.0, 'r14l_d_b8': 99.0}),
    case('failed:u8', 8, 1.0, {}),
    # a width without candidates: its committed kernel's figure still shows
    case('16384x16384:f16', 16, 97.0, {'fast_b16': 100.0}),
]}
res['cases'][3]['impls']['ptxpose:r14l_c_b8'] = {'status': 'WRONG', 'note': 'x'}
one = os.path.join(tmp, 'one.json')
json.dump(res, open(one, 'w'))
tap = os.path.join(tmp, 'check.tap')
open(tap, 'w').write('1..3\nok 1 - r14s_a_b32 1x1\nok 2 - r14s_a_b32 3x4 # SKIP why\n'
                     'not ok 3 - r14s_b_b32 31x33\n# out[0][1]: got 0x1, want 0x2\n')
head = '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size",' \
       '"Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n'


def metric(name, unit, value):
    return f'"0","1","ptxpose","h","k","1","7","(64, 1, 1)","(128, 128, 1)","0","9.0","Command line profiler ' \
           f'metrics","{name}","{unit}","{value}"\n'


# 16384^2 bytes: 268,435,456 read and as many written = 8,388,608 ideal sectors a side
ncu = os.path.join(tmp, 'fast_b8@16384x16384:u8.csv')
open(ncu, 'w').write('==PROF== Connected\n' + head + metric('dram__sectors_read.sum', 'sector', '8,808,038')
                     + metric('dram__sectors_write.sum', 'sector', '9,227,469')
                     + metric('smsp__inst_executed.sum', 'inst', '52,428,800')
                     + metric('gpu__time_duration.sum', 'ns', '150,000')
                     + metric('launch__registers_per_thread', 'register/thread', '160'))

# the same counters as ncu writes them without --print-units base
ncu2 = os.path.join(tmp, 'fast_v8_b8@16384x16384:u8.csv')
open(ncu2, 'w').write(head + metric('dram__sectors_read.sum', 'Msector', '8.81')
                      + metric('gpu__time_duration.sum', 'usecond', '150.00'))

rc, out, err = run('--prefix', 'r14s_', '--prefix', 'r14l_', '--check', tap, '--ncu', ncu, '--ncu', ncu2, one)
ok(rc == 0 and '# Tuning round' in out and 'Test GPU' in out, 'a page from results, checks and ncu', err)
ok('| 256x256:f32 | fast_b32 80.0 | 66.7 | r14s_a_b32 100.0 | 1.250 | 1.500 |' in out,
   'per case: the best committed kernel and Triton (% of copy), the best candidate and its ratios', out)
ok('| r14s_a_b32 | 2 | 89.4 | 1.129 | 1 | 1.020 | 1.225 |' in out,
   'per width: geomeans over both cases, one win (1.02x is no win), the worst ratio', out)
ok('| r14s_b_b32 | 2 | 50.1 | 0.632 | 0 | 0.500 | 0.686 |' in out, 'the other candidate, sorted after', out)
ok('| r14s_b_b32 | 2 |' in out and -1 < out.find('| r14s_a_b32 | 2 |') < out.index('| r14s_b_b32 | 2 |'),
   'candidates sorted by their ratio')
ok('| r14l_c_b8 | 8192x8192:u8 | 94.7 | 1.053 | - |' in out, 'no Triton: a dash; a WRONG entry is left out', out)
ok('| failed:u8 | - | - | - | - | - |' in out, 'a case with no kernel timed: dashes')
ok('### 16-bit elements: 1 cases' in out and '| 16384x16384:f16 | fast_b16 97.0 | - | - | - | - |' in out,
   'a width without candidates: its cases with the best committed kernel', out)
ok('check.tap: 1 ok, 1 skipped, 1 not ok' in out and '  - not ok 3 - r14s_b_b32 31x33' in out,
   'the check: counts and the line that failed', out)
ok('| fast_b8 | 16384x16384:u8 | 150.0 | 1.050 | 1.100 | - | - | - | - | 100.00 | - | - | 160 |' in out,
   'ncu: us, DRAM sectors per ideal, warp instructions per KB moved, registers', out)
ok('| fast_v8_b8 | 16384x16384:u8 | 150.0 | 1.050 | - |' in out, 'ncu: prefixed units (Msector, usecond) scaled', out)

ok('| fast_b8 | 8192x8192:u8' not in out, 'committed kernels are not listed among the candidates')
rc, out, err = run('--prefix', 'r14l_', '--show', 'fast_b8', one)
ok(rc == 0 and '| fast_b8 | 8192x8192:u8 | 90.0 | 1.000 | - |' in out
   and -1 < out.find('| r14l_d_b8 | 8192x8192:u8') < out.index('| fast_b8 | 8192x8192:u8'),
   '--show: a committed kernel beside the candidates, fastest first', out)
rc, out, err = run('--top', '2', '--case', '256x256:f32', one)
ok(rc == 0 and out.split() == ['r14s_a_b32', 'fast_b32'], '--top: the fastest kernels of a case', out + err)
rc, out, err = run('--top', '5', '--case', '8192x8192:u8', '--prefix', 'r14l_', one)
ok(rc == 0 and out.split() == ['r14l_c_b8', 'r14l_d_b8'], '--top --prefix: the candidates only', out + err)
rc, out, err = run('--triton-config', '512x512:f32', one)
ok(rc == 0 and out.strip() == '64x64/w8', "--triton-config: Triton's winning config", out + err)
rc, out, err = run('--triton-config', '8192x8192:u8', one)
ok(rc == 0 and out == '', '--triton-config: nothing where Triton did not run', out + err)
rc, out, err = run('--top', '1', '--case', 'nope:f32', one)
ok(rc == 0 and out == '', '--top: nothing for a case not in the results')

dest = os.path.join(tmp, 'page.md')
rc, out, err = run('--prefix', 'r14s_', '--out', dest, one)
ok(rc == 0 and out == '' and open(dest).read().startswith('# Tuning round'), '--out writes the page', err)
rc, out, err = run('--top', '1', one)
ok(rc == 2 and err.count('\n') == 1 and '--case' in err, 'usage: --top without --case, one line, exit 2', err)
rc, out, err = run(os.path.join(tmp, 'missing.json'))
ok(rc == 3 and 'missing.json' in err and err.count('\n') == 1, 'an unreadable results file: one line, exit 3', err)
rc, out, err = run('--check', os.path.join(tmp, 'none.tap'), one)
ok(rc == 3 and 'none.tap' in err, 'an unreadable TAP file: exit 3', err)
rc, out, err = run('--out', os.path.join(tmp, 'nodir', 'x.md'), one)
ok(rc == 3 and 'x.md' in err and err.count('\n') == 1, 'an --out that cannot be written: one line, exit 3', err)
finish()
