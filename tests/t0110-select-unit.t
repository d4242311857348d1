#!/bin/sh
# The selection table's rule: which kernel for which width and shape.
exec "$(dirname "$0")/lib/unit.sh" sel_unit
