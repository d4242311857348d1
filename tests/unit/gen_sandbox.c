/* The sandbox generator scripts run in (gen/lsbx*.c) and the host around
 * it (gen/lptx.c), through lptx_run_text with a sink instead of a folder:
 * precompiled chunks whole and corrupted, the libraries a script gets, the
 * memory and time limits with the script's line, error objects, and the
 * files handed over in name order. Prints TAP. */
#include <lauxlib.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "gen/lptx.h"
#include "tests/unit/tap.h"

static strbuf files, report, err;

static int sink(void *ud, const char *path, const char *data, size_t len)
{
	(void)ud;
	sb_printf(&files, "%s:%zu%s;", path, len, data[len] ? " (no NUL after it)" : "");
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
	lptx_opts o = {.outdir = "out", .sink = sink, .in_process = 1}; /* a thousand runs: no process each */
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
	      "length^(repetitions+1) up to 268435456; split the text, or find with plain = true)",
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

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The time limit in this process (the fuzzer's way): the sandbox's own
 * bounds end each escape quickly, with its line. */
static void escapes(void)
{
	static const struct {
		const char *script, *want, *what;
	} c[] = {
		{"xpcall(error, function() while true do end end)", "t.lua:1: time limit of 0.3 s reached",
		 "xpcall's message handler in an endless loop"},
		{"xpcall(function() while true do end end, function() while true do end end)",
		 "t.lua:1: time limit of 0.3 s reached", "... called for the time limit's own error"},
		{"assert(string.rep('', math.maxinteger) == '' and ('x'):rep(0, 'y') == '')\nerror('done')", "t.lua:2: done",
		 "string.rep of an empty result returns at once"},
		{"local s = ('x'):rep(1e15)", "t.lua:1: string.rep: 1000000000000000 copies of 1 bytes exceed the memory "
		 "limit of 256 MiB", "string.rep beyond the memory limit is refused at once"},
		{"local x = ('('):rep(1e6):find('%b()')", "t.lua:1: string.find: this pattern over 1000000 bytes could",
		 "%b() over 1e6 bytes is refused"},
		{"local a = ('a'):rep(2e6)\nassert(not a:find(('a'):rep(1e6)..'b', 1, true))\n"
		 "assert(a:find(('a'):rep(1e6)) == 1)\nerror('done')", "t.lua:4: done",
		 "find of a plain 1e6-byte needle is a linear search"},
		{"local x = ('b'):rep(1e5):find('['..('a'):rep(2e5)..']')", "t.lua:1: string.find: this pattern over 100000",
		 "a 2e5-byte set over 1e5 bytes is refused"},
		{"local x = ('a'):rep(2e6):match(('a'):rep(1e6)..'b')", "t.lua:1: string.match: this pattern over 2000000",
		 "a 1e6-byte literal pattern in match is refused"},
		{"local t = {}\nfor i = 1, 2e5 do t[i] = -i end\ntable.sort(t)", "t.lua:3: table.sort: more than",
		 "table.sort of more than the limit's share of 2^22 elements is refused"},
		{"local t = {}\nfor i = 1, 1e6 do t[i] = 'x' end\nwhile true do collectgarbage() end",
		 "time limit of 0.3 s reached", "a loop of long library calls looks at the clock at each"},
		{"setmetatable('', {})", "t.lua:1: bad argument #1 to 'setmetatable' (table expected, got string)",
		 "an argument error of a bounded function names it and the line"},
		{"setmetatable(setmetatable({}, {__metatable = 1}), {})", "t.lua:1: cannot change a protected metatable",
		 "... and its other errors the line"},
		{"table.sort({3, 1, 'x'})", "t.lua:1: attempt to compare", "... and those of what it calls"},
	};
	lptx_opts o = {.outdir = "out", .sink = sink, .in_process = 1, .limits = {.time_ms = 300}};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		double t0 = now_s();
		int rc = run_opts("t.lua", c[i].script, strlen(c[i].script), &o);
		double s = now_s() - t0;
		if (!ok(rc == LPTX_SCRIPT && strstr(sb_str(&err), c[i].want) && s < 8, "%s (%.2f s)", c[i].what, s))
			printf("#   rc %d, got '%s'\n#   want '%s'\n", rc, sb_str(&err), c[i].want);
	}
	ok(run("assert(('x'):find('x', 2) == nil and ('abcabc'):find('ca', -4) == 3 and select(2, ('ab'):find('', 3)) == 2)\n"
	       "assert(('ab'):find('', 4) == nil and ('a.b'):find('.', 1, true) == 2 and ('a.b'):find('b', -1) == 3)\n"
	       "assert(('a\\0b'):find('\\0b') == 2 and ('aXb'):find('X', -10) == 2)") == LPTX_OK,
	   "a plain find answers as Lua's: %s", sb_str(&err));
}

static void late(void *ud, volatile int *line, strbuf *out)
{
	(void)ud;
	*line = 7;
	sb_add(out, "never handed back");
	for (;;)
		pause(); /* a C loop: no hook could stop it */
}

static void dies(void *ud, volatile int *line, strbuf *out)
{
	(void)ud, (void)line, (void)out;
	raise(SIGTERM);
}

static void prompt(void *ud, volatile int *line, strbuf *out)
{
	(void)ud;
	(void)line;
	sb_add(out, ud);
}

/* The watchdog (lsbx_fork): a child that never ends is killed at the
 * deadline, the line it left handed back; one that ends hands back its bytes. */
static void watchdog(void)
{
	strbuf res, e;
	sb_init(&res);
	sb_init(&e);
	int line = 0;
	double t0 = now_s();
	int rc = lsbx_fork(200, late, NULL, &res, &line, &e);
	double s = now_s() - t0;
	ok(rc == LSBX_FORK_LATE && line == 7 && !res.len && s < 5, "a child in an endless C loop is killed at the "
	   "deadline (%.2f s), its line handed back (%d)", s, line);
	char big[200000];
	memset(big, 'b', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	rc = lsbx_fork(5000, prompt, big, &res, &line, &e);
	ok(rc == 0 && res.len == sizeof big - 1 && !e.len, "a child that ends hands back all it wrote (%zu bytes)",
	   res.len);
	sb_reset(&e);
	rc = lsbx_fork(5000, dies, NULL, &res, &line, &e);
	ok(rc == LSBX_FORK_DIED && !strcmp(sb_str(&e), "the script's process was ended by signal 15 (Terminated)"),
	   "a child that dies says how: %s", sb_str(&e));
	lptx_opts o = {.outdir = "out", .sink = sink, .limits = {.time_ms = 300}};
	const char *cat = "local t = {}\nfor i = 1, 1e6 do t[i] = 'x' end\nwhile true do local s = table.concat(t) end\n";
	t0 = now_s();
	rc = run_opts("t.lua", cat, strlen(cat), &o);
	s = now_s() - t0;
	ok(rc == LPTX_SCRIPT && strstr(sb_str(&err), "time limit of 0.3 s reached (an endless loop?)") && s < 8,
	   "gen's way: a loop of long unbounded calls ends at the limit (%.2f s): %s", s, sb_str(&err));
	sb_free(&res);
	sb_free(&e);
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
	alarm(60); /* a limit that fails to hold fails the test, not hangs it */
	sb_init(&files);
	sb_init(&report);
	sb_init(&err);
	binary();
	libraries();
	limits();
	escapes();
	watchdog();
	errors();
	sb_free(&files);
	sb_free(&report);
	sb_free(&err);
	return tap_done();
}
