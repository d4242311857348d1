#!/bin/sh
# Verification on the host: the random stream, the poison, the reference
# transpose, the bit-exact comparison and its report (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" vfy_unit
