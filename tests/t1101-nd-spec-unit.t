#!/bin/sh
# N-d permutation specs (common/ndspec.h): D0xD1x...:perm=...[:strides_in=...]
# [:strides_out=...], accepted and refused on one line naming the token, and
# lists of them (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" ndspec_unit
