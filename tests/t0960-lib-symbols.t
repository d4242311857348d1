#!/bin/sh
# libptxpose exports its public API and nothing else: the shared library's
# dynamic symbols are exactly the functions of include/ptxpose.h (its ABI),
# the static library's global ones exactly those and the unstable
# ptxpose_tool_* of include/ptxpose_tools.h (for ptxpose's own tools, which
# link it; the .so leaves them out, lib/ptxpose.map), and the soname is
# libptxpose.so.SOVER (MAJOR, or 0.MINOR while MAJOR is 0). Each header
# compiles as C99, C11 and C++ alone.
cd "$(dirname "$0")/.." || exit 1
. tests/lib/tap.sh
v() { sed -n "s/^#define PTXPOSE_VERSION_$1 \([0-9]*\)$/\1/p" include/ptxpose.h; }
# the soname's version: MAJOR, or 0.MINOR while MAJOR is 0 (the ABI may change)
sover() { if [ "$(v MAJOR)" = 0 ]; then echo "0.$(v MINOR)"; else v MAJOR; fi; }
so=build/libptxpose.so.$(v MAJOR).$(v MINOR).$(v PATCH)
if [ ! -f "$so" ] || [ ! -f build/libptxpose.a ]; then
	nok "$so and build/libptxpose.a are not built: run ninja"
	finish
fi
# the API: every PTXPOSE_API function the header declares
api() { sed -n 's/^PTXPOSE_API [^(]*[ *]\(ptxpose_[a-z_]*\)(.*/\1/p' "$@" | sort; }
api include/ptxpose.h >"$tmp/api"
[ "$(wc -l <"$tmp/api")" -ge 15 ] && ok "the header declares $(wc -l <"$tmp/api") functions" || nok "the header's functions"
api include/ptxpose.h include/ptxpose_tools.h >"$tmp/tools"
comm -13 "$tmp/api" "$tmp/tools" >"$tmp/extra"
[ -s "$tmp/extra" ] && ! grep -qv '^ptxpose_tool_' "$tmp/extra" &&
	ok "include/ptxpose_tools.h declares $(wc -l <"$tmp/extra") more, all ptxpose_tool_*" ||
	{ nok "include/ptxpose_tools.h's functions are ptxpose_tool_*"; diag <"$tmp/extra"; }

nm -D --defined-only "$so" | awk '{ print $3 }' | sort >"$tmp/dyn"
grep -v '^ptxpose_' "$tmp/dyn" >"$tmp/other"
[ ! -s "$tmp/other" ] && ok "$so: every exported symbol is ptxpose_ ($(wc -l <"$tmp/dyn"))" ||
	{ nok "$so exports others"; diag <"$tmp/other"; }
diff -u "$tmp/api" "$tmp/dyn" >"$tmp/diff" && ok "... exactly the header's functions" || { nok "... the header's functions"; diag <"$tmp/diff"; }
readelf -d "$so" | grep -q "(SONAME) *Library soname: \[libptxpose.so.$(sover)\]" && ok "... soname libptxpose.so.$(sover)" ||
	{ nok "... soname"; readelf -d "$so" | diag; }
[ "$(readlink build/libptxpose.so)" = "libptxpose.so.$(sover)" ] && [ "$(readlink build/libptxpose.so.$(sover))" = "${so#build/}" ] &&
	ok "... libptxpose.so -> .so.SOVER -> .so.MAJOR.MINOR.PATCH" || nok "... the links"

nm --defined-only --extern-only build/libptxpose.a 2>/dev/null | awk 'NF == 3 { print $3 }' | sort >"$tmp/static"
grep -v '^ptxpose_' "$tmp/static" >"$tmp/other"
[ -s "$tmp/static" ] && [ ! -s "$tmp/other" ] && ok "build/libptxpose.a: every global symbol is ptxpose_ ($(wc -l <"$tmp/static"))" ||
	{ nok "build/libptxpose.a has other globals"; diag <"$tmp/other"; }
diff -u "$tmp/tools" "$tmp/static" >"$tmp/diff" && ok "... exactly the functions of ptxpose.h and ptxpose_tools.h" ||
	{ nok "... static"; diag <"$tmp/diff"; }

for h in ptxpose ptxpose_tools; do
	printf '#include "include/%s.h"\nint main(void) { ptxpose_desc d = PTXPOSE_DESC_INIT; return (int)d.size == 0; }\n' $h >"$tmp/h.c"
	for std in c99 c11; do
		cc -std=$std -pedantic -Wall -Wextra -Werror -I. "$tmp/h.c" -c -o "$tmp/h.o" 2>"$tmp/err" &&
			ok "$h.h alone: cc -std=$std -pedantic" || { nok "$h.h: $std"; diag <"$tmp/err"; }
	done
	cp "$tmp/h.c" "$tmp/h.cpp"
	c++ -Wall -Wextra -Werror -I. "$tmp/h.cpp" -c -o "$tmp/h.o" 2>"$tmp/err" && ok "... and as C++ (extern \"C\")" ||
		{ nok "$h.h as C++"; diag <"$tmp/err"; }
done
finish
