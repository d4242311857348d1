#!/bin/sh
# Install what `ninja` built: `ninja install` and `./build.sh install` run
# this from the repository's root. PREFIX (default /usr/local) is where the
# files will live; DESTDIR, if set, is prepended to every path written (a
# staged install, for packaging or tests), never to the paths inside the
# files (the .pc file says PREFIX; the CMake files name no folder at all).
#
#   PREFIX/bin/ptxpose
#   PREFIX/include/ptxpose.h
#   PREFIX/lib/libptxpose.a, libptxpose.so -> .so.SOVER -> .so.MAJOR.MINOR.PATCH
#   (SOVER: MAJOR, or 0.MINOR while MAJOR is 0)
#   PREFIX/lib/pkgconfig/ptxpose.pc
#   PREFIX/lib/cmake/ptxpose/ptxposeConfig.cmake, ptxposeConfigVersion.cmake
#   (find_package(ptxpose): targets ptxpose::ptxpose, shared, and
#   ptxpose::static; relocatable: its paths are found from its own place)
#   PREFIX/share/doc/ptxpose/README.md, DESIGN.md, lib-README.md, LICENSE
#   PREFIX/libexec/ptxpose/cuobjdump, nvdisasm (those in .deps/, if any)
#
# Then: as root into /usr or /usr/local with no DESTDIR, `ldconfig` (the
# loader's cache learns the new library); under any other PREFIX, the lines
# that let pkg-config and a program find it.
set -eu
cd "$(dirname "$0")/.."
prefix=${PREFIX:-/usr/local}
case "$prefix" in
/*) ;;
*) echo "install: PREFIX must be an absolute path, got '$prefix'" >&2; exit 2 ;;
esac
prefix=${prefix%/}
dest=${DESTDIR:-}
v() { sed -n "s/^#define PTXPOSE_VERSION_$1 \([0-9]*\)$/\1/p" include/ptxpose.h; }
major=$(v MAJOR) minor=$(v MINOR) patch=$(v PATCH)
so=libptxpose.so.$major.$minor.$patch
# the soname: libptxpose.so.MAJOR, or libptxpose.so.0.MINOR while MAJOR is 0 (configure.py)
if [ "$major" = 0 ]; then sover=0.$minor; else sover=$major; fi
# what the static library links (-ldl -lm -lpthread): configure.py's LIB_LIBS, its one copy
libs=$(sed -n "s/^LIB_LIBS = '\(.*\)'$/\1/p" configure.py)
[ -n "$libs" ] || { echo "install: configure.py has no LIB_LIBS line" >&2; exit 1; }
for f in build/ptxpose build/libptxpose.a "build/$so"; do
	[ -f "$f" ] || { echo "install: $f is not built: run ninja" >&2; exit 1; }
done

bin=$dest$prefix/bin lib=$dest$prefix/lib inc=$dest$prefix/include doc=$dest$prefix/share/doc/ptxpose
mkdir -p "$bin" "$lib/pkgconfig" "$lib/cmake/ptxpose" "$inc" "$doc"
# each file through a temporary beside it and a rename: a reader never sees half of one
put() { # put MODE SRC DST
	cp "$2" "$3.tmp.$$" && chmod "$1" "$3.tmp.$$" && mv -f "$3.tmp.$$" "$3"
}
put 755 build/ptxpose "$bin/ptxpose"
put 644 include/ptxpose.h "$inc/ptxpose.h"
put 644 build/libptxpose.a "$lib/libptxpose.a"
put 755 "build/$so" "$lib/$so"
ln -sfn "$so" "$lib/libptxpose.so.$sover"
ln -sfn "libptxpose.so.$sover" "$lib/libptxpose.so"
cat >"$lib/pkgconfig/ptxpose.pc.tmp.$$" <<PC
prefix=$prefix
exec_prefix=\${prefix}
libdir=\${exec_prefix}/lib
includedir=\${prefix}/include

Name: ptxpose
Description: Matrix transposes on NVIDIA GPUs through hand-scheduled PTX (libcuda opened at run time)
Version: $major.$minor.$patch
Libs: -L\${libdir} -lptxpose
Libs.private: $libs
Cflags: -I\${includedir}
PC
mv -f "$lib/pkgconfig/ptxpose.pc.tmp.$$" "$lib/pkgconfig/ptxpose.pc"
cmake=$lib/cmake/ptxpose
cat >"$cmake/ptxposeConfig.cmake.tmp.$$" <<CMAKE
# find_package(ptxpose): the ptxpose $major.$minor.$patch installed beside this file
# (build-aux/install.sh). Relocatable: every path is found from this file's
# place, PREFIX/lib/cmake/ptxpose.
#   ptxpose::ptxpose  the shared library ($so, soname libptxpose.so.$sover)
#   ptxpose::static   the static library (libptxpose.a), which links $libs
# Both give include/ptxpose.h. A program that includes cuda.h for the driver's
# types finds that header itself: ptxpose links no CUDA library.
get_filename_component(_ptxpose_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
foreach(_ptxpose_file include/ptxpose.h lib/$so lib/libptxpose.a)
  if(NOT EXISTS "\${_ptxpose_prefix}/\${_ptxpose_file}")
    set(ptxpose_FOUND FALSE)
    set(ptxpose_NOT_FOUND_MESSAGE "\${_ptxpose_prefix}/\${_ptxpose_file} is missing: install ptxpose again")
    return()
  endif()
endforeach()
if(NOT TARGET ptxpose::ptxpose)
  add_library(ptxpose::ptxpose SHARED IMPORTED)
  set_target_properties(ptxpose::ptxpose PROPERTIES
    IMPORTED_LOCATION "\${_ptxpose_prefix}/lib/$so"
    IMPORTED_SONAME "libptxpose.so.$sover"
    INTERFACE_INCLUDE_DIRECTORIES "\${_ptxpose_prefix}/include")
endif()
if(NOT TARGET ptxpose::static)
  add_library(ptxpose::static STATIC IMPORTED)
  set_target_properties(ptxpose::static PROPERTIES
    IMPORTED_LOCATION "\${_ptxpose_prefix}/lib/libptxpose.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES C
    INTERFACE_INCLUDE_DIRECTORIES "\${_ptxpose_prefix}/include"
    INTERFACE_LINK_LIBRARIES "$(printf '%s' "$libs" | sed 's/-l//g; s/ /;/g')")
endif()
unset(_ptxpose_prefix)
unset(_ptxpose_file)
CMAKE
mv -f "$cmake/ptxposeConfig.cmake.tmp.$$" "$cmake/ptxposeConfig.cmake"
# compatible: the same MAJOR and no newer, or while MAJOR is 0 (every MINOR may
# change the ABI: the soname) the same MAJOR.MINOR; 64-bit only
if [ "$major" = 0 ]; then same="PACKAGE_FIND_VERSION_MAJOR EQUAL 0 AND PACKAGE_FIND_VERSION_MINOR EQUAL $minor"
else same="PACKAGE_FIND_VERSION_MAJOR EQUAL $major"; fi
cat >"$cmake/ptxposeConfigVersion.cmake.tmp.$$" <<CMAKE
# The version of the ptxpose beside this file, for find_package(ptxpose VERSION).
set(PACKAGE_VERSION "$major.$minor.$patch")
if(NOT PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
elseif(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION OR NOT ($same))
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_FIND_VERSION VERSION_EQUAL PACKAGE_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
if(CMAKE_SIZEOF_VOID_P AND NOT CMAKE_SIZEOF_VOID_P EQUAL 8)
  set(PACKAGE_VERSION "\${PACKAGE_VERSION} (64-bit)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
CMAKE
mv -f "$cmake/ptxposeConfigVersion.cmake.tmp.$$" "$cmake/ptxposeConfigVersion.cmake"
put 644 README.md "$doc/README.md"
put 644 docs/DESIGN.md "$doc/DESIGN.md"
put 644 lib/README.md "$doc/lib-README.md"
put 644 LICENSE "$doc/LICENSE"
# The tools `sass` and `list` run: cuobjdump, which runs nvdisasm. Those that
# ./build.sh put into this checkout's .deps/ go into PREFIX/libexec/ptxpose/,
# where the installed ptxpose looks (inspect/tool.c); those in PATH or
# /usr/local/cuda/bin it finds where they are; otherwise say how to get them
# (the command is INS_CUOBJDUMP_INSTALL's, inspect/inspect.h).
libexec=$dest$prefix/libexec/ptxpose
lacking=
for t in cuobjdump nvdisasm; do
	src=$(ls .deps/nvidia/*/bin/$t 2>/dev/null | tail -1)
	if [ -n "$src" ] && [ -x "$src" ]; then
		mkdir -p "$libexec"
		put 755 "$src" "$libexec/$t"
		echo "installed $t (from $src) into $libexec"
	elif ! command -v $t >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/$t ]; then
		lacking="$lacking $t"
	fi
done
if [ -n "$lacking" ]; then
	echo "install: no$lacking here: ptxpose sass, and list's LDG128/STG128 columns, need it;" \
		"get it with: pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm (or NVIDIA's cuda-toolkit)" >&2
fi
echo "installed ptxpose $major.$minor.$patch into ${dest}$prefix"
case "$prefix" in
/usr | /usr/local)
	if [ -z "$dest" ] && [ "$(id -u)" = 0 ]; then
		ldconfig
		echo "ran ldconfig: $prefix/lib/libptxpose.so.$sover is found at run time"
	fi
	;;
*)
	echo "to build against it:  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig"
	echo "to run what you link: cc ... -Wl,-rpath,$prefix/lib  (or LD_LIBRARY_PATH=$prefix/lib)"
	;;
esac
