#!/bin/sh
# A staged install (build-aux/install.sh with DESTDIR and PREFIX: what
# `ninja install` and `./build.sh install` run once they have built; the test
# runs the script itself, so that no build starts under the other tests),
# examples/transpose.c and .cpp built against it through
# `pkg-config --cflags --libs ptxpose` (and the static library), run without
# a driver (the library's "no CUDA driver" status, 4, as their exit code) and
# with the fake driver (the whole call sequence, checked bit-exactly); the
# CMake package (find_package(ptxpose): its version rule, and
# examples/cmake built with it against the staged tree, which is not where
# PREFIX says: the package is relocatable); and the installed ptxpose run
# from / with no repository, its built-in kernels taken by name.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
need_ptxpose
for t in pkg-config c++ cmake; do
	command -v $t >/dev/null 2>&1 || { nok "$t is missing (./build.sh test installs it)"; finish; }
done
prefix=/opt/ptxpose-test
stage=$tmp/stage
grep -A1 '^rule install$' build.ninja | grep -qx '  command = sh build-aux/install.sh' &&
	grep -q '^build install: install | build/ptxpose ' build.ninja &&
	sed -n '/^install)$/,/;;/p' build.sh | grep -q '^	sh build-aux/install.sh$' &&
	ok "ninja install and ./build.sh install build, then run build-aux/install.sh" || nok "the install targets"
DESTDIR=$stage PREFIX=$prefix check "build-aux/install.sh with DESTDIR and PREFIX: exit 0" 0 sh build-aux/install.sh
v() { sed -n "s/^#define PTXPOSE_VERSION_$1 \([0-9]*\)$/\1/p" include/ptxpose.h; }
# the soname's version: MAJOR, or 0.MINOR while MAJOR is 0 (the ABI may change)
sover() { if [ "$(v MAJOR)" = 0 ]; then echo "0.$(v MINOR)"; else v MAJOR; fi; }
ver=$(v MAJOR).$(v MINOR).$(v PATCH)
missing=
for f in bin/ptxpose include/ptxpose.h lib/libptxpose.a lib/libptxpose.so.$ver lib/libptxpose.so.$(sover) \
	lib/libptxpose.so lib/pkgconfig/ptxpose.pc lib/cmake/ptxpose/ptxposeConfig.cmake \
	lib/cmake/ptxpose/ptxposeConfigVersion.cmake share/doc/ptxpose/README.md share/doc/ptxpose/DESIGN.md; do
	[ -e "$stage$prefix/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && ok "... every file in its place" || { nok "... missing:$missing"; diag <"$tmp/err"; }
grep -qx "prefix=$prefix" "$stage$prefix/lib/pkgconfig/ptxpose.pc" && grep -qx "Version: $ver" "$stage$prefix/lib/pkgconfig/ptxpose.pc" &&
	ok "... ptxpose.pc: the PREFIX (not DESTDIR), the version" || { nok "... ptxpose.pc"; diag <"$stage$prefix/lib/pkgconfig/ptxpose.pc"; }
[ -f "$stage$prefix/share/doc/ptxpose/LICENSE" ] && ok "... the LICENSE with the docs" || nok "... no LICENSE"
# A PREFIX the loader does not search: the install says how to build and run against it
grep -qx "to build against it:  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig" "$tmp/out" &&
	grep -qx "to run what you link: cc ... -Wl,-rpath,$prefix/lib  (or LD_LIBRARY_PATH=$prefix/lib)" "$tmp/out" &&
	ok "... prints PKG_CONFIG_PATH and the run path for $prefix" || { nok "... the PKG_CONFIG_PATH and run path lines"; diag <"$tmp/out"; }
# ldconfig: only as root, into /usr or /usr/local, with no DESTDIR (a staged install never runs it)
mkdir -p "$tmp/fakebin"
printf '#!/bin/sh\necho 0\n' >"$tmp/fakebin/id"
printf '#!/bin/sh\ntouch "%s"\n' "$tmp/ldconfig-ran" >"$tmp/fakebin/ldconfig"
chmod +x "$tmp/fakebin/id" "$tmp/fakebin/ldconfig"
PATH=$tmp/fakebin:$PATH DESTDIR=$stage PREFIX=/usr/local sh build-aux/install.sh >"$tmp/out3" 2>&1 && [ ! -e "$tmp/ldconfig-ran" ] &&
	ok "as root into DESTDIR/usr/local: no ldconfig (staged)" || { nok "ldconfig ran for a staged install"; diag <"$tmp/out3"; }
sed -n '/^case "$prefix" in$/,/^esac$/p' build-aux/install.sh | sed 's/^/x /' | grep -q 'x 		ldconfig$' &&
	grep -q 'if \[ -z "$dest" \] && \[ "$(id -u)" = 0 \]; then' build-aux/install.sh &&
	ok "... and run for /usr and /usr/local when DESTDIR is empty and the user is root" || nok "... the ldconfig rule"
DESTDIR=$stage PREFIX=$prefix sh build-aux/install.sh >"$tmp/out2" 2>&1 && [ "$(readlink "$stage$prefix/lib/libptxpose.so")" = libptxpose.so.$(sover) ] &&
	ok "installed again over itself: fine" || { nok "install twice"; diag <"$tmp/out2"; }
PREFIX=relative/path check "a relative PREFIX: exit 2" 2 sh build-aux/install.sh

export PKG_CONFIG_PATH="$stage$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$stage"
flags=$(pkg-config --cflags --libs ptxpose) && echo "$flags" | grep -q -- "-I$stage$prefix/include" &&
	ok "pkg-config --cflags --libs ptxpose: $flags" || nok "pkg-config: $flags"
CUDA_INC=-I/usr/local/cuda/include
check "examples/transpose.c builds with the pkg-config flags" 0 \
	cc -std=c11 -Wall -Wextra -Werror examples/transpose.c $CUDA_INC $flags -o "$tmp/transpose_c"
check "examples/transpose.cpp builds with them" 0 \
	c++ -Wall -Wextra -Werror examples/transpose.cpp $CUDA_INC $flags -o "$tmp/transpose_cpp"
check "... and the C one statically (--static)" 0 cc -std=c11 examples/transpose.c $CUDA_INC \
	$(pkg-config --cflags ptxpose) "$stage$prefix/lib/libptxpose.a" $(pkg-config --static --libs-only-l ptxpose | sed 's/-lptxpose//') -o "$tmp/transpose_static"
libs=$stage$prefix/lib
for ex in transpose_c transpose_cpp transpose_static; do
	LD_LIBRARY_PATH=$libs PTXPOSE_LIBCUDA=/nonexistent/libcuda.so.1 check "$ex without a driver: exit 4 (PTXPOSE_ERR_NO_DRIVER)" 4 "$tmp/$ex"
	one_line "... one line saying so" "ptxpose_create: no CUDA driver: .*(PTXPOSE_ERR_NO_DRIVER"
	LD_LIBRARY_PATH=$libs:$PWD/build/fakecuda check "$ex with the fake driver: the whole sequence, exit 0" 0 "$tmp/$ex"
	grep -q '^transpose: [0-9]*x[0-9]* [a-z]* by [a-z0-9_]* on Fake CUDA Device 0: bit-exact$' "$tmp/out" &&
		ok "... transposed bit-exactly" || { nok "... bit-exact"; diag <"$tmp/out"; }
done
# the run path the install printed: the program finds the library with no LD_LIBRARY_PATH
check "transpose.c linked with -Wl,-rpath of the lib folder" 0 \
	cc -std=c11 examples/transpose.c $CUDA_INC $flags -Wl,-rpath,"$libs" -o "$tmp/transpose_rpath"
check "... runs with no LD_LIBRARY_PATH (fake driver): exit 0" 0 env -u LD_LIBRARY_PATH PTXPOSE_LIBCUDA="$PWD/build/fakecuda/libcuda.so.1" "$tmp/transpose_rpath"
check "... without it, the library is not found: exit 127" 127 env -u LD_LIBRARY_PATH "$tmp/transpose_c"
one_line "... the loader says which" "libptxpose.so.$(sover): cannot open shared object file"
LD_LIBRARY_PATH=$libs ldd "$tmp/transpose_c" | grep -q "libptxpose.so.$(sover) => $stage" &&
	! LD_LIBRARY_PATH=$libs ldd "$tmp/transpose_static" | grep -q libptxpose &&
	ok "the shared build needs libptxpose.so.$(sover); the static one nothing of ptxpose" || nok "ldd"

# the CMake package: no folder written in it; find_package's version rule
# (while MAJOR is 0, the same MAJOR.MINOR and no newer: the soname's rule)
cm=$stage$prefix/lib/cmake/ptxpose
! grep -q -e "$prefix" -e "$stage" "$cm/ptxposeConfig.cmake" "$cm/ptxposeConfigVersion.cmake" &&
	ok "the CMake package names no folder (relocatable)" || nok "the CMake package names $prefix or $stage"
mm=$(v MAJOR).$(v MINOR)
cat >"$tmp/versions.cmake" <<CMAKE
foreach(want "" $mm $ver $ver.0 $(v MAJOR).$(($(v MINOR) - 1)) $(v MAJOR).$(($(v MINOR) + 1)) $(($(v MAJOR) + 1)).0 $mm.99)
  unset(PACKAGE_VERSION_COMPATIBLE)
  unset(PACKAGE_VERSION_EXACT)
  set(PACKAGE_FIND_VERSION "\${want}")
  string(REGEX MATCHALL "[0-9]+" parts "\${want}.0.0")
  list(GET parts 0 PACKAGE_FIND_VERSION_MAJOR)
  list(GET parts 1 PACKAGE_FIND_VERSION_MINOR)
  set(CMAKE_SIZEOF_VOID_P 8)
  include("$cm/ptxposeConfigVersion.cmake")
  message("[\${want}] \${PACKAGE_VERSION_COMPATIBLE} \${PACKAGE_VERSION_EXACT}")
endforeach()
CMAKE
cmake -P "$tmp/versions.cmake" >"$tmp/out" 2>&1
printf '%s\n' "[] TRUE " "[$mm] TRUE TRUE" "[$ver] TRUE TRUE" "[$ver.0] TRUE TRUE" "[$(v MAJOR).$(($(v MINOR) - 1))] FALSE " \
	"[$(v MAJOR).$(($(v MINOR) + 1))] FALSE " "[$(($(v MAJOR) + 1)).0] FALSE " "[$mm.99] FALSE " >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" && ok "ptxposeConfigVersion.cmake: any version, $mm and $ver served ($mm, as $mm.0, and $ver exactly); the MINOR before and after, the next MAJOR and $mm.99 not" ||
	{ nok "ptxposeConfigVersion.cmake"; diff "$tmp/want" "$tmp/out" | diag; }
check "examples/cmake: cmake configures with find_package(ptxpose $mm), CMAKE_PREFIX_PATH the staged tree" 0 \
	cmake -S examples/cmake -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$stage$prefix" -DCMAKE_BUILD_TYPE=Release \
	-DCMAKE_C_FLAGS="-Wall -Wextra -Werror" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror"
check "... and builds transpose_c, transpose_cpp (ptxpose::ptxpose) and transpose_static (ptxpose::static)" 0 \
	cmake --build "$tmp/cmake"
for ex in transpose_c transpose_cpp transpose_static; do
	check "$ex (CMake) with the fake driver, no LD_LIBRARY_PATH: exit 0" 0 env -u LD_LIBRARY_PATH PTXPOSE_LIBCUDA="$PWD/build/fakecuda/libcuda.so.1" "$tmp/cmake/$ex"
	grep -q '^transpose: [0-9]*x[0-9]* [a-z]* by [a-z0-9_]* on Fake CUDA Device 0: bit-exact$' "$tmp/out" &&
		ok "... transposed bit-exactly" || { nok "... bit-exact"; diag <"$tmp/out"; }
done
ldd "$tmp/cmake/transpose_c" | grep -q "libptxpose.so.$(sover) => $stage$prefix/lib/" && ! ldd "$tmp/cmake/transpose_static" | grep -q libptxpose &&
	ok "... the shared one loads the staged libptxpose.so.$(sover); the static one needs none" || nok "... ldd of the CMake builds"

# the installed binary, from /, with no repository around (but the run's
# cache of ptxas's and cuobjdump's results, tests/lib/tap.sh: its list
# assembles the built-in kernels, which t0300 has assembled already)
px=$stage$prefix/bin/ptxpose
away() { (cd / && env -i PATH=/usr/bin:/bin HOME="$tmp" PTXPOSE_PROGRESS=0 PTXPOSE_TOOL_CACHE="$PTXPOSE_TOOL_CACHE" "$px" "$@"); }
check "installed: list --no-sass, from /" 0 away list --no-sass
check "installed: plan, from /" 0 away plan --elem 8 --rows 5000 --cols 3
check "installed: run --emulate, from /" 0 away run --elem 16 --rows 67 --cols 129 --emulate
check "installed: check --emulate of a built-in kernel by name, from /" 0 away check --emulate --shapes 67x129,1x33 fast_b32
[ "$(grep -c '^ok [12] - fast_b32 ' "$tmp/out")" -eq 2 ] && ok "... its two shapes pass" || { nok "... check's TAP"; diag <"$tmp/out"; }
check "installed: run of a built-in kernel by name, from /" 0 away run fast_b16 --rows 67 --cols 129 --emulate
cuobjdump=$(ls .deps/nvidia/*/bin/cuobjdump 2>/dev/null | head -1)
[ -z "$cuobjdump" ] && [ -x /usr/local/cuda/bin/cuobjdump ] && cuobjdump=/usr/local/cuda/bin/cuobjdump
if [ -n "$cuobjdump" ]; then
	cuobjdump=$(cd "$(dirname "$cuobjdump")" && pwd)/cuobjdump
	(cd / && env -i PATH="/usr/bin:/bin:$(dirname "$cuobjdump")" HOME="$tmp" PTXPOSE_TOOL_CACHE="$PTXPOSE_TOOL_CACHE" \
		"$px" sass --summary fast_b16) >"$tmp/out" 2>"$tmp/err" &&
		ok "installed: sass of a built-in kernel, from /, given cuobjdump" || { nok "installed: sass"; diag <"$tmp/err"; }
else
	ok "installed: sass # SKIP no cuobjdump here"
fi
finish
