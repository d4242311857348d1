#!/bin/sh
# t0670-tools-limits: a ptxas or cuobjdump that never exits, one that closes
# its output and runs on, one that floods its output and one that writes a
# huge object: `list`, `sass` and `plan --ptxas` stop it after
# $PTXPOSE_TOOL_TIMEOUT seconds or 64 MiB of output (or object), with one
# line and exit 7. Each run is under timeout(1), so a
# regression fails here instead of hanging the suite.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
unset PTXPOSE_TOOL_CACHE # the tools run here every time
need_ptxpose
f=ptx/fast_b32.ptx
need_ptx "$f"

printf '#!/bin/sh\nsleep 600\n' >"$tmp/hang"
printf '#!/bin/sh\nexec >&- 2>&-\nsleep 600\n' >"$tmp/quiet"
printf '#!/bin/sh\nexec yes ptxas-info-ptxas-info-ptxas-info-ptxas-info\n' >"$tmp/flood"
chmod +x "$tmp/hang" "$tmp/quiet" "$tmp/flood"

# limited CMD...: the command under a 60 s guard, with a 1 s tool timeout
limited() { env PTXPOSE_TOOL_TIMEOUT=1 timeout 60 "$@"; }

for tool in hang quiet; do
	case $tool in hang) what="sleeps" ;; *) what="closes its output and sleeps" ;; esac
	check "list, PTXPOSE_PTXAS that $what: exit 7" 7 limited env PTXPOSE_PTXAS="$tmp/$tool" "$PX" list --no-sass "$f"
	one_line "... one line naming the timeout and its variable" "$tool ($tmp/$tool) did not finish within 1 s, stopped (PTXPOSE_TOOL_TIMEOUT=SECONDS"
done
check "sass, PTXPOSE_CUOBJDUMP that hangs: exit 7" 7 limited env PTXPOSE_CUOBJDUMP="$tmp/hang" "$PX" sass "$f"
one_line "... one line" "hang ($tmp/hang) did not finish within 1 s"
check "list, PTXPOSE_CUOBJDUMP that hangs: exit 7" 7 limited env PTXPOSE_CUOBJDUMP="$tmp/hang" "$PX" list "$f"
one_line "... one line" "hang ($tmp/hang) did not finish within 1 s"
check "plan --ptxas, PTXPOSE_PTXAS that hangs: exit 7" 7 limited env PTXPOSE_PTXAS="$tmp/hang" "$PX" plan --ptxas --elem 32 --rows 100 --cols 100
one_line "... one line" "hang ($tmp/hang) did not finish within 1 s"
check "sass, PTXPOSE_PTXAS that floods: exit 7" 7 limited env PTXPOSE_PTXAS="$tmp/flood" "$PX" sass "$f"
one_line "... one line naming the cap" "flood ($tmp/flood) printed more than 64 MiB, stopped"
check "list, PTXPOSE_CUOBJDUMP that floods: exit 7" 7 limited env PTXPOSE_CUOBJDUMP="$tmp/flood" "$PX" list "$f"
one_line "... one line naming the cap" "flood ($tmp/flood) printed more than 64 MiB, stopped"
printf '#!/bin/sh\ntruncate -s 100M "$4" && echo "ptxas info    : Used 1 registers"\n' >"$tmp/bigobj"
chmod +x "$tmp/bigobj"
check "sass, PTXPOSE_PTXAS that writes a 100 MB object: exit 7" 7 limited env PTXPOSE_PTXAS="$tmp/bigobj" "$PX" sass "$f"
one_line "... one line" "ptxas wrote no object: more than 64 MiB"
for bad in 0 -1 1x 86401 ' 5' 99999999999999999999; do
	check "PTXPOSE_TOOL_TIMEOUT='$bad': exit 7" 7 env PTXPOSE_TOOL_TIMEOUT="$bad" timeout 60 "$PX" sass "$f"
	one_line "... one line" "PTXPOSE_TOOL_TIMEOUT=.*: expected seconds from 1 to 86400"
done
check "PTXPOSE_TOOL_TIMEOUT=120 and the real tools: exit 0" 0 env PTXPOSE_TOOL_TIMEOUT=120 timeout 120 "$PX" sass --summary "$f"
finish
