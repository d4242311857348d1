#!/bin/sh
# ptxpose away from its repository: a copy of the binary in a folder of its
# own, run from / with a PATH that has no CUDA tools. Its kernels are built
# in (list, plan, run --emulate, sass VARIANT need no ptx/), and cuobjdump is
# found beside the binary, or in PREFIX/libexec/ptxpose where install.sh puts
# it; without it list still gives its table and sass says how to get it.
# (The toolkit's ptxas in /usr/local/cuda/bin is found where it is.)
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
bin=$(ls -d .deps/nvidia/*/bin 2>/dev/null | head -1)
for d in $(echo "$PATH" | tr : ' ') /usr/local/cuda/bin; do
	[ -z "$bin" ] && [ -x "$d/cuobjdump" ] && [ -x "$d/nvdisasm" ] && bin=$d
done
if [ -z "$bin" ] || [ ! -x /usr/local/cuda/bin/ptxas ]; then
	echo "1..0 # SKIP cuobjdump, nvdisasm or the toolkit's ptxas missing (./build.sh test installs them)"
	exit 0
fi
mkdir -p "$tmp/inst/bin" "$tmp/home"
cp build/ptxpose "$tmp/inst/bin/" && cp "$bin/cuobjdump" "$bin/nvdisasm" "$tmp/inst/bin/"
# away: from /, no CUDA tools on PATH, no home with Python packages, no PTXPOSE_* set
away() { (cd / && env -i PATH=/usr/bin:/bin HOME="$tmp/home" "$tmp/inst/bin/ptxpose" "$@"); }

check "sass -v of a built-in kernel by name, from /" 0 away sass -v --summary fast_b32
grep -qx "cuobjdump: $tmp/inst/bin/cuobjdump" "$tmp/err" && ok "... cuobjdump found beside the binary" ||
	{ nok "... cuobjdump beside the binary"; diag <"$tmp/err"; }
grep -q '^kernel  *fast_b32$' "$tmp/out" && ok "... the built-in fast_b32 summarized" || { nok "... summary"; diag <"$tmp/out"; }

# the binary alone, with no cuobjdump anywhere it looks: list gives its table
# without the SASS columns and one note (exit 0); sass says how to get it
mkdir -p "$tmp/bare/bin"
cp build/ptxpose "$tmp/bare/bin/"
# (with the run's ptxas results, $PTXPOSE_TOOL_CACHE: list assembles every
# built-in kernel, 5 CPU-seconds otherwise, and no cuobjdump run is cached)
bare() { (cd / && env -i PATH=/usr/bin:/bin HOME="$tmp/home" PTXPOSE_PROGRESS=0 ${PTXPOSE_TOOL_CACHE:+PTXPOSE_TOOL_CACHE="$PTXPOSE_TOOL_CACHE"} "$tmp/bare/bin/ptxpose" "$@"); }
if bare sass --summary fast_b32 >/dev/null 2>&1; then
	ok "# SKIP cuobjdump is found from /usr/bin, /bin or /usr/local/cuda/bin: it cannot be missing"
	ok "# SKIP (the same)"
	ok "# SKIP (the same)"
else
	check "sass without cuobjdump, from /: exit 7" 7 bare sass --summary fast_b32
	one_line "... one line saying how to get it" "cuobjdump not found .*install it with: pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm$"
	check "list without cuobjdump, from /: exit 0" 0 bare list
	one_line "... one note" "^ptxpose list: note: cuobjdump not found .*; LDG128 and STG128 are left as - (--no-sass)$"
fi
[ "$(($(wc -l <"$tmp/out") - 1))" -eq "$(ls ptx/*.ptx | wc -l)" ] && awk 'NR > 1 && ($10 != "-" || $11 != "-") { bad = 1 } END { exit bad }' "$tmp/out" &&
	ok "... a row per built-in kernel, LDG128 and STG128 as -" || { nok "... rows"; diag <"$tmp/out"; }

# ./build.sh install's script puts the tools of .deps/ into PREFIX/libexec/ptxpose,
# where the installed binary finds them
if ls .deps/nvidia/*/bin/cuobjdump >/dev/null 2>&1; then
	check "install.sh with the tools in .deps/: exit 0" 0 env DESTDIR="$tmp/stage" PREFIX=/opt/ptxpose sh build-aux/install.sh
	grep -q "^installed cuobjdump (from .*) into $tmp/stage/opt/ptxpose/libexec/ptxpose$" "$tmp/out" &&
		grep -q "^installed nvdisasm (from .*) into $tmp/stage/opt/ptxpose/libexec/ptxpose$" "$tmp/out" &&
		ok "... cuobjdump and nvdisasm installed into PREFIX/libexec/ptxpose" || { nok "... the tools installed"; diag <"$tmp/out"; }
	check "the installed ptxpose, sass from /" 0 sh -c 'cd / && env -i PATH=/usr/bin:/bin HOME="$1" "$2" sass -v --summary fast_b32' sh "$tmp/home" "$tmp/stage/opt/ptxpose/bin/ptxpose"
	grep -qx "cuobjdump: $tmp/stage/opt/ptxpose/bin/../libexec/ptxpose/cuobjdump" "$tmp/err" && ok "... cuobjdump found in PREFIX/libexec/ptxpose" ||
		{ nok "... cuobjdump in PREFIX/libexec/ptxpose"; grep -v '^ptxas info' "$tmp/err" | diag; }
else
	ok "# SKIP no .deps/nvidia/*/bin/cuobjdump: install.sh has no tools to install"
	ok "# SKIP (the same)"
	ok "# SKIP (the same)"
	ok "# SKIP (the same)"
fi
check "plan, from /" 0 away plan --elem 16 --rows 3000 --cols 3
grep -q '^choice: .*(built in)$' "$tmp/out" && ok "... over the built-in kernels" || { nok "... plan"; diag <"$tmp/out"; }
check "run --elem --emulate, from /" 0 away run --elem 64 --rows 33 --cols 31 --emulate
grep -q ': PASS (emulated)$' "$tmp/out" && ok "... picked and verified" || { nok "... run"; diag <"$tmp/out"; }
check "sass of a name that is no kernel: exit 3" 3 away sass no_such_kernel
one_line "... one line" "no kernel of that name among the library's"
finish
