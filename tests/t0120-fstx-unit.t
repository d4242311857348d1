#!/bin/sh
# The transactional writer gen uses: plain names only, and all files or none
# when the k-th write or rename fails (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" fstx_unit
