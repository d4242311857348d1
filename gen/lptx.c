/* lptx: Lua bindings for the generators (`ptx.transpose`, `ptx.write`). */
#include "gen/lptx.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>

#include "common/fsio.h"
#include "gen/tp.h"

#define PENDING_KEY "ptxpose.pending"
#define OPTS_KEY "ptxpose.opts"

static const lptx_opts *opts_of(lua_State *L)
{
	lua_getfield(L, LUA_REGISTRYINDEX, OPTS_KEY);
	const lptx_opts *o = lua_touserdata(L, -1);
	lua_pop(L, 1);
	return o;
}

/* Integer field `key` of the table at 1, in [lo, hi]; `def` when absent. */
static lua_Integer int_field(lua_State *L, const char *key, lua_Integer def,
			     lua_Integer lo, lua_Integer hi)
{
	lua_getfield(L, 1, key);
	lua_Integer v = def;
	if (!lua_isnil(L, -1)) {
		int ok;
		v = lua_tointegerx(L, -1, &ok);
		if (!ok)
			luaL_error(L, "transpose: %s must be an integer, got %s", key, luaL_typename(L, -1));
		if (v < lo || v > hi)
			luaL_error(L, "transpose: %s = %d is outside %d..%d", key, (int)v, (int)lo, (int)hi);
	}
	lua_pop(L, 1);
	return v;
}

/* Field `key` as {a, b} of positive integers. */
static void pair_field(lua_State *L, const char *key, unsigned *a, unsigned *b)
{
	lua_getfield(L, 1, key);
	if (!lua_isnil(L, -1)) {
		if (!lua_istable(L, -1) || lua_rawlen(L, -1) != 2)
			luaL_error(L, "transpose: %s must be a pair like {32, 32}", key);
		unsigned *dst[2] = {a, b};
		for (int i = 0; i < 2; i++) {
			lua_rawgeti(L, -1, i + 1);
			int ok;
			lua_Integer v = lua_tointegerx(L, -1, &ok);
			if (!ok || v < 1 || v > 65536)
				luaL_error(L, "transpose: %s[%d] must be an integer from 1 to 65536", key, i + 1);
			*dst[i] = (unsigned)v;
			lua_pop(L, 1);
		}
	}
	lua_pop(L, 1);
}

/* Boolean field `key` (absent = false). */
static int bool_field(lua_State *L, const char *key)
{
	lua_getfield(L, 1, key);
	if (!lua_isnil(L, -1) && !lua_isboolean(L, -1))
		luaL_error(L, "transpose: %s must be true or false, got %s", key, luaL_typename(L, -1));
	int v = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return v;
}

/* Field `key` as one of `names`; returns its index, or `def` when absent. */
static int option_field(lua_State *L, const char *key, const char *const names[], int def)
{
	lua_getfield(L, 1, key);
	int r = def;
	if (!lua_isnil(L, -1)) {
		const char *s = lua_tostring(L, -1);
		r = -1;
		for (int i = 0; s && names[i]; i++)
			if (!strcmp(names[i], s))
				r = i;
		if (r < 0) {
			luaL_Buffer buf;
			luaL_buffinit(L, &buf);
			for (int i = 0; names[i]; i++) {
				luaL_addstring(&buf, i ? ", " : "");
				luaL_addstring(&buf, names[i]);
			}
			luaL_pushresult(&buf);
			luaL_error(L, "transpose: %s must be one of %s, got '%s'", key, lua_tostring(L, -1),
				   s ? s : luaL_typename(L, -2));
		}
	}
	lua_pop(L, 1);
	return r;
}

static const char *const known_keys[] = {
	"coalesce", "elem", "grid", "group", "kw", "ld_nc", "major", "max_regs", "name", "skinny", "smem", "st_cs",
	"stages", "swizzle_mask", "threads", "tile", "vec", NULL,
};

static void check_keys(lua_State *L)
{
	lua_pushnil(L);
	while (lua_next(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
		int found = 0;
		for (int i = 0; k && known_keys[i]; i++)
			found |= !strcmp(known_keys[i], k);
		if (!found)
			luaL_error(L, "transpose: unknown parameter '%s'", k ? k : "(not a string)");
		lua_pop(L, 1);
	}
}

/* ptx.transpose{...} -> text, meta */
static int l_transpose(lua_State *L)
{
	static const char *const smem_names[] = {"none", "plain", "padded", "swizzle", NULL};
	static const char *const major_names[] = {"out", "in", NULL};
	static const char *const side_names[] = {"read", "write", NULL};
	static const char *const grid_names[] = {"tile", "linear", NULL};
	static const char *const skinny_names[] = {"no", "wide", "tall", NULL};
	luaL_checktype(L, 1, LUA_TTABLE);
	check_keys(L);
	tp_params p;
	tp_defaults(&p);
	lua_getfield(L, 1, "name");
	const char *name = lua_tostring(L, -1);
	if (!name)
		luaL_error(L, "transpose: name (the kernel's name) is required");
	if (strlen(name) >= sizeof p.name)
		luaL_error(L, "transpose: name is longer than %d characters", (int)sizeof p.name - 1);
	strcpy(p.name, name);
	lua_pop(L, 1);
	p.elem = (unsigned)int_field(L, "elem", 32, 1, 1024);
	pair_field(L, "tile", &p.tm, &p.tn);
	pair_field(L, "threads", &p.tx, &p.ty);
	p.vec = (unsigned)int_field(L, "vec", 1, 1, 64);
	p.smem = (enum tp_smem)option_field(L, "smem", smem_names, TP_SMEM_NONE);
	p.major_in = option_field(L, "major", major_names, 0);
	p.coalesce_write = option_field(L, "coalesce", side_names, 0);
	p.linear = option_field(L, "grid", grid_names, 0);
	p.swizzle_mask = (unsigned)int_field(L, "swizzle_mask", 0, 0, 1024);
	p.ld_nc = bool_field(L, "ld_nc");
	p.group = (unsigned)int_field(L, "group", 0, 0, 65535);
	p.st_cs = bool_field(L, "st_cs");
	p.max_regs = (unsigned)int_field(L, "max_regs", 0, 0, 255);
	p.skinny = (enum tp_skinny)option_field(L, "skinny", skinny_names, TP_SKINNY_NONE);
	p.kw = (unsigned)int_field(L, "kw", 0, 0, 32);
	p.stages = (unsigned)int_field(L, "stages", 0, 0, 64);
	if (p.skinny && !p.kw) { /* lanes along K: 4, or the tile's K if fewer */
		unsigned kt = p.skinny == TP_SKINNY_TALL ? p.tn : p.tm;
		p.kw = kt < 4 ? kt : 4;
	}
	lua_getglobal(L, "ptx");
	lua_getfield(L, -1, "script");
	snprintf(p.script, sizeof p.script, "%s", lua_tostring(L, -1) ? lua_tostring(L, -1) : "");
	lua_pop(L, 2);
	strbuf out;
	sb_init(&out);
	char err[256];
	if (tp_generate(&p, &out, err, sizeof err)) {
		sb_free(&out);
		return luaL_error(L, "transpose %s: %s", p.name, err);
	}
	lua_pushlstring(L, sb_str(&out), out.len);
	sb_free(&out);
	lua_createtable(L, 0, 8);
	lua_pushstring(L, p.name), lua_setfield(L, -2, "kernel");
	lua_pushinteger(L, p.elem), lua_setfield(L, -2, "elem");
	lua_pushinteger(L, p.tm), lua_setfield(L, -2, "tile_rows");
	lua_pushinteger(L, p.tn), lua_setfield(L, -2, "tile_cols");
	lua_pushinteger(L, p.tx * p.ty), lua_setfield(L, -2, "threads");
	lua_pushinteger(L, p.vec), lua_setfield(L, -2, "vec");
	lua_pushstring(L, tp_smem_name(p.smem)), lua_setfield(L, -2, "smem");
	lua_pushstring(L, p.linear ? "linear" : "tile"), lua_setfield(L, -2, "grid");
	lua_pushstring(L, skinny_names[p.skinny]), lua_setfield(L, -2, "skinny");
	return 2;
}

/* ptx.write(name, text): queue a file; written after the script succeeds. */
static int l_write(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	luaL_checkstring(L, 2);
	const lptx_opts *o = opts_of(L);
	if (!*name || strstr(name, ".."))
		luaL_error(L, "write: '%s' is not a file name inside the output folder", name);
	lua_pushfstring(L, "%s/%s", o->outdir, name);
	const char *path = lua_tostring(L, -1);
	if (!o->force && fs_exists(path) && !fs_is_generated(path))
		luaL_error(L, "write: %s exists and was not generated by ptxpose; "
			      "move it away or pass --force", path);
	lua_getfield(L, LUA_REGISTRYINDEX, PENDING_KEY);
	lua_pushvalue(L, -2);
	lua_gettable(L, -2);
	if (!lua_isnil(L, -1))
		luaL_error(L, "write: %s is written twice by this script", path);
	lua_pop(L, 1);
	lua_pushvalue(L, -2);
	lua_pushvalue(L, 2);
	lua_settable(L, -3);
	lua_pop(L, 1);
	return 1; /* the path */
}

static const luaL_Reg ptx_funcs[] = {
	{"transpose", l_transpose},
	{"write", l_write},
	{NULL, NULL},
};

static int traceback(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	luaL_traceback(L, L, msg ? msg : "(error object is not a string)", 1);
	return 1;
}

/* Write the queued files in name order; identical ones are left alone. */
static int flush(lua_State *L, strbuf *report, strbuf *err)
{
	lua_getfield(L, LUA_REGISTRYINDEX, PENDING_KEY);
	/* collect and sort the paths so output is deterministic */
	lua_newtable(L);
	int n = 0;
	lua_pushnil(L);
	while (lua_next(L, -3)) {
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		lua_rawseti(L, -3, ++n);
	}
	lua_getglobal(L, "table");
	lua_getfield(L, -1, "sort");
	lua_pushvalue(L, -3);
	lua_call(L, 1, 0);
	lua_pop(L, 1);
	for (int i = 1; i <= n; i++) {
		lua_rawgeti(L, -1, i);
		const char *path = lua_tostring(L, -1);
		lua_pushvalue(L, -1);
		lua_gettable(L, -4);
		size_t len;
		const char *text = lua_tolstring(L, -1, &len);
		size_t old_len;
		char *old = fs_read(path, &old_len);
		int same = old && old_len == len && !memcmp(old, text, len);
		free(old);
		if (!same && fs_write_atomic(path, text, len)) {
			sb_printf(err, "cannot write %s: %s", path, strerror(errno));
			lua_pop(L, 4);
			return LPTX_IO;
		}
		sb_printf(report, "%s %s\n", same ? "unchanged" : "wrote", path);
		lua_pop(L, 2);
	}
	lua_pop(L, 2);
	return LPTX_OK;
}

int lptx_run(const char *script, const lptx_opts *o, strbuf *report, strbuf *err)
{
	lua_State *L = luaL_newstate();
	if (!L) {
		sb_add(err, "cannot create a Lua state (out of memory)");
		return LPTX_IO;
	}
	luaL_openlibs(L);
	lua_pushlightuserdata(L, (void *)o);
	lua_setfield(L, LUA_REGISTRYINDEX, OPTS_KEY);
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, PENDING_KEY);
	luaL_newlib(L, ptx_funcs);
	lua_pushstring(L, script);
	lua_setfield(L, -2, "script");
	lua_pushstring(L, o->outdir);
	lua_setfield(L, -2, "outdir");
	lua_setglobal(L, "ptx");
	int rc = LPTX_OK;
	lua_pushcfunction(L, traceback);
	if (luaL_loadfile(L, script) != LUA_OK) {
		const char *m = lua_tostring(L, -1);
		sb_add(err, m ? m : "cannot load the script");
		rc = errno == ENOENT && !fs_exists(script) ? LPTX_IO : LPTX_SCRIPT;
	} else if (lua_pcall(L, 0, 0, -2) != LUA_OK) {
		const char *m = lua_tostring(L, -1);
		m = m ? m : "error";
		if (o->verbose)
			sb_add(err, m);
		else
			sb_addn(err, m, strcspn(m, "\n"));
		rc = LPTX_SCRIPT;
	} else {
		rc = flush(L, report, err);
	}
	lua_close(L);
	return rc;
}
