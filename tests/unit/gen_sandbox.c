/* The sandbox generator scripts run in (gen/lsbx*.c) and the host around
 * it (gen/lptx.c), through lptx_run_text with a sink instead of a folder:
 * precompiled chunks whole and corrupted, the libraries a script gets, the
 * memory and time limits with the script's line, error objects, and the
 * files handed over in name order. Prints TAP. */
#include <lauxlib.h>
#include <stdlib.h>
#include <time.h>

#include "gen/lptx.h"
#include "tests/unit/tap.h"

static strbuf files, report, err;

static int sink(void *ud, const char *path, const char *data, size_t len)
{
	(void)ud;
	sb_printf(&files, "%s:%zu;", path, len);
	(void)data;
	return 0;
}

static int run_opts(const char *name, const char *text, size_t len, const lptx_opts *o)
{
	sb_reset(&files);
	sb_reset(&report);
	sb_reset(&err);
	return lptx_run_text(name, text, len, o, &report, &err);
}

static int run(const char *text)
{
	lptx_opts o = {.outdir = "out", .sink = sink};
	return run_opts("t.lua", text, strlen(text), &o);
}

/* ok when the run fails as a script error with exactly `msg`. */
static void fails(const char *text, const char *msg, const char *what)
{
	int rc = run(text);
	if (!ok(rc == LPTX_SCRIPT && !strcmp(sb_str(&err), msg) && !files.len, "%s", what))
		printf("#   rc %d, got '%s'\n#   want '%s'\n", rc, sb_str(&err), msg);
}

static int dump_writer(lua_State *L, const void *p, size_t n, void *ud)
{
	(void)L;
	sb_addn(ud, p, n);
	return 0;
}

static void binary(void)
{
	lua_State *L = luaL_newstate();
	strbuf chunk;
	sb_init(&chunk);
	luaL_loadstring(L, "ptx.write('a.ptx', ptx.transpose{name='a'})");
	lua_dump(L, dump_writer, &chunk, 0);
	lua_close(L);
	lptx_opts o = {.outdir = "out", .sink = sink};
	int rc = run_opts("c.lua", chunk.data, chunk.len, &o);
	ok(rc == LPTX_SCRIPT && !strcmp(sb_str(&err), "c.lua: a precompiled chunk; scripts are loaded as text only") &&
	   !files.len, "a precompiled chunk is refused, nothing written (%s)", sb_str(&err));
	int bad = 0, n = 0;
	for (size_t k = 0; k < chunk.len; k++)
		for (int flip = 1; flip < 256; flip <<= 3, n++) {
			chunk.data[k] ^= (char)flip;
			rc = run_opts("c.lua", chunk.data, chunk.len, &o);
			bad += rc != LPTX_SCRIPT || files.len;
			chunk.data[k] ^= (char)flip;
		}
	for (size_t cut = 1; cut < chunk.len; cut++, n++) /* cut 0 is the empty script */
		bad += run_opts("c.lua", chunk.data, cut, &o) != LPTX_SCRIPT;
	ok(!bad, "%d corrupted and truncated chunks: each a script error, none run (%d otherwise)", n, bad);
	sb_free(&chunk);
}

static void libraries(void)
{
	ok(run("assert(io == nil and os == nil and require == nil and package == nil and debug == nil)\n"
	       "assert(dofile == nil and loadfile == nil and coroutine == nil)\n"
	       "assert(string and table and math and utf8 and print and pcall)\n"
	       "assert(('a  b'):gsub('%s+', ' ') == 'a b' and math.max(1, 2) == 2 and utf8.char(72) == 'H')\n"
	       "assert(load('return 7')() == 7 and collectgarbage('count') > 0)\n"
	       "assert(string.rep('a', 100000):find('b', 1, true) == nil)\n") == LPTX_OK,
	   "the base, string, table, math and utf8 libraries work; io, os, require, debug are absent (%s)",
	   sb_str(&err));
	fails("local f, e = load(string.dump(function() end))\nerror(e, 0)",
	      "attempt to load a binary chunk (mode is 't')", "load takes text only, whatever mode is asked");
	fails("collectgarbage('generational')", "t.lua:1: collectgarbage: option 'generational' is not available to "
						 "ptxpose scripts", "collectgarbage cannot change the collector");
	fails("setmetatable({}, {__gc = print})", "t.lua:1: setmetatable: __gc metamethods are not available to "
						  "ptxpose scripts", "no finalizers");
	fails("local s = string.rep('a', 20000)\nreturn s:match('(a-)b')",
	      "t.lua:2: string.match: this pattern over 20000 bytes could backtrack for hours (the sandbox allows "
	      "length^(repetitions+1) up to 2^28; split the text, or find with plain = true)",
	      "a repetition followed by more pattern, over 20000 bytes, is refused");
	ok(run("assert(string.rep('a', 4000):match('(a-)b') == nil)\n"
	       "assert(#string.rep(' x', 1e6):gsub('%s+', '') == 1e6)") == LPTX_OK,
	   "... runs over 4000 bytes, and a repetition at the end over any length (%s)", sb_str(&err));
	fails("table.move({}, -5, 16777211, 1)", "t.lua:1: table.move: more than 16777216 elements (the sandbox's limit)",
	      "table.move of 2^24 + 1 elements");
}

static void limits(void)
{
	lptx_opts o = {.outdir = "out", .sink = sink, .limits = {.time_ms = 200}};
	const char *loop = "local n = 0\nwhile true do\n  n = n + 1\nend\n";
	clock_t t0 = clock();
	int rc = run_opts("t.lua", loop, strlen(loop), &o);
	double s = (double)(clock() - t0) / CLOCKS_PER_SEC;
	ok(rc == LPTX_SCRIPT && strstr(sb_str(&err), "time limit of 0.2 s reached (an endless loop?)") &&
	   (strstr(sb_str(&err), "t.lua:3: ") == sb_str(&err) || strstr(sb_str(&err), "t.lua:2: ") == sb_str(&err)) &&
	   s < 2, "an endless loop stops at the time limit, at its line, in %.2f s: %s", s, sb_str(&err));
	const char *catch = "while true do\n  pcall(function() while true do end end)\nend\n";
	rc = run_opts("t.lua", catch, strlen(catch), &o);
	ok(rc == LPTX_SCRIPT && strstr(sb_str(&err), "time limit"), "pcall does not catch it for good: %s",
	   sb_str(&err));
	o.limits = (lsbx_limits){.mem_bytes = 8u << 20};
	const char *grow = "local s = 'x'\nfor i = 1, 40 do\n  s = s .. s\nend\n";
	rc = run_opts("t.lua", grow, strlen(grow), &o);
	ok(rc == LPTX_SCRIPT && !strcmp(sb_str(&err), "t.lua:3: memory limit of 8 MiB reached"),
	   "s = s .. s stops at the memory cap, at its line: %s", sb_str(&err));
	const char *tbl = "local t = {}\nfor i = 1, 1e9 do t[i] = {} end\n";
	rc = run_opts("t.lua", tbl, strlen(tbl), &o);
	ok(rc == LPTX_SCRIPT && !strcmp(sb_str(&err), "t.lua:2: memory limit of 8 MiB reached"),
	   "so does a growing table: %s", sb_str(&err));
}

static void errors(void)
{
	fails("\nlocal function f()\n  error({})\nend\nf()\n", "t.lua:3: error object is a table, not a message",
	      "error({}) is located at its line");
	fails("error(setmetatable({}, {__tostring = function() return 'x' end}))",
	      "t.lua:1: error object is a table, not a message", "... with a __tostring too");
	fails("error(nil)", "t.lua:1: error object is a nil, not a message", "error(nil)");
	fails("error('one\\ntwo\\rthree')", "t.lua:1: one\\ntwo\\rthree", "a message with line breaks stays one line");
	fails("ptx.write('a.ptx', 'x')\nptx.write('sub/b.ptx', 'y')",
	      "t.lua:2: write: 'sub/b.ptx' is not a plain file name: it has a '/' (files go in the output folder itself)",
	      "a bad name fails at its ptx.write");
	fails("local s = 'x'\nfor i = 1, 3 do\n  ptx.write('./a.ptx', s)\nend",
	      "t.lua:3: write: out/a.ptx is written twice", "a name written twice");
	fails("pcall(ptx.write, 'a.ptx', 'x')\nptx.write('a.ptx', 'y')", "t.lua:2: write: out/a.ptx is written twice",
	      "... even when the first call was in a pcall");
	fails("ptx.transpose{name = ('k'):rep(64)}", "t.lua:1: transpose: name is longer than 63 characters (the "
						    "metadata's limit)", "a kernel name over the metadata's limit");
	lptx_opts o = {.outdir = "out", .sink = sink};
	const char *two = "ptx.write('c.ptx', 'ccc')\nptx.write('./a.ptx', 'a')\nptx.write('b.ptx', ptx.transpose{name='b'})";
	int rc = run_opts("a\nb.lua", two, strlen(two), &o);
	ok(rc == LPTX_OK && !strncmp(sb_str(&files), "out/a.ptx:1;out/b.ptx:", 22) && strstr(sb_str(&files), ";out/c.ptx:3;"),
	   "files go to the sink in name order: %s", sb_str(&files));
	is_str(sb_str(&report), "wrote out/a.ptx\nwrote out/b.ptx\nwrote out/c.ptx\n", "... and are reported");
	fails("ptx.transpose{name='ok'}\nerror('x')", "t.lua:2: x", "a script that fails after its work writes nothing");
}

int main(void)
{
	sb_init(&files);
	sb_init(&report);
	sb_init(&err);
	binary();
	libraries();
	limits();
	errors();
	sb_free(&files);
	sb_free(&report);
	sb_free(&err);
	return tap_done();
}
