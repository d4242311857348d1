/* lsbx_lib: the libraries a generator script gets. Lua's own, without what
 * reaches outside the process (files, processes, the environment, native
 * code, binary chunks) and with bounds on the calls that could run long in
 * C, where the time limit's instruction-count hook never fires. (gen runs
 * each script in a child process that is killed at the limit whatever it
 * does, gen/lsbx_fork.c; these bounds give the line and keep in-process
 * hosts, the fuzzer's, within theirs.)
 *
 * - string.find, match, gmatch and gsub backtrack: a pattern with r
 *   repetition items ('*', '+', '-') or balances ('%b') followed by
 *   something that can fail can take about n^(r+1) steps over n bytes, each
 *   step longer for a long pattern (a 2e5-byte set). Above 2^28 the call is
 *   refused (less under a time limit shorter than the default's, in
 *   proportion, as for table.sort): "(a-)b" over 16 KiB is allowed, over 20 KB not; "%s+" (a
 *   repetition at the end) over any length. find of a plain string (plain =
 *   true, or a pattern with no special character) is a linear search here,
 *   always allowed.
 * - string.rep of more bytes than the memory limit is refused at once, and
 *   of an empty result returns "" at once (Lua's loop would run n times).
 * - table.sort of more than 2^22 elements and table.move of more than 2^24
 *   are refused (moving nils allocates nothing, so the memory cap would not
 *   stop it; a sort compares in C).
 * - load of a text chunk over 16 MiB is refused (compiling is C).
 * - xpcall's message handler does not run once the time limit is reached
 *   (Lua runs it with hooks off, where nothing could stop it).
 * - these and the string, table and utf8 functions that take time in
 *   proportion to their arguments look at the clock before each call (a
 *   loop of them runs few instructions between two looks of the hook), and
 *   their errors name the script's line and the function.
 * - setmetatable refuses a __gc field: finalizers run with hooks off. */
#define _GNU_SOURCE /* memmem */
#include <lauxlib.h>
#include <lualib.h>
#include <string.h>

#include "gen/lsbx.h"

#define PATTERN_STEPS (UINT64_C(1) << 28) /* a few seconds of lstrlib's matcher */
#define MOVE_MAX ((lua_Integer)1 << 24)
#define SORT_MAX ((lua_Integer)1 << 22) /* a second or two of lua_lessthan */
#define LOAD_MAX (UINT64_C(16) << 20)   /* bytes: the most a script file may hold */
#define LONG_PATTERN 32                 /* pattern bytes that make a step longer */

/* The message handler of original(): an error raised by a C function that
 * a C function called (the original, from its wrapper) has no position,
 * and the original's name is '?'. Give it the script's line (the
 * wrapper's caller) and the name (upvalue 1). */
static int place(lua_State *L)
{
	lua_Debug ar;
	const char *m = lua_tostring(L, 1);
	if (!m || !lua_getstack(L, 1, &ar) || !lua_getinfo(L, "S", &ar) || *ar.what != 'C' ||
	    !lua_getstack(L, 2, &ar) || !lua_getinfo(L, "S", &ar) || *ar.what != 'C')
		return 1;
	luaL_where(L, 3);
	const char *q = strstr(m, " to '?'");
	if (q) {
		lua_pushlstring(L, m, (size_t)(q - m));
		lua_pushfstring(L, " to '%s'%s", lua_tostring(L, lua_upvalueindex(1)), q + 7);
	} else {
		lua_pushvalue(L, 1);
	}
	lua_concat(L, q ? 3 : 2);
	return 1;
}

/* Call the original function (upvalue 1 of the running C function, named by
 * upvalue 2) with this call's arguments, once the clock has been looked at;
 * its errors name the script's line and the function (upvalue 3: place). */
static int original(lua_State *L)
{
	lsbx_check_time(L);
	lua_pushvalue(L, lua_upvalueindex(3));
	lua_insert(L, 1);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 2);
	int st = lua_pcall(L, lua_gettop(L) - 2, LUA_MULTRET, 1);
	if (st == LUA_ERRMEM)
		return lsbx_memory_error(L);
	if (st != LUA_OK)
		return lua_error(L);
	return lua_gettop(L) - 1;
}

/* The index just past the set that starts at p[i] == '['. */
static size_t set_end(const char *p, size_t n, size_t i)
{
	i++;
	if (i < n && p[i] == '^')
		i++;
	if (i < n && p[i] == ']') /* a leading ']' is a member */
		i++;
	while (i < n && p[i] != ']')
		i += p[i] == '%' ? 2 : 1;
	return i < n ? i + 1 : n;
}

/* Is nothing but ')' left from p[i] on? Then a repetition before i ends the
 * pattern and never backtracks. */
static int at_end(const char *p, size_t plen, size_t i)
{
	while (i < plen && p[i] == ')')
		i++;
	return i == plen;
}

/* A bound on work in C for L's time limit: `base` for the default limit
 * or a longer one, less in proportion for a shorter one (a fuzzer's). */
static uint64_t scaled(lua_State *L, uint64_t base)
{
	unsigned ms = lsbx_time_limit(L);
	uint64_t b = ms >= LSBX_TIME_DEFAULT ? base : base / LSBX_TIME_DEFAULT * ms;
	return b > base >> 10 ? b : base >> 10;
}

/* steps * f, at most PATTERN_STEPS + 1. */
static uint64_t times(uint64_t steps, uint64_t f)
{
	return steps > PATTERN_STEPS / f ? PATTERN_STEPS + 1 : steps * f;
}

/* Worst-case steps of matching pattern p against n bytes: n for every
 * try, each try 1 + plen / LONG_PATTERN long, times n for each '*', '+',
 * '-' or '%b' item and 2 for each '?' that is followed by more pattern, at
 * most PATTERN_STEPS + 1. */
static uint64_t pattern_steps(const char *p, size_t plen, size_t n)
{
	uint64_t steps = times((uint64_t)n + 1, 1 + plen / LONG_PATTERN);
	for (size_t i = 0; i < plen;) {
		size_t end;
		if (p[i] == '%' && i + 1 < plen && p[i + 1] == 'b') {
			i += 4; /* %bxy: up to n bytes at each try, even at the end */
			steps = times(steps, (uint64_t)n + 1);
			continue;
		}
		if (p[i] == '%' && i + 1 < plen && p[i + 1] == 'f') {
			i = i + 2 < plen && p[i + 2] == '[' ? set_end(p, plen, i + 2) : i + 2;
			continue;
		}
		if (p[i] == '(' || p[i] == ')' || (p[i] == '^' && i == 0)) {
			i++;
			continue;
		}
		end = p[i] == '%' ? i + 2 : p[i] == '[' ? set_end(p, plen, i) : i + 1;
		if (end < plen && strchr("*+-?", p[end]) && !at_end(p, plen, end + 1)) {
			steps = times(steps, p[end] == '?' ? 2 : (uint64_t)n + 1);
			end++;
		}
		i = end;
	}
	return steps;
}

/* Does p hold none of the pattern's special characters (lstrlib's list)? */
static int no_specials(const char *p, size_t plen)
{
	for (size_t i = 0; i < plen; i++)
		if (p[i] && strchr("^$*+?.([%-", p[i]))
			return 0;
	return 1;
}

/* string.find(s, p, init, plain) of a plain p, as lstrlib answers it, by a
 * linear search (lstrlib's takes len(s) * len(p) steps). */
static int plain_find(lua_State *L, const char *s, size_t n, const char *p, size_t plen)
{
	lua_Integer init = luaL_optinteger(L, 3, 1);
	size_t from = init > 0 ? (size_t)init : init == 0 || init < -(lua_Integer)n ? 1 : n + (size_t)init + 1;
	if (--from > n) {
		luaL_pushfail(L);
		return 1;
	}
	const char *at = plen ? memmem(s + from, n - from, p, plen) : s + from;
	if (!at) {
		luaL_pushfail(L);
		return 1;
	}
	lua_pushinteger(L, (lua_Integer)(at - s) + 1);
	lua_pushinteger(L, (lua_Integer)(at - s + plen));
	return 2;
}

/* string.find/match/gmatch/gsub through the original (upvalue 1), named
 * by upvalue 2, after the bound. */
static int bounded_pattern(lua_State *L)
{
	size_t n, plen;
	const char *s = luaL_checklstring(L, 1, &n);
	const char *p = luaL_checklstring(L, 2, &plen);
	const char *fn = lua_tostring(L, lua_upvalueindex(2));
	if (!strcmp(fn, "find") && (lua_toboolean(L, 4) || no_specials(p, plen)))
		return plain_find(L, s, n, p, plen);
	uint64_t most = scaled(L, PATTERN_STEPS);
	if (pattern_steps(p, plen, n) > most)
		return luaL_error(L, "string.%s: this pattern over %I bytes could backtrack for hours (the sandbox allows "
				  "length^(repetitions+1) up to %I; split the text, or find with plain = true)",
				  fn, (lua_Integer)n, (lua_Integer)most);
	return original(L);
}

/* table.move through the original (upvalue 1), at most MOVE_MAX elements. */
static int bounded_move(lua_State *L)
{
	lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
	if (e >= f && (f <= 0 ? e >= MOVE_MAX + f : e - f >= MOVE_MAX))
		return luaL_error(L, "table.move: more than %I elements (the sandbox's limit)", MOVE_MAX);
	return original(L);
}

/* table.sort through the original (upvalue 1), at most SORT_MAX elements. */
static int bounded_sort(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_Integer most = (lua_Integer)scaled(L, SORT_MAX);
	if (luaL_len(L, 1) > most)
		return luaL_error(L, "table.sort: more than %I elements (the sandbox's limit)", most);
	return original(L);
}

/* string.rep(s, n [, sep]) through the original (upvalue 1): "" at once
 * for an empty result, refused beyond the memory limit. */
static int bounded_rep(lua_State *L)
{
	size_t l, lsep;
	luaL_checklstring(L, 1, &l);
	lua_Integer n = luaL_checkinteger(L, 2);
	luaL_optlstring(L, 3, "", &lsep);
	if (n <= 0 || (l == 0 && lsep == 0)) {
		lua_pushliteral(L, "");
		return 1;
	}
	size_t cap = lsbx_mem_limit(L);
	if ((uint64_t)n > cap / (l + lsep ? l + lsep : 1))
		return luaL_error(L, "string.rep: %I copies of %I bytes exceed the memory limit of %I MiB", n,
				  (lua_Integer)(l + lsep), (lua_Integer)(cap >> 20));
	return original(L);
}

/* The message handler of xpcall (upvalue 1), unless the time limit has
 * been reached: then the message as it is. */
static int guarded_handler(lua_State *L)
{
	if (lsbx_stopped(L))
		return lua_gettop(L) ? 1 : 0;
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
	return lua_gettop(L);
}

/* xpcall(f, msgh, ...) with msgh guarded. */
static int guarded_xpcall(lua_State *L)
{
	luaL_checktype(L, 2, LUA_TFUNCTION);
	lua_pushvalue(L, 2);
	lua_pushcclosure(L, guarded_handler, 1);
	lua_replace(L, 2);
	return original(L);
}

/* load(chunk [, name [, mode [, env]]]) with the mode always "t", a text
 * chunk at most LOAD_MAX bytes (scaled: compiling is C). */
static int text_load(lua_State *L)
{
	uint64_t most = scaled(L, LOAD_MAX);
	if (lua_type(L, 1) == LUA_TSTRING && luaL_len(L, 1) > (lua_Integer)most)
		return luaL_error(L, "load: a chunk of %I bytes (the sandbox allows %I)", luaL_len(L, 1), (lua_Integer)most);
	int n = lua_gettop(L) >= 4 ? 4 : 3; /* an env given as nil is not no env */
	lua_settop(L, n);
	lua_pushliteral(L, "t");
	lua_replace(L, 3);
	return original(L);
}

/* collectgarbage without the options that change how the collector runs. */
static int safe_collectgarbage(lua_State *L)
{
	static const char *const allowed[] = {"collect", "count", "step", "isrunning", NULL};
	const char *opt = luaL_optstring(L, 1, "collect");
	for (int i = 0; allowed[i]; i++)
		if (!strcmp(opt, allowed[i]))
			return original(L);
	return luaL_error(L, "collectgarbage: option '%s' is not available to ptxpose scripts", opt);
}

/* setmetatable without __gc: Lua runs finalizers with hooks off, where the
 * time limit could not stop one. (A __gc added to a metatable later makes
 * no finalizer.) */
static int no_gc_setmetatable(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL)
			return luaL_error(L, "setmetatable: __gc metamethods are not available to ptxpose scripts");
		lua_pop(L, 1);
	}
	return original(L);
}

/* Replace field `name` of the table on top with f, which gets the original
 * as upvalue 1, the name as upvalue 2 and place() for it as upvalue 3. */
static void wrap(lua_State *L, const char *name, lua_CFunction f)
{
	lua_getfield(L, -1, name);
	lua_pushstring(L, name);
	lua_pushstring(L, name);
	lua_pushcclosure(L, place, 1);
	lua_pushcclosure(L, f, 3);
	lua_setfield(L, -2, name);
}

/* Wrap each of `names` (NULL-terminated) in the table on top with
 * original(): the clock looked at before each call, errors at the line. */
static void wrap_timed(lua_State *L, const char *const *names)
{
	for (; *names; names++)
		wrap(L, *names, original);
}

void lsbx_openlibs(lua_State *L)
{
	static const luaL_Reg libs[] = {
		{LUA_GNAME, luaopen_base}, {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table},
		{LUA_MATHLIBNAME, luaopen_math}, {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL},
	};
	for (const luaL_Reg *l = libs; l->func; l++) {
		luaL_requiref(L, l->name, l->func, 1);
		lua_pop(L, 1);
	}
	lua_pushglobaltable(L);
	lua_pushnil(L), lua_setfield(L, -2, "dofile");
	lua_pushnil(L), lua_setfield(L, -2, "loadfile");
	wrap(L, "load", text_load);
	wrap(L, "collectgarbage", safe_collectgarbage);
	wrap(L, "setmetatable", no_gc_setmetatable);
	wrap(L, "xpcall", guarded_xpcall);
	lua_getfield(L, -1, LUA_STRLIBNAME);
	static const char *const str_timed[] = {"byte", "char", "format", "lower", "reverse", "sub", "upper", NULL};
	wrap_timed(L, str_timed);
	wrap(L, "rep", bounded_rep);
	static const char *const patterns[] = {"find", "match", "gmatch", "gsub"};
	for (int i = 0; i < 4; i++)
		wrap(L, patterns[i], bounded_pattern);
	lua_pop(L, 1);
	lua_getfield(L, -1, LUA_TABLIBNAME);
	wrap(L, "move", bounded_move);
	wrap(L, "sort", bounded_sort);
	static const char *const tab_timed[] = {"concat", "insert", "remove", "unpack", NULL};
	wrap_timed(L, tab_timed);
	lua_pop(L, 1);
	lua_getfield(L, -1, LUA_UTF8LIBNAME);
	static const char *const utf8_timed[] = {"char", "codepoint", "len", "offset", NULL};
	wrap_timed(L, utf8_timed);
	lua_pop(L, 2);
}
