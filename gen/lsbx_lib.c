/* lsbx_lib: the libraries a generator script gets. Lua's own, without what
 * reaches outside the process (files, processes, the environment, native
 * code, binary chunks) and with bounds on the calls that could run long in
 * C, where the time limit's instruction-count hook never fires:
 *
 * - string.find, match, gmatch and gsub backtrack: a pattern with r
 *   repetition items ('*', '+', '-') followed by something that can fail
 *   can take about n^(r+1) steps over n bytes. Above 2^28 the call is
 *   refused: "(a-)b" over 16 KiB is allowed, over 20 KB not; "%s+" (a
 *   repetition at the end) over any length. find with plain = true is
 *   always allowed.
 * - table.move of more than 2^24 elements is refused (moving nils
 *   allocates nothing, so the memory cap would not stop it).
 * - setmetatable refuses a __gc field: finalizers run with hooks off. */
#include <lauxlib.h>
#include <lualib.h>
#include <string.h>

#include "gen/lsbx.h"

#define PATTERN_STEPS (UINT64_C(1) << 28) /* a few seconds of lstrlib's matcher */
#define MOVE_MAX ((lua_Integer)1 << 24)

/* Call the original function (upvalue 1) with this call's arguments. */
static int original(lua_State *L)
{
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
	return lua_gettop(L);
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

/* Worst-case steps of matching pattern p against n bytes: n for every
 * try, times n for each '*', '+' or '-' item and 2 for each '?' that is
 * followed by more pattern, at most PATTERN_STEPS + 1. */
static uint64_t pattern_steps(const char *p, size_t plen, size_t n)
{
	uint64_t steps = (uint64_t)n + 1;
	for (size_t i = 0; i < plen;) {
		size_t end;
		if (p[i] == '%' && i + 1 < plen && p[i + 1] == 'b') {
			i += 4; /* %bxy: balanced, linear */
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
			uint64_t f = p[end] == '?' ? 2 : (uint64_t)n + 1;
			steps = steps > PATTERN_STEPS / f ? PATTERN_STEPS + 1 : steps * f;
			end++;
		}
		i = end;
	}
	return steps;
}

/* string.find/match/gmatch/gsub through the original (upvalue 1), named
 * by upvalue 2, after the bound. */
static int bounded_pattern(lua_State *L)
{
	size_t n, plen;
	luaL_checklstring(L, 1, &n);
	const char *p = luaL_checklstring(L, 2, &plen);
	const char *fn = lua_tostring(L, lua_upvalueindex(2));
	int plain = !strcmp(fn, "find") && lua_toboolean(L, 4);
	if (!plain && pattern_steps(p, plen, n) > PATTERN_STEPS)
		return luaL_error(L, "string.%s: this pattern over %I bytes could backtrack for hours (the sandbox allows "
				  "length^(repetitions+1) up to 2^28; split the text, or find with plain = true)",
				  fn, (lua_Integer)n);
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

/* load(chunk [, name [, mode [, env]]]) with the mode always "t". */
static int text_load(lua_State *L)
{
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
 * as upvalue 1 and the name as upvalue 2. */
static void wrap(lua_State *L, const char *name, lua_CFunction f)
{
	lua_getfield(L, -1, name);
	lua_pushstring(L, name);
	lua_pushcclosure(L, f, 2);
	lua_setfield(L, -2, name);
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
	lua_getfield(L, -1, LUA_STRLIBNAME);
	static const char *const patterns[] = {"find", "match", "gmatch", "gsub"};
	for (int i = 0; i < 4; i++)
		wrap(L, patterns[i], bounded_pattern);
	lua_pop(L, 1);
	lua_getfield(L, -1, LUA_TABLIBNAME);
	wrap(L, "move", bounded_move);
	lua_pop(L, 2);
}
