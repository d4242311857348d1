#!/bin/sh
# The N-d permutation problem (lib/nd_reduce.h): its checks, its reduction and
# classification, and the host reference (rig/nd_ref.h) against a naive
# index loop (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" nd_unit
