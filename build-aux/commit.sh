#!/bin/sh
# build-aux/commit.sh OUT: write OUT, the header of the commit the binary
# embeds (common/version.c): `git describe --always --dirty` in a git tree,
# else $PTXPOSE_COMMIT, else "unknown"; only [A-Za-z0-9._+-] kept. OUT is
# rewritten only when that changes (the rule restats), and OUT.d names what
# can change it (git's HEAD, index and refs, every tracked file), so that a
# `ninja` with nothing to do runs nothing.
set -eu
out=$1
c=$(git describe --always --dirty 2>/dev/null || printf %s "${PTXPOSE_COMMIT:-unknown}")
c=$(printf %s "$c" | tr -cd 'A-Za-z0-9._+-')
mkdir -p "$(dirname "$out")"
printf '#define PTXPOSE_COMMIT "%s"\n' "${c:-unknown}" >"$out.tmp"
if cmp -s "$out.tmp" "$out"; then rm -f "$out.tmp"; else mv -f "$out.tmp" "$out"; fi
# depfile paths: spaces escaped, missing files left out
dep() { [ -e "$1" ] && printf ' \\\n %s' "$(printf %s "$1" | sed 's/[ #$]/\\&/g')"; return 0; }
{
	printf '%s:' "$out"
	if g=$(git rev-parse --absolute-git-dir 2>/dev/null); then
		common=$(cd "$(git rev-parse --git-common-dir)" && pwd)
		dep "$g/HEAD"
		dep "$g/index"
		dep "$g/logs/HEAD"
		dep "$common/packed-refs"
		dep "$common/refs/tags"
		if ref=$(git symbolic-ref -q HEAD); then dep "$common/$ref"; fi
		# one awk for the tracked files, not a process each (a fresh build waits on this)
		git ls-files | while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done |
			awk '{ gsub(/[ #$]/, "\\\\&"); printf " \\\n %s", $0 }'
	fi
	echo
} >"$out.d"
