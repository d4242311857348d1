#!/bin/sh
# build-aux/ninja.sh TARGET...: ninja TARGET..., run from the repository's
# root, with progress rather than a line a step: build.ninja brought up to
# date first (on a fresh clone ninja regenerates it before anything, and a
# dry run would count that step alone), then, when there are more than 5
# steps, "== building TARGET (N steps)" and a line at each quarter done.
# Everything else ninja prints (a failed command and its output) passes
# through. All on stderr; the exit status is ninja's. ./build.sh and the
# Python package's build backend (python/wheelbuild.py) build through this.
set -u
say() { printf '== %s\n' "$*" >&2; }
out=$(ninja build.ninja 2>&1) || { printf '%s\n' "$out" >&2; exit 1; }
n=$(ninja -n "$@" 2>/dev/null | grep -c '^\[') || n=0
[ "$n" -le 5 ] || say "building $* ($n steps)"
# the steps, numbered [k/N] by ninja, become a line at each quarter of N; the
# pipeline's status is awk's, which exits with ninja's
{
	ninja "$@" 2>&1
	echo "ninja.sh-rc $?"
} | awk -v what="$*" -v quiet="$([ "$n" -le 5 ] && echo 1 || echo 0)" '
/^ninja\.sh-rc [0-9]+$/ { exit $2 }
/^\[[0-9]+\/[0-9]+\] / {
	split(substr($1, 2), kn, "/")
	k = kn[1] + 0; total = kn[2] + 0
	while (!quiet && q < 3 && k * 4 >= (q + 1) * total) {
		q++
		printf "== building %s: %d%% (%d of %d steps)\n", what, q * 25, k, total > "/dev/stderr"
		fflush("/dev/stderr")
	}
	next
}
/^ninja: no work to do/ { next }
{ print > "/dev/stderr"; fflush("/dev/stderr") }
'
