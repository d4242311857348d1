#!/bin/sh
# Kernel ABI v4 in the emulator: every committed pack kernel (gen/tp_pack.c)
# on hand-worked N-d permutations (1 to 6 tile dims, 0 to 2 split dims with
# partial last tiles, a tile at the kernel's capacity, pointers off
# alignment, grids capped so blocks walk several tiles), the whole output
# compared with a reference, poison included; v4 without tdims and v3 with
# them refused (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" emu_pack_unit
