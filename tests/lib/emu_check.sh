#!/bin/sh
# Emulate every committed kernel on a list of shapes, or on `check
# --emulate`'s default shapes when none is given: `ptxpose check
# --emulate`'s own TAP is the test's. Fails out loud when ptx/ is empty.
#   tests/lib/emu_check.sh PTXPOSE [SHAPES]
cd "$(dirname "$0")/../.." || exit 1
px=$1 shapes=${2:-}
set -- ptx/*.ptx
if [ ! -e "$1" ]; then
	echo "1..1"
	echo "not ok 1 - no PTX files in ptx/ (they are committed: regenerate with ninja ptx)"
	exit 1
fi
if [ -n "$shapes" ]; then
	exec "$px" check --emulate --shapes "$shapes" "$@"
fi
exec "$px" check --emulate "$@"
