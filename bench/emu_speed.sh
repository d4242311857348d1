#!/bin/sh
# emu_speed: the emulator's speed, an older commit's beside this tree's, in
# one run on this machine. The workloads are the emulation tests' own:
# `check --emulate` over every committed kernel on the default shapes
# (t0710), on the batches of t0711 and on the small-dimension shapes of
# t0713 (tests/lib/emu_shapes.sh), without the kernels that use
# warp-synchronous instructions (below). The older commit is built from `git
# archive` in a temporary folder (plain build, build/ptxpose only).
#
#   bench/emu_speed.sh [COMMIT]     (default 061975a, before warps)
#
# Prints per workload the instructions emulated (thread instructions, the
# same count for both, and this tree's warp instructions), the CPU seconds
# (user) of each binary, the speed-up, and instructions a second. Needs
# build/ptxpose built, git, ninja and /usr/bin/time (exit 7 without them).
set -u
cd "$(dirname "$0")/.." || exit 1
base=${1:-061975a}
for t in git ninja /usr/bin/time; do
	command -v "$t" >/dev/null 2>&1 || { echo "emu_speed: $t not found" >&2; exit 7; }
done
[ -x build/ptxpose ] || { echo "emu_speed: build/ptxpose not built (run ./build.sh)" >&2; exit 7; }
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/old"
git archive "$base" | tar -x -C "$tmp/old" || { echo "emu_speed: cannot check out $base" >&2; exit 7; }
(cd "$tmp/old" && ninja build/ptxpose >"$tmp/build.log" 2>&1) ||
	{ echo "emu_speed: building $base failed (see ninja's log):" >&2; tail -5 "$tmp/build.log" >&2; exit 7; }
. tests/lib/emu_shapes.sh
# kernels with warp-synchronous instructions are left out on both sides:
# the emulator before warps (061975a) cannot run them
all=$(grep -LE 'ldmatrix|stmatrix|movmatrix|shfl\.|vote\.|activemask|bar\.warp' ptx/*.ptx)
wide=$(grep -l '^// ptxpose skinny=wide ' $all)
tall=$(grep -l '^// ptxpose skinny=tall ' $all)

# run BINARY STATS_FILE ARGS...: the CPU seconds of `check --emulate ARGS`
# (all its checks must pass)
run() {
	px=$1 st=$2
	shift 2
	PTXPOSE_EMU_STATS=$st /usr/bin/time -f %U -o "$tmp/t" "$px" check --emulate "$@" >"$tmp/tap" 2>&1 ||
		{ echo "emu_speed: $px check --emulate failed:" >&2; grep -v '^ok' "$tmp/tap" | head -5 >&2; exit 1; }
	cat "$tmp/t"
}

# workload NAME ARGS...: one line of the table
workload() {
	name=$1
	shift
	rm -f "$tmp/st"
	new=$(run build/ptxpose "$tmp/st" "$@") || exit 1
	old=$(run "$tmp/old/build/ptxpose" /dev/null "$@") || exit 1
	awk -v old="$old" -v new="$new" '{ i += $1; w += $2 } END { print i, w, old, new }' "$tmp/st" |
		tee -a "$tmp/sum" | line "$name"
}

# line NAME < "instr warp old new"
line() {
	awk -v name="$1" '{ i += $1; w += $2; o += $3; n += $4 } END {
		printf "%-6s %14.0f %12.0f %8.2f %8.2f %7.2fx %9.0f %9.0f %9.1f\n", name, i, w, o, n,
			o / n, i / o / 1e6, i / n / 1e6, w / n / 1e6 }'
}

echo "# emulator speed, $(date -u +%Y-%m-%d), $(git describe --always --dirty) against $base, user CPU seconds"
echo "# instr: thread instructions; warp: this tree's warp instructions; M/s: millions a second"
printf "%-6s %14s %12s %8s %8s %8s %9s %9s %9s\n" work instr warp old_s new_s speedup old_M/s new_M/s warp_M/s
workload t0710 $all
workload t0711 --shapes "$EMU_BATCH_SHAPES" $all
workload t0713w --shapes "$EMU_SKINNY_SHAPES,$EMU_SKINNY_WIDE" $wide
workload t0713t --shapes "$EMU_SKINNY_SHAPES,$EMU_SKINNY_TALL" $tall
line total <"$tmp/sum"
