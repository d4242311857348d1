#!/bin/sh
# The cost model: problem checks, parameter files, features, ranking.
exec "$(dirname "$0")/lib/unit.sh" model_unit
