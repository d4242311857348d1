"""python -m ptxpose --version | --kernels | --device: what the package loaded."""
from __future__ import annotations

import argparse
import sys
from typing import List, Optional

import ptxpose


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog='python -m ptxpose', description=__doc__.split(':')[0])
    ap.add_argument('--version', action='store_true', help="the library's version, commit and path")
    ap.add_argument('--kernels', action='store_true', help='the kernels the library holds')
    ap.add_argument('--device', action='store_true', help='the device (needs a driver and a GPU)')
    a = ap.parse_args(argv)
    try:
        if a.version or not (a.kernels or a.device):
            where = ptxpose.library_path()
            print(f'ptxpose {ptxpose.version()}, library {where} ({where.source})')
        if a.device:
            d = ptxpose.device()
            print(f'{d.name}, sm_{d.cc[0]}{d.cc[1]}, {d.sm_count} SMs, driver {d.driver_version}')
        if a.kernels:
            for k in ptxpose.kernels():
                print(f'{k.name} elem={8 * k.elem_bytes} regs={k.regs} ({k.source})')
    except ptxpose.LibraryNotFound as e:
        print(f'python -m ptxpose: {e.message}', file=sys.stderr)
        return 7
    except ptxpose.Error as e:
        print(f'python -m ptxpose: {e.message}', file=sys.stderr)
        return 4 if e.status in (4, 5) else 5
    return 0


if __name__ == '__main__':
    sys.exit(main())
