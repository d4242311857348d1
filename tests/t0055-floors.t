#!/usr/bin/env python3
# t0055-floors: which folder may include which (docs/DESIGN.md's floors),
# checked over every tracked C and C++ file's `#include "..."` lines:
#   1. loader/ includes only common/ and loader/;
#   2. lib/ includes only common/, loader/, lib/ and include/;
#   3. loader/'s private headers (cu.h, cu_api.h, jit.h, launch.h) and every
#      file of lib/ are included only by lib/, loader/ and the unit tests that
#      test them (UNIT, below, names each); loader/'s format headers (meta.h,
#      pxfile.h, abi.h, status.h) are for anyone, and a tool that needs more
#      of the library than include/ptxpose.h takes include/ptxpose_tools.h;
#   4. gen/, emu/ and inspect/ never include lib/.
# Each violation is printed as FILE:LINE: INCLUDE, and fails its rule.
# An include without a folder ("fake.h") is its own folder's file.
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

LOADER_FORMAT = {'loader/meta.h', 'loader/pxfile.h', 'loader/abi.h', 'loader/status.h'}
# Unit tests of lib/ or loader/ internals, and what they test (only these
# may include a private header; a fuzz target of the public API may not).
UNIT = {
    'tests/unit/live_unit.c': 'lib/api_live.c (the id table, compiled in)',
    'tests/unit/measure_unit.c': 'lib/api_measure.c (the measured plan on a fake clock)',
    'tests/unit/model_unit.c': 'lib/model*.c and lib/pick.c (the cost model and the ranking)',
    'tests/unit/nd_unit.c': 'lib/nd_reduce.c (the N-d reduction and classification)',
    'tests/unit/pack_unit.c': 'lib/nd_pack.c (the pack kernels\' tile of an N-d transpose)',
    'tests/unit/gpu_pack_unit.c': 'loader/launch.c with kernel ABI v4 (the pack kernels launched with their tdims)',
    'fuzz/fuzz_ndspec.c': 'common/ndspec.c and lib/nd_reduce.c (the spec parser, then the reduction of what it parses)',
}
INCLUDE = re.compile(r'^\s*#\s*include\s*["<]([^">]+)[">]')
# the repository's top folders: an <...> include of one of them is the tree's too (the build has -I.)
TOPS = ('common', 'loader', 'lib', 'include', 'gen', 'emu', 'inspect', 'rig', 'cli', 'bench', 'fuzz', 'tests',
        'build', 'examples')


def tracked():
    try:
        out = subprocess.run(['git', 'ls-files'], capture_output=True, text=True, check=True).stdout.split('\n')
    except (OSError, subprocess.CalledProcessError):
        out = [os.path.relpath(os.path.join(d, f)) for d, _, fs in os.walk('.') for f in fs]
    return sorted(f for f in out if re.search(r'\.(c|h|cc|cpp|hpp)$', f) and os.path.isfile(f))


def includes(path):
    """(line number, the included path from the repository root)."""
    with open(path, errors='replace') as f:
        for ln, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            quoted = line.split('include', 1)[1].lstrip().startswith('"')
            if '/' not in inc:  # a neighbour ("tap.h"), or a system header (<stdio.h>)
                if not quoted:
                    continue
                inc = os.path.join(os.path.dirname(path), inc)
            elif inc.startswith('.'):  # relative to the including file ("../lib/api.h"), else to -I.
                near = os.path.relpath(os.path.normpath(os.path.join(os.path.dirname(path), inc)))
                inc = near if os.path.exists(near) else inc
            inc = os.path.normpath(inc)  # "cli/../lib/api.h", "./lib/api.h"
            if quoted or top(inc) in TOPS:
                yield ln, inc


def top(path):
    return path.split('/', 1)[0] if '/' in path else ''


def private(inc):
    return top(inc) == 'lib' or (top(inc) == 'loader' and inc not in LOADER_FORMAT)


RULES = [
    ('loader/ includes only common/ and loader/',
     lambda f, inc: top(f) == 'loader' and top(inc) not in ('common', 'loader')),
    ('lib/ includes only common/, loader/, lib/ and include/',
     lambda f, inc: top(f) == 'lib' and top(inc) not in ('common', 'loader', 'lib', 'include')),
    ("no file outside lib/, loader/ and their unit tests includes a private header of theirs",
     lambda f, inc: top(f) not in ('lib', 'loader') and f not in UNIT and private(inc)),
    ('gen/, emu/ and inspect/ never include lib/',
     lambda f, inc: top(f) in ('gen', 'emu', 'inspect') and top(inc) == 'lib'),
    ('gen/, emu/ and inspect/ include only common/, include/, loader/ and their own folder (not rig/ or cli/)',
     lambda f, inc: top(f) in ('gen', 'emu', 'inspect') and top(inc) not in ('common', 'include', 'loader', top(f))),
    ('common/ includes only common/, include/ (the version numbers) and build/gen/ (the commit)',
     lambda f, inc: top(f) == 'common' and top(inc) not in ('common', 'include') and not inc.startswith('build/gen/')),
]

files = tracked()
edges = [(f, ln, inc) for f in files for ln, inc in includes(f)]
n = 0
failed = 0
n += 1
if len(files) > 100 and len(edges) > 300:
    print(f'ok {n} - {len(files)} C files, {len(edges)} includes')
else:
    print(f'not ok {n} - too few files ({len(files)}) or includes ({len(edges)}) to check')
    failed += 1
for desc, bad in RULES:
    hits = [e for e in edges if bad(e[0], e[2])]
    n += 1
    print(f'{"not ok" if hits else "ok"} {n} - {desc}')
    for f, ln, inc in hits:
        print(f'# {f}:{ln}: {inc}')
        print(f'{f}:{ln}: includes {inc}: {desc}', file=sys.stderr)
    failed += bool(hits)
for f in sorted(UNIT):
    n += 1
    print(f'{"ok" if f in files else "not ok"} {n} - the exempt unit test {f} exists (it tests {UNIT[f]})')
    failed += f not in files
print(f'1..{n}')
sys.exit(1 if failed else 0)
