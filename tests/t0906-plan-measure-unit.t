#!/bin/sh
# Measured plans and their on-disk cache, against the fake driver: the
# fastest measured candidate wins, the budget, a round trip in a second
# handle, corrupt, truncated and stale entries, the cache switched off, an
# unusable folder (tests/unit/measure_unit.c).
exec "$(dirname "$0")/lib/unit.sh" measure_unit
