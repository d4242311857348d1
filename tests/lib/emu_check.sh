#!/bin/sh
# Emulate every committed kernel on a list of shapes: `ptxpose check
# --emulate`'s own TAP is the test's. Fails out loud when ptx/ is empty.
#   tests/lib/emu_check.sh PTXPOSE SHAPES
cd "$(dirname "$0")/../.." || exit 1
set -- "$1" "$2" ptx/*.ptx
if [ ! -e "$3" ]; then
	echo "1..1"
	echo "not ok 1 - no PTX files in ptx/ (they are committed: regenerate with ninja ptx)"
	exit 1
fi
px=$1 shapes=$2
shift 2
exec "$px" check --emulate --shapes "$shapes" "$@"
