#!/usr/bin/env python3
# t0812-bench-judge: the named sets the plan is judged on (bench/peers_cases.py: small,
# tiny, skinny-mid, large, holdout: sizes, counts, seeds, never overlapping
# the fitted sets) and bench/judge.py, which judges them from results
# without a GPU: hand-made results with known ratios give the expected
# counts per target, the merge adds a kernel timed in a later run scaled by
# the two runs' copies, --pick judges pick.py's entry, and no input is a
# usage error.
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'lib'))
from pytap import ROOT, bench_script, finish, ok, scratch  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, 'bench'))
import peers_cases as pc  # noqa: E402

tmp = scratch('t0812')


run = bench_script('judge.py')


# ---- the sets ------------------------------------------------------------------
small = [pc.parse_case(s) for s in pc.SETS['small']]
ok(len(small) == 50 and all(200 * 1024 <= c.rows * c.cols * c.eb <= 33 * 2**20 for c in small),
   'small: 50 cases, every one 256 KB to 32 MB (rounded sides)')
ok({c.dtype for c in small} == set(pc.WIDTHS) and sum(c.cols == 8 * c.rows for c in small) == 25,
   'small: every width, half of them 1:8 rectangles')
tiny = [pc.parse_case(s) for s in pc.SETS['tiny']]
ok(all(c.batch in (1000, 10000, 100000, 1000000) and c.rows * c.cols * c.batch * c.eb <= 1 << 30 for c in tiny)
   and {(c.rows, c.cols) for c in tiny} == set(pc.TINY), 'tiny: the five shapes, batches 10^3-10^6, 1 GiB at most')
mid = [pc.parse_case(s) for s in pc.SETS['skinny-mid']]
ok(len(mid) == 50 and {min(c.rows, c.cols) for c in mid} == set(pc.SKINNY_MID_K), 'skinny-mid: K 9-48, both ways')
large = [pc.parse_case(s) for s in pc.SETS['large']]
ok(all(c.rows * c.cols >= 8192 * 8192 for c in large), 'large: 8192^2 and up')
hold = pc.SETS['holdout']
ok(len(hold) == 200 and len(set(hold)) == 200 and hold == pc.diverse_cases(pc.HOLDOUT_SEED, 200),
   'holdout: 200 distinct seeded cases, the same every time')
fitted = set(pc.diverse_cases()) | set(pc.diverse_cases(7)) | set(pc.diverse_cases(11))
ok(not fitted & set(hold), 'holdout: none of the diverse cases the H100 model was fitted on (seeds 2026, 7, 11)')

# the harness times a flat kernel by name only where the library ranks it (lib/pick.c's flat_unfit)
import peers_run  # noqa: E402
import re  # noqa: E402
pick_min = re.search(r'#define PICK_FLAT_MIN (\d+)', open(os.path.join(ROOT, 'lib', 'pick.h')).read())
ok(pick_min and int(pick_min.group(1)) == peers_run.FLAT_MIN, 'flat_ranked: the same minimum as lib/pick.h')
fr = peers_run.flat_ranked
res0 = {}
peers_run.note_library(res0, {'version': 'a'}, 'c1', False)
peers_run.note_library(res0, {'version': 'b'}, 'c2', True)
peers_run.note_library(res0, {'version': 'b'}, 'c2', True)
peers_run.note_library(res0, {'version': 'a'}, 'c3', True)
ok(res0 == {'ptxpose': {'version': 'a'}, 'ptxpose_resumed': [{'version': 'b', 'commit': 'c2'}]},
   'a resumed run with another library is added beside the first, once; the first is kept', res0)
ok(fr(pc.Case(3, 3, 'u8', batch=1000), 18) and not fr(pc.Case(3, 3, 'u8', batch=1000), 17),
   'flat_ranked: two matrices to the chunk, not fewer')
ok(not fr(pc.Case(8192, 8192, 'f32'), 4080) and fr(pc.Case(40, 51, 'f32'), 4080),
   'flat_ranked: a large matrix is not ranked, a small single one is')
ok(not fr(pc.Case(3, 3, 'u8', batch=10, ld_in=4), 4080) and not fr(pc.Case(3, 3, 'u8', batch=10, stride_out=10), 4080),
   'flat_ranked: padded rows or matrices are not ranked')


# ---- judge.py on hand-made results ------------------------------------------------------
def impl(us, **kw):
    return dict(status='ok', us=us, **kw)


def case(name, sets, copy, pick, kernel, peers, kernels):
    im = {'copy': impl(copy), 'ptxpose-heuristic': impl(pick, kernel=kernel),
          **{k: impl(v) for k, v in peers.items()}, **{'ptxpose:' + k: impl(v) for k, v in kernels.items()}}
    return {'case': name, 'sets': sets, 'impls': im}


res = {'format': 'ptxpose-peers 1', 'device': {'name': 'Test GPU'}, 'date': 'today', 'commit': 'abc', 'cases': [
    # small: 80% of the copy, the best peer (triton) 10% faster: 0.909x
    case('100x100:f32', ['small'], 8.0, 10.0, 'a_b32', {'triton': 9.09, 'torch': 20.0}, {'a_b32': 10.0, 'b_b32': 9.0}),
    # small: ahead of every peer
    case('200x200:f32', ['small'], 8.0, 9.0, 'a_b32', {'triton': 10.0}, {'a_b32': 9.0}),
    # tiny: 95% of the copy and 1.2x torch: meets both
    case('3x3:f32:batch=1000', ['tiny'], 9.5, 10.0, 'f_b32', {'torch': 12.0}, {'f_b32': 10.0}),
    # tiny: 95% of the copy but below torch
    case('8x8:f32:batch=1000', ['tiny'], 9.5, 10.0, 'f_b32', {'torch': 9.0}, {'f_b32': 10.0}),
    # large: 96% and 94%
    case('8192x8192:u8', ['large'], 96.0, 100.0, 'a_b8', {}, {'a_b8': 100.0}),
    case('16384x16384:u8', ['large'], 94.0, 100.0, 'a_b8', {}, {'a_b8': 100.0}),
    # holdout: pick is the best; pick 2% slower than the best; pick 20% slower
    case('1x2:f32', ['holdout'], 1.0, 1.0, 'a_b32', {'triton': 1.2}, {'a_b32': 1.0, 'b_b32': 1.1}),
    case('1x3:f32', ['holdout'], 1.0, 1.02, 'a_b32', {'triton': 1.2}, {'a_b32': 1.02, 'b_b32': 1.0}),
    case('1x4:f32', ['holdout'], 1.0, 1.25, 'a_b32', {'triton': 1.2}, {'a_b32': 1.25, 'b_b32': 1.0}),
]}
one = os.path.join(tmp, 'one.json')
json.dump(res, open(one, 'w'))
rc, out, err = run(one, '--cases')
rows = {line.split('|')[1].strip(): line for line in out.splitlines() if line.startswith('| ') and '---' not in line}
ok(rc == 0 and 'Test GPU, today, ptxpose abc' in out, 'judge.py: a table, the device, date and commit named', err)
ok('>= 1.0x the best peer: 1 of 2' in rows.get('small', '') and '0.91x' in rows.get('small', ''),
   'small: one case at 1.0x or more; the worst 0.91x the best peer', rows.get('small'))
ok('>= 90% of copy and >= 1.0x torch: 1 of 2' in rows.get('tiny', ''), 'tiny: both conditions counted together',
   rows.get('tiny'))
ok('>= 95% of copy: 1 of 2' in rows.get('large', ''), 'large: 96% counts, 94% does not', rows.get('large'))
ok('within 3% of the best kernel: 2 of 3 (67%)' in rows.get('holdout', '') and 'worst 0.800' in rows.get('holdout', ''),
   'holdout: the pick within 3% of the best kernel on 2 of 3; the worst 1/1.25', rows.get('holdout'))

# the merge: a kernel timed only in a later run, scaled by the copies (same % of the copy)
later = {**res, 'cases': [case('100x100:f32', ['small'], 4.0, 5.0, 'a_b32', {}, {'c_b32': 4.4})]}
two = os.path.join(tmp, 'two.json')
json.dump(later, open(two, 'w'))
merged = os.path.join(tmp, 'all.json')
rc, out, err = run('--merged', merged, one, two)
m = json.load(open(merged)) if rc == 0 else {'cases': []}
c = next((x for x in m['cases'] if x['case'] == '100x100:f32'), {'impls': {}})
e = c['impls'].get('ptxpose:c_b32', {})
ok(rc == 0 and len(m['cases']) == 9 and abs(e.get('us', 0) - 8.8) < 1e-9 and 'scaled by the copies' in e.get('note', ''),
   'merge: c_b32 (4.4 us against a 4.0 us copy) joins the first run as 8.8 us against its 8.0 us copy', err)
ok(c['impls']['ptxpose:a_b32']['us'] == 10.0, "merge: the first run's own figures are kept")

# --pick: pick.py's entry judged instead of the plan measured in the run
for x in res['cases']:
    x['impls']['ptxpose-pick'] = dict(x['impls']['ptxpose:' + next(
        k[8:] for k in x['impls'] if k.startswith('ptxpose:'))], kernel='best')
res['cases'][8]['impls']['ptxpose-pick'] = impl(1.0, kernel='b_b32')
json.dump(res, open(one, 'w'))
rc, out, err = run('--pick', one)
hold_row = next((line for line in out.splitlines() if line.startswith('| holdout')), '')
ok(rc == 0 and 'pick.py' in out and 'within 3% of the best kernel: 3 of 3' in hold_row and 'worst 0.980' in hold_row,
   "--pick: pick.py's kernel judged (1x4 now picks the best; 1x3's pick stays 2% slower, within 3%)", hold_row)

rc, out, err = run()
ok(rc == 2 and 'judge.py' in err, 'no results given: exit 2 and the usage')
rc, out, err = run('--bogus', one)
ok(rc == 2 and 'unrecognized arguments: --bogus' in err, 'an unknown flag: exit 2, named')
bad = {'missing.json': None, 'broken.json': '{', 'list.json': '[]', 'nocase.json': '{"cases": [{"impls": {}}]}',
       'empty.json': '{"cases": []}', 'badimpl.json': '{"cases": [{"case": "1x2:f32", "sets": ["holdout"], "impls": '
       '{"copy": {"status": "ok", "us": "fast"}, "ptxpose-heuristic": {"status": "ok", "us": 1}}}]}'}
want = {'missing.json': 'No such file', 'broken.json': 'not JSON', 'list.json': 'not bench/peers.py results',
        'nocase.json': 'not bench/peers.py results', 'empty.json': 'no cases in', 'badimpl.json': 'malformed results'}
for name, text in bad.items():
    path = os.path.join(tmp, name)
    if text is not None:
        open(path, 'w').write(text)
    rc, out, err = run(path)
    ok(rc == 3 and len(err.strip().splitlines()) == 1 and want[name] in err and 'Traceback' not in err,
       f'{name}: exit 3, one line ({want[name]})', err)
# a case whose pick did not run is said, not dropped silently
nopick = {**res, 'cases': [case('1x5:f32', ['holdout'], 1.0, 1.0, 'a_b32', {}, {'a_b32': 1.0})]}
nopick['cases'][0]['impls']['ptxpose-heuristic'] = {'status': 'error', 'note': 'JitError'}
json.dump(nopick, open(one, 'w'))
rc, out, err = run(one)
ok(rc == 0 and 'Not judged (1: the copy or `ptxpose-heuristic` did not run): 1x5:f32' in out,
   'a case without the pick is listed as not judged', out)
holdout_only = {**res, 'cases': [case('1x6:f32', ['holdout'], 1.0, 1.0, 'a_b32', {'triton': 2.0}, {})]}
json.dump(holdout_only, open(one, 'w'))
rc, out, err = run(one)
ok(rc == 0 and 'no kernel timed by name' in out, 'a holdout without by-name kernels: said, no crash', err)
finish()
