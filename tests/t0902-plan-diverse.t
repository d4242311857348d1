#!/bin/sh
# bench/peers_cases.py's diverse case set (the plan's public benchmark):
# seeded and reproducible, 300 distinct cases with the asked-for mix. No GPU.
cd "$(dirname "$0")/.." || exit 1
exec python3 - <<'EOF_PY'
import collections, hashlib, sys
sys.path.insert(0, 'bench')
import peers_cases as pc

n = 0
fails = 0
def ok(cond, what):
    global n, fails
    n += 1
    fails += not cond
    print(f"{'' if cond else 'not '}ok {n} - {what}")

specs = pc.diverse_cases()
cases = pc.expand(['diverse'], [])
ok(specs == pc.SETS['diverse'] == [c.name for c in cases], "--set diverse is diverse_cases(2026), every case valid")
ok(len(cases) == 300 and len(set(specs)) == 300, "300 distinct cases")
# the list itself: a change to the generator changes the benchmark, so it shows here
digest = hashlib.sha256('\n'.join(specs).encode()).hexdigest()[:16]
ok(digest == 'd8e3b1333dbb2b76', f"the seed-2026 list is the committed one (sha256 {digest})")
ok(pc.diverse_cases(7) == [c.name for c in pc.expand(['diverse:7'], [])] and pc.diverse_cases(7) != specs,
   "diverse:7: another seed, another reproducible list")
widths = collections.Counter(c.eb for c in cases)
ok(sorted(widths.items()) == [(1, 60), (2, 60), (4, 60), (8, 60), (16, 60)], f"all five widths, 60 each: {dict(widths)}")
padded = sum(1 for c in cases if c.given['ld_in'])
offset = sum(1 for c in cases if c.offset)
batched = sum(1 for c in cases if c.batched)
ok((padded, offset, batched) == (75, 75, 60), f"a quarter padded, a quarter off alignment, a fifth batched: {padded} {offset} {batched}")
ok(all(1 << 20 <= c.rows * c.cols * c.eb <= 1 << 30 for c in cases), "each matrix 1 MB to 1 GB")
ok(all(c.rows * c.cols * c.eb * c.batch <= 1 << 30 for c in cases), "each batch 1 GB at most")
ok(all(1 <= c.rows <= 1 << 20 and 1 <= c.cols <= 1 << 20 for c in cases), "rows and cols within 1..2^20")
small = sum(1 for c in cases if min(c.rows, c.cols) < 64)
ok(small >= 30, f"skinny shapes among them (a side under 64: {small})")
try:
    pc.expand(['diverse:x'], [])
    ok(False, "diverse:x refused")
except pc.CaseError as e:
    ok('diverse:SEED' in str(e), f"diverse:x refused: {e}")
print(f"1..{n}")
sys.exit(1 if fails else 0)
EOF_PY
