#!/bin/sh
# The PTX builder, the generator's validation and the bank model (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" gen_unit
