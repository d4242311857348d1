#!/usr/bin/env python3
"""Print a case set of bench/peers_cases.py (permute-tn, permute-random, ...) as
`ptxpose bench --shapes` / `check --shapes` list entries, so that the CLI times
every kernel by name on the same N-d cases the peers harness times through the
plan (bench/gpu-session.sh stage pack). The entries of 2-D cases (DxD:perm=1,0)
are N-d ones too.

    python3 bench/nd_shapes.py permute-tn [permute-random ...]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers_cases  # noqa: E402


def cli_entry(spec):
    """'30x4x57x44:f64:perm=2,1,3,0:offset=1' -> '30x4x57x44:perm=2,1,3,0:elem=f64:offset=1'."""
    parts = spec.split(':')
    dims, dtype, rest = parts[0], parts[1], parts[2:]
    return ':'.join([dims] + rest + [f'elem={dtype}'])


def main(argv):
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out = []
    for name in argv:
        try:
            specs = peers_cases._named(name)
        except peers_cases.CaseError as e:
            print(f'nd_shapes.py: {e}', file=sys.stderr)
            return 2
        out += [cli_entry(spec) for spec in specs if ':perm=' in spec and cli_entry(spec) not in out]
    print(','.join(out))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
