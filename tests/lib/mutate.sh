# Mutations of PTX for the emulator's tests (t0720, t0723): sourced.
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
