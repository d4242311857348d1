#!/bin/sh
# The plan/cubin cache: folder, round trip, bad files, unusable folders and
# a full disk (write hooks), writers in several processes.
exec "$(dirname "$0")/lib/unit.sh" cache_unit
