#!/bin/sh
# The one reader of input files (FIFOs, devices, folders and oversized files
# refused), the all-or-nothing writer, escaping (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" fsio_unit
