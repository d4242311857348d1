#!/bin/sh
# ptxpose away from its repository: a copy of the binary in a folder of its
# own, run from / with a PATH that has no CUDA tools. Its kernels are built
# in (list, plan, run --emulate, sass VARIANT need no ptx/), and cuobjdump is
# found beside the binary. (The toolkit's ptxas in /usr/local/cuda/bin is
# found where it is.)
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
check "list --no-sass, from /" 0 away list --no-sass
[ "$(($(wc -l <"$tmp/out") - 1))" -eq "$(ls ptx/*.ptx | wc -l)" ] && ok "... a row per built-in kernel" ||
	{ nok "... rows"; diag <"$tmp/out"; }
check "plan, from /" 0 away plan --elem 16 --rows 3000 --cols 3
grep -q '^choice: .*(built in)$' "$tmp/out" && ok "... over the built-in kernels" || { nok "... plan"; diag <"$tmp/out"; }
check "run --elem --emulate, from /" 0 away run --elem 64 --rows 33 --cols 31 --emulate
grep -q ': PASS (emulated)$' "$tmp/out" && ok "... picked and verified" || { nok "... run"; diag <"$tmp/out"; }
check "sass of a name that is no kernel: exit 3" 3 away sass no_such_kernel
one_line "... one line" "no kernel of that name among the library's"
finish
