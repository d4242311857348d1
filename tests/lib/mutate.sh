# Mutations of PTX for the emulator's tests (t0720, t0723, t0724): sourced
# after tests/lib/tap.sh, with $PX the ptxpose to run.
#
# swap_addrs REGEX FILE: FILE with the [address] operands of the first two
# lines matching REGEX (an awk regular expression) whose addresses differ
# swapped ([%a] and [%a+0] are the same address: two branches may store the
# same granule, and swapping those would change nothing).
swap_addrs() {
	MUTATE_RE=$1 awk 'function addr(x, a) { match(x, /\[[^]]*\]/); a = substr(x, RSTART, RLENGTH)
		sub(/\+0\]$/, "]", a); return a }
	{ l[NR] = $0 }
	$0 ~ ENVIRON["MUTATE_RE"] && (n == 0 || (n == 1 && addr($0) != addr(l[at[0]]))) { at[n++] = NR }
	END {
		if (n == 2) {
			match(l[at[0]], /\[[^]]*\]/); a0 = substr(l[at[0]], RSTART, RLENGTH)
			match(l[at[1]], /\[[^]]*\]/); a1 = substr(l[at[1]], RSTART, RLENGTH)
			sub(/\[[^]]*\]/, a1, l[at[0]]); sub(/\[[^]]*\]/, a0, l[at[1]])
		}
		for (i = 1; i <= NR; i++) print l[i]
	}' "$2"
}

# mutant_fails NAME FILE MUTANT SHAPES [8]: ok when MUTANT differs from FILE
# and its emulated check on SHAPES fails with exit 1 and a wrong element
# (with a last argument 8: or with exit 8 and an access out of place); else
# not ok, with the check's output.
mutant_fails() {
	if cmp -s "$2" "$3"; then nok "$(basename "$2") $1: nothing to mutate (update this test)"; return; fi
	timeout 60 $PX check --emulate --shapes "$4" "$3" >"$tmp/mutant.out" 2>&1
	rc=$?
	if [ $rc -eq 1 ] && grep -q "got 0x[0-9a-f]*, want 0x" "$tmp/mutant.out"; then
		ok "$(basename "$2") $1: exit 1, a wrong element"
	elif [ "${5:-}" = 8 ] && [ $rc -eq 8 ] &&
		grep -q "global [a-z]* of [0-9]* bytes at \(in\|out\)+0x" "$tmp/mutant.out"; then
		ok "$(basename "$2") $1: exit 8, an access out of place"
	else
		diag <"$tmp/mutant.out"
		nok "$(basename "$2") $1: exit $rc (want 1${5:+, or 8 for an access out of place})"
	fi
}
