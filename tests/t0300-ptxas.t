#!/bin/sh
# t0300-ptxas: every committed PTX file assembles with ptxas for sm_80 and
# sm_90 with no stack frame and no spills (a file whose .target is sm_90,
# the stmatrix study kernel's, for sm_90 only, and ptxas refuses it for
# sm_80); `ptxpose list --csv` reports the same registers and zeros as
# ptxas itself (its output, which `list -v` shows, read here).
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh

ptxas=${PTXPOSE_PTXAS:-$(command -v ptxas)}
[ -n "$ptxas" ] || ptxas=/usr/local/cuda/bin/ptxas
if [ ! -x "$ptxas" ]; then
	nok "ptxas not found (PTXPOSE_PTXAS, PATH, /usr/local/cuda/bin): run the README's set-up command"
	finish
fi

set -- ptx/*.ptx
need_ptx "$1"

# One `list -v` an arch assembles every file (as many at a time as there are
# processors) and prints ptxas's own output for each, under a line 'FILE:'.
# This test reads that output itself; one direct ptxas run an arch shows that
# it is ptxas's, as ptxas prints it (but the compile time).
# Each file's name and the sm number of its (first) .target, from one awk:
# a process a file and arch (sed, grep, head) cost more CPU than ptxas's
# smaller runs on this machine.
awk 'FNR == 1 { if (f != "") print f, t; f = FILENAME; t = "" }
	t == "" && /^\.target sm_[0-9]/ { t = $2; sub(/^sm_/, "", t); sub(/[^0-9].*/, "", t) }
	END { if (f != "") print f, t }' "$@" >"$tmp/targets"
[ "$(wc -l <"$tmp/targets")" -eq $# ] || nok "awk read each of the $# files of ptx/"
# sm_90 first: t0600 (started after this, tests/slow-first) finds its
# per-file sm_90 runs in the tools' cache
for arch in sm_90 sm_80; do
	: >"$tmp/files.$arch"
	while read -r f t; do
		if [ -n "$t" ] && [ "$t" -gt "${arch#sm_}" ]; then
			if "$ptxas" -arch="$arch" -o "$tmp/out.cubin" "$f" >"$tmp/log" 2>&1 </dev/null; then
				nok "$f (.target sm_$t) is refused for $arch"
			else
				ok "$f (.target sm_$t) is refused for $arch"
			fi
		else
			echo "$f" >>"$tmp/files.$arch"
		fi
	done <"$tmp/targets"
	check "ptxpose list -v --no-sass --csv --arch $arch (the files it takes)" 0 "$PX" list -v --no-sass --csv \
		--arch "$arch" $(cat "$tmp/files.$arch")
	cp "$tmp/out" "$tmp/list.$arch.csv"
	awk -v d="$tmp/log.$arch" '/^ptx\/.*\.ptx:$/ { n++; f = d "." n; next } f { print > f }' "$tmp/err"
	"$ptxas" -v -arch="$arch" -o "$tmp/out.cubin" "$1" >"$tmp/direct" 2>&1
	if grep -v 'Compile time' "$tmp/direct" >"$tmp/d1" && grep -v 'Compile time' "$tmp/log.$arch.1" >"$tmp/d2" &&
	   diff -u "$tmp/d1" "$tmp/d2" >"$tmp/d"; then ok "$1: list -v shows ptxas's output for $arch as ptxas prints it"
	else nok "$1: list -v shows ptxas's output for $arch as ptxas prints it"; diag <"$tmp/d"; fi
	# every log that is not empty, read by one awk: an error line, the line
	# of zeros, a size that is not zero, the first register count
	i=0 logs=""
	for f in $(cat "$tmp/files.$arch"); do
		i=$((i + 1))
		[ -s "$tmp/log.$arch.$i" ] && logs="$logs $tmp/log.$arch.$i"
	done
	: >"$tmp/sum.$arch"
	[ -z "$logs" ] || awk 'function out() { if (f != "") print f, err, zero, nz, regs }
		FNR == 1 { out(); f = FILENAME; err = zero = nz = 0; regs = "" }
		/^ptxas.*error/ { err = 1 }
		/^ *0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads$/ { zero = 1 }
		/(^|[^0-9])[1-9][0-9]* bytes (stack frame|spill)/ { nz = 1 }
		regs == "" && match($0, /Used [0-9]* registers/) { regs = substr($0, RSTART + 5, RLENGTH - 15) }
		END { out() }' $logs >"$tmp/sum.$arch"
	exec 3<"$tmp/sum.$arch"
	i=0
	for f in $(cat "$tmp/files.$arch"); do
		i=$((i + 1))
		log=$tmp/log.$arch.$i
		err=1
		[ -s "$log" ] && read -r _ err zero nz regs <&3
		if [ "$err" != 0 ]; then
			nok "$f assembles for $arch"
			[ -e "$log" ] && diag <"$log"
			continue
		fi
		if [ "$zero" = 1 ] && [ "$nz" = 0 ]; then
			ok "$f assembles for $arch with 0 bytes stack and 0 bytes spills"
		else
			nok "$f assembles for $arch with 0 bytes stack and 0 bytes spills"
			diag <"$log"
		fi
		[ -z "$regs" ] || echo "$f $regs" >>"$tmp/regs.$arch"
	done
	exec 3<&-
done

# ptxpose's own parse of ptxas -v agrees with ptxas (the files each arch takes)
for arch in sm_80 sm_90; do
	nfiles=$(wc -l <"$tmp/files.$arch")
	rows=$(($(wc -l <"$tmp/list.$arch.csv") - 1))
	if [ "$rows" -eq "$nfiles" ]; then ok "list --csv --arch $arch: one row per file ($rows)"
	else nok "list --csv --arch $arch: one row per file ($rows rows, $nfiles files)"; fi
	# columns: file ... registers(10) smem_bytes(11) stack(12) spill_store(13) spill_load(14)
	awk -F, 'NR > 1 { print $1, $10 }' "$tmp/list.$arch.csv" >"$tmp/ours.$arch"
	if diff -u "$tmp/regs.$arch" "$tmp/ours.$arch" >"$tmp/d"; then ok "list --arch $arch: registers as ptxas reports them"
	else nok "list --arch $arch: registers as ptxas reports them"; diag <"$tmp/d"; fi
	bad=$(awk -F, 'NR > 1 && ($12 != 0 || $13 != 0 || $14 != 0) { print $1 }' "$tmp/list.$arch.csv")
	if [ -z "$bad" ]; then ok "list --arch $arch: 0 stack and 0 spills for every file"
	else nok "list --arch $arch: 0 stack and 0 spills for every file"; echo "$bad" | diag; fi
done

# the kernels built into the library carry ptxas's sm_90 count, taken when
# the library was built (configure.py's kernels rule): the model uses them.
# The plan lists its candidates, which leave out the study kernels (study=1)
# and those of kernel ABI v3 and v4 (abi=3, abi=4: for N-d problems, never a 2-D plan), and the flat
# ones (grid=flat) but for packed batches of small matrices,
# and the row copies (op=copy: never a transpose's candidate); the register
# skinny kernels (fast_k=) are candidates on 16 x 65536 and its transpose
for e in 8 16 32 64 128; do
	"$PX" plan --elem $e --rows 100 --cols 100 --json --features 2>/dev/null
	"$PX" plan --elem $e --rows 3 --cols 3 --batch 1000 --json --features 2>/dev/null
	"$PX" plan --elem $e --rows 16 --cols 65536 --json --features 2>/dev/null
	"$PX" plan --elem $e --rows 65536 --cols 16 --json --features 2>/dev/null
done | python3 -c '
import json, sys
for line in sys.stdin:
    for c in json.loads(line)["cases"][0]["candidates"]:
        f = c["features"]
        print("ptx/%s.ptx %d" % (c["kernel"], f["regs"]) if f["regs_known"] else "ptx/%s.ptx unknown" % c["kernel"])
' | sort -u >"$tmp/builtin"
study=" $(grep -l -e '^// ptxpose .* study=1' -e '^// ptxpose kernel=[a-z_0-9]* abi=[34] ' -e '^// ptxpose .* op=copy ' "$@" |
	tr '\n' ' ')"
awk -v study="$study" 'index(study, " " $1 " ") == 0' "$tmp/regs.sm_90" | sort >"$tmp/regs.sorted"
if diff -u "$tmp/regs.sorted" "$tmp/builtin" >"$tmp/d"; then ok "the built-in kernels' registers are ptxas's for sm_90"
else nok "the built-in kernels' registers are ptxas's for sm_90"; diag <"$tmp/d"; fi
finish
