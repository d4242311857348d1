#!/bin/sh
# Shapes, sizes and their checks; the status table; PTX file checks; bench tables (C unit tests).
exec "$(dirname "$0")/lib/unit.sh" shape_unit
