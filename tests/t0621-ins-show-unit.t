#!/bin/sh
# What inspect/ shows: bank-model lines from the generator's numbers, the
# worst access of a kind, JSON string escapes.
exec "$(dirname "$0")/lib/unit.sh" ins_show
