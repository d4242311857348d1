# tap.sh: TAP helpers for the shell tests, sourced from the repository root
# (`. tests/lib/tap.sh`). Sets $PX (the ptxpose under test: $PTXPOSE, else
# the ASan build), $tmp (a fresh folder, removed at exit) and exports
# $PTXPOSE_TOOL_CACHE (build/tool-cache unless set) and PTXPOSE_PROGRESS=0.
#   ok DESC / nok DESC        one TAP line
#   diag <FILE                the file as # diagnostics
#   check DESC CODE CMD...    run CMD (stdout in $tmp/out, stderr in $tmp/err),
#                             ok when it exits with CODE
#   one_line DESC PATTERN     ok when $tmp/err is one line matching PATTERN
#   passthrough FILE          another TAP stream's lines, numbered into ours
#   need_gpu                  print `1..0 # SKIP no CUDA device` and exit where
#                             $PX finds no driver or device (exit 4)
#   need_ptxpose, need_ptx FIRST-FILE, need_sass_tools FILE
#                             fail out loud (and finish) when a prerequisite lacks;
#                             need_sass_tools leaves FILE's summary in
#                             $tmp/sass_summary and the tools used (-v) in
#                             $tmp/sass_tools, for tests to reuse
#   tap_run DESC CMD...       run CMD, which prints TAP: its lines numbered into
#                             ours, then ok when it exits 0 (its stderr as #)
#   finish                    print the plan and exit 1 if anything failed
PX=${PTXPOSE:-build/asan/ptxpose}
# ptxas's and cuobjdump's results, shared by the tests of a run (`ninja test`
# empties it first): a kernel is assembled and disassembled once a run. A
# test of the tools' own limits unsets it.
export PTXPOSE_TOOL_CACHE="${PTXPOSE_TOOL_CACHE-$PWD/build/tool-cache}"
# No progress lines (cli/progress.h): whether a phase prints one hangs on how
# long it took; the tests of those lines unset this.
export PTXPOSE_PROGRESS=0
n=0
fails=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxpose-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
diag() { sed 's/^/# /'; }
finish() { echo "1..$n"; [ "$fails" -eq 0 ]; exit $?; }

check() {
	desc=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		ok "$desc"
	else
		nok "$desc (exit $got, want $want)"
		diag <"$tmp/err"
	fi
}

one_line() {
	if [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -- "$2" "$tmp/err"; then
		ok "$1"
	else
		nok "$1"
		diag <"$tmp/err"
	fi
}

passthrough() {
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "${line#ok * - }" ;;
		"not ok "*) nok "${line#not ok * - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$1"
}

need_gpu() {
	$PX run tests/data/linear_b32.ptx --rows 1 --cols 1 --no-time >/dev/null 2>&1
	if [ $? -eq 4 ]; then
		echo "1..0 # SKIP no CUDA device"
		exit 0
	fi
}

need_ptxpose() {
	[ -x "$PX" ] && return
	nok "$PX is not built: run ninja"
	finish
}

need_ptx() {
	[ -e "$1" ] && return
	nok "ptx/ is empty: no PTX file (run 'ninja ptx')"
	finish
}

need_sass_tools() {
	"$PX" sass -v --summary "$1" >"$tmp/sass_summary" 2>"$tmp/sass_tools"
	[ $? -ne 7 ] && return
	cp "$tmp/sass_tools" "$tmp/err"
	nok "ptxas or cuobjdump missing: $(grep -v '^ptxas: \|^cuobjdump: ' "$tmp/err" | head -1) -- run the README's set-up command (./build.sh test), which installs nvidia-cuda-cuobjdump into .deps/"
	finish
}

tap_run() {
	desc=$1
	shift
	"$@" >"$tmp/tap" 2>"$tmp/err"
	rc=$?
	passthrough "$tmp/tap"
	if [ "$rc" -eq 0 ]; then ok "$desc: exit 0"; else nok "$desc: exit $rc"; diag <"$tmp/err"; fi
}
