/* lptx: Lua bindings for the generators (`ptx.transpose`, `ptx.write`),
 * and the host: a script in the sandbox (lsbx), its files in one
 * transaction (fstx). */
#include "gen/lptx.h"

#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/fsio.h"
#include "common/fstx.h"
#include "gen/tp.h"
#include "gen/tp_family.h"
#include "loader/meta.h"

#define PENDING_KEY "ptxpose.pending" /* the texts queued, kept alive for fstx */

/* The longest kernel name: the metadata reader's limit on a value, so
 * that every name gen accepts can be read back (one number, both sides). */

/* What the bindings share: upvalue 1 of each. */
typedef struct {
	const lptx_opts *o;
	fstx *tx;
	char script[128];   /* the script's name for headers: printable, cut */
	strbuf buf;         /* a binding's text or message: owned here, as any
			     * Lua call may raise and never return */
} lptx_ctx;

static lptx_ctx *ctx_of(lua_State *L) { return lua_touserdata(L, lua_upvalueindex(1)); }

/* The context's buffer, emptied. */
static strbuf *buf_of(lua_State *L)
{
	strbuf *sb = &ctx_of(L)->buf;
	sb_reset(sb);
	return sb;
}

/* Raise "where: message" with the message in sb. */
static int raise(lua_State *L, const strbuf *sb)
{
	luaL_where(L, 1);
	lua_pushstring(L, sb_str(sb));
	lua_concat(L, 2);
	return lua_error(L);
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
			luaL_error(L, "transpose: %s = %I is outside %I..%I", key, v, lo, hi);
	}
	lua_pop(L, 1);
	return v;
}

/* Field `key` as {a, b} of integers in [lo, hi]; left as they are when absent. */
static void pair_field(lua_State *L, const char *key, long lo, long hi, long *a, long *b)
{
	lua_getfield(L, 1, key);
	if (!lua_isnil(L, -1)) {
		if (!lua_istable(L, -1) || lua_rawlen(L, -1) != 2)
			luaL_error(L, "transpose: %s must be a pair like {32, 32}", key);
		long *dst[2] = {a, b};
		for (int i = 0; i < 2; i++) {
			lua_rawgeti(L, -1, i + 1);
			int ok;
			lua_Integer v = lua_tointegerx(L, -1, &ok);
			if (!ok || v < lo || v > hi)
				luaL_error(L, "transpose: %s[%d] must be an integer from %d to %d", key, i + 1, (int)lo,
					   (int)hi);
			*dst[i] = (long)v;
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

/* Every parameter's value as read from the script (defaults where absent):
 * the i-th of tp_param_at's. */
#define MAX_PARAMS 64
typedef struct {
	long v[MAX_PARAMS][2];
} values;

static void read_param(lua_State *L, const tp_param *q, long *v)
{
	v[0] = q->def, v[1] = q->def2;
	switch (q->type) {
	case TP_P_INT:
		v[0] = (long)int_field(L, q->key, q->def, q->lo, q->hi);
		break;
	case TP_P_BOOL:
		v[0] = bool_field(L, q->key);
		break;
	case TP_P_OPTION:
		v[0] = option_field(L, q->key, q->names, (int)q->def);
		break;
	case TP_P_PAIR:
		pair_field(L, q->key, q->lo, q->hi, &v[0], &v[1]);
		break;
	}
}

static long value_of(void *ud, const tp_param *q)
{
	const values *vals = ud;
	const tp_family *owner;
	const tp_param *r;
	for (int i = 0; (r = tp_param_at(i, &owner)); i++)
		if (r == q)
			return vals->v[i][0];
	return q->def;
}

/* The name of option `key`'s value. */
static const char *option_name(values *vals, const char *key)
{
	const tp_family *owner;
	const tp_param *q = tp_param_find(key, &owner);
	return q->names[value_of(vals, q)];
}

static void check_keys(lua_State *L)
{
	lua_pushnil(L);
	while (lua_next(L, 1)) {
		const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
		const tp_family *owner;
		if (!k || (strcmp(k, "name") && !tp_param_find(k, &owner)))
			luaL_error(L, "transpose: unknown parameter '%s'", k ? k : "(not a string)");
		lua_pop(L, 1);
	}
}

/* ptx.transpose{...} -> text, meta */
static int l_transpose(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	check_keys(L);
	tp_params p;
	tp_defaults(&p);
	lua_getfield(L, 1, "name");
	size_t len = 0;
	const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
	if (!name)
		luaL_error(L, "transpose: name (the kernel's name, a string) is required");
	if (strlen(name) != len)
		luaL_error(L, "transpose: name has a NUL byte");
	if (len > META_VAL_MAX) /* one limit: tp_params.name holds a metadata value */
		luaL_error(L, "transpose: name is longer than %d characters (the metadata's limit)", META_VAL_MAX);
	strcpy(p.name, name);
	lua_pop(L, 1);
	static values vals; /* the generator is single-threaded */
	const tp_param *q;
	const tp_family *owner;
	int n = 0;
	for (; n < MAX_PARAMS && (q = tp_param_at(n, &owner)); n++)
		read_param(L, q, vals.v[n]);
	tp_use(&p, tp_family_choose(value_of, &vals));
	for (int i = 0; i < n; i++)
		tp_set2(&p, tp_param_at(i, &owner)->key, vals.v[i][0], vals.v[i][1]);
	snprintf(p.script, sizeof p.script, "%s", ctx_of(L)->script);
	strbuf *out = buf_of(L);
	char err[256];
	if (tp_generate(&p, out, err, sizeof err))
		return luaL_error(L, "transpose %s: %s", p.name, err);
	if (out->oom)
		return luaL_error(L, "transpose %s: out of memory", p.name);
	lua_pushlstring(L, sb_str(out), out->len);
	lua_createtable(L, 0, 8);
	lua_pushstring(L, p.name), lua_setfield(L, -2, "kernel");
	lua_pushinteger(L, p.elem), lua_setfield(L, -2, "elem");
	lua_pushinteger(L, p.tm), lua_setfield(L, -2, "tile_rows");
	lua_pushinteger(L, p.tn), lua_setfield(L, -2, "tile_cols");
	lua_pushinteger(L, p.tx * p.ty), lua_setfield(L, -2, "threads");
	lua_pushinteger(L, p.vec), lua_setfield(L, -2, "vec");
	lua_pushinteger(L, p.abi), lua_setfield(L, -2, "abi");
	lua_pushstring(L, option_name(&vals, "smem")), lua_setfield(L, -2, "smem");
	lua_pushstring(L, option_name(&vals, "grid")), lua_setfield(L, -2, "grid");
	lua_pushstring(L, option_name(&vals, "skinny")), lua_setfield(L, -2, "skinny");
	return 2;
}

/* ptx.write(name, text): queue a file; written after the script succeeds.
 * The name is checked here, so the error points at this call. */
static int l_write(lua_State *L)
{
	lptx_ctx *c = ctx_of(L);
	size_t nlen, tlen;
	const char *name = luaL_checklstring(L, 1, &nlen);
	const char *text = luaL_checklstring(L, 2, &tlen);
	strbuf *e = buf_of(L);
	sb_add(e, "write: ");
	int skip = fstx_name(name, nlen, e);
	if (skip < 0)
		return raise(L, e);
	const char *path = lua_pushfstring(L, "%s/%s", c->o->outdir, name + skip);
	struct stat st;
	if (!c->o->sink && !stat(path, &st)) {
		if (!S_ISREG(st.st_mode))
			luaL_error(L, "write: %s is there and is not a regular file", path);
		if (!c->o->force && !fs_is_generated(path))
			luaL_error(L, "write: %s exists and was not generated by ptxpose; move it away or pass --force",
				   path);
	}
	lua_getfield(L, LUA_REGISTRYINDEX, PENDING_KEY); /* keep the text alive until the commit */
	lua_pushvalue(L, 2);
	lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
	lua_pop(L, 1);
	e = buf_of(L);
	sb_add(e, "write: ");
	if (fstx_add(c->tx, name, nlen, text, tlen, e))
		return raise(L, e);
	return 1; /* the path */
}

/* ptx.transpose and ptx.write: sorted, as luaL_Reg tables are. */
static const luaL_Reg ptx_funcs[] = {
	{"transpose", l_transpose},
	{"write", l_write},
	{NULL, NULL},
};

/* lsbx's setup: the `ptx` module, its functions sharing the context. */
static int open_ptx(lua_State *L)
{
	lptx_ctx *c = lua_touserdata(L, 1);
	lua_newtable(L);
	lua_setfield(L, LUA_REGISTRYINDEX, PENDING_KEY);
	luaL_newlibtable(L, ptx_funcs);
	lua_pushlightuserdata(L, c);
	luaL_setfuncs(L, ptx_funcs, 1);
	lua_pushstring(L, c->script);
	lua_setfield(L, -2, "script");
	lua_pushstring(L, c->o->outdir);
	lua_setfield(L, -2, "outdir");
	lua_setglobal(L, "ptx");
	return 0;
}

/* Hand the files to the caller's sink, in name order. */
static int to_sink(const lptx_opts *o, const fstx *tx, strbuf *report, strbuf *err)
{
	for (int i = 0; i < fstx_count(tx); i++) {
		size_t len;
		const char *data = fstx_data(tx, i, &len);
		if (o->sink(o->sink_ud, fstx_path(tx, i), data, len)) {
			sb_printf(err, "cannot write %s", fstx_path(tx, i));
			return LPTX_IO;
		}
		sb_printf(report, "wrote %s\n", fstx_path(tx, i));
	}
	return LPTX_OK;
}

/* One run's script and options, for the process that runs it. */
typedef struct {
	const char *name, *text;
	size_t len;
	const lptx_opts *o;
} lptx_job;

/* The result of a run as bytes, from the process that ran the script to
 * the one that writes: the code, the message, then each file's name and
 * bytes, every field a length, its bytes and a NUL (a file's bytes reach
 * the sink NUL-terminated, as Lua's strings are). */
static void put(strbuf *out, const char *s, size_t n)
{
	sb_addn(out, (const char *)&n, sizeof n);
	sb_addn(out, s, n);
	sb_addc(out, '\0');
}

static void put_int(strbuf *out, int v)
{
	char s[16];
	put(out, s, (size_t)snprintf(s, sizeof s, "%d", v));
}

/* The next field of in, or NULL when in is cut short. */
static const char *get(const char **in, const char *end, size_t *n)
{
	if ((size_t)(end - *in) < sizeof *n)
		return NULL;
	memcpy(n, *in, sizeof *n);
	*in += sizeof *n;
	if (*n >= (size_t)(end - *in) || (*in)[*n])
		return NULL;
	const char *s = *in;
	*in += *n + 1;
	return s;
}

static int get_int(const char **in, const char *end, int *v)
{
	size_t n;
	const char *s = get(in, end, &n);
	char buf[16];
	if (!s || !n || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*v = atoi(buf);
	return 0;
}

/* Run the script here, under the sandbox's limits; its result into out. */
static void run_script(void *ud, volatile int *line, strbuf *out)
{
	const lptx_job *j = ud;
	const lptx_opts *o = j->o;
	lptx_ctx c = {.o = o, .tx = fstx_new(o->outdir)};
	size_t k = 0;
	for (; j->name[k] && k + 1 < sizeof c.script; k++) /* the header is a comment line: no control characters */
		c.script[k] = (unsigned char)j->name[k] < 0x20 || j->name[k] == 0x7f ? '?' : j->name[k];
	c.script[k] = '\0';
	lsbx_limits lim = o->limits;
	lim.line = line;
	lsbx *b = lsbx_new(&lim);
	strbuf err;
	sb_init(&err);
	int rc = LPTX_OK;
	if (!c.tx || !b) {
		sb_add(&err, "out of memory");
		rc = LPTX_IO;
	} else if (lsbx_run(b, open_ptx, &c, j->name, j->text, j->len, o->verbose, &err)) {
		rc = LPTX_SCRIPT;
	}
	put_int(out, rc);
	put(out, sb_str(&err), err.len);
	put_int(out, rc == LPTX_OK ? fstx_count(c.tx) : 0);
	for (int i = 0; rc == LPTX_OK && i < fstx_count(c.tx); i++) {
		size_t len;
		const char *data = fstx_data(c.tx, i, &len);
		put(out, fstx_base(c.tx, i), strlen(fstx_base(c.tx, i)));
		put(out, data, len);
	}
	lsbx_free(b); /* the texts fstx points at live in the state */
	fstx_free(c.tx);
	sb_free(&c.buf);
	sb_free(&err);
}

/* Read a run's result (run_script's out), then write its files. */
static int finish(const strbuf *res, const lptx_opts *o, strbuf *report, strbuf *err)
{
	const char *in = sb_str(res), *end = in + res->len, *msg;
	size_t n;
	int rc, count;
	if (get_int(&in, end, &rc) || !(msg = get(&in, end, &n)) || get_int(&in, end, &count)) {
		sb_add(err, res->oom ? "out of memory" : "the script's process handed back a damaged result");
		return LPTX_IO;
	}
	if (rc != LPTX_OK) {
		sb_addn(err, msg, n);
		return rc;
	}
	fstx *tx = fstx_new(o->outdir);
	rc = tx ? LPTX_OK : LPTX_IO;
	for (int i = 0; rc == LPTX_OK && i < count; i++) {
		size_t nlen, dlen;
		const char *name = get(&in, end, &nlen), *data = name ? get(&in, end, &dlen) : NULL;
		if (!data) {
			sb_add(err, "the script's process handed back a damaged result");
			rc = LPTX_IO;
		} else if (fstx_add(tx, name, nlen, data, dlen, err)) {
			rc = LPTX_IO;
		}
	}
	if (!tx)
		sb_add(err, "out of memory");
	else if (rc != LPTX_OK)
		;
	else if (o->sink)
		rc = to_sink(o, tx, report, err);
	else if (fstx_commit(tx, err))
		rc = LPTX_IO;
	else
		for (int i = 0; i < fstx_count(tx); i++)
			sb_printf(report, "%s %s\n", fstx_changed(tx, i) ? "wrote" : "unchanged", fstx_path(tx, i));
	fstx_free(tx);
	return rc;
}

int lptx_run_text(const char *name, const char *text, size_t len, const lptx_opts *o, strbuf *report,
		  strbuf *err)
{
	lptx_job j = {.name = name, .text = text, .len = len, .o = o};
	strbuf res;
	sb_init(&res);
	int rc = 0, line = 0;
	if (o->in_process)
		run_script(&j, NULL, &res);
	else
		rc = lsbx_fork(o->limits.time_ms ? o->limits.time_ms : LSBX_TIME_DEFAULT, run_script, &j, &res, &line, err);
	if (rc == LSBX_FORK_LATE) {
		strbuf m;
		sb_init(&m);
		if (line > 0)
			sb_printf(&m, "%s:%d: ", name, line);
		else
			sb_printf(&m, "%s: ", name);
		sb_printf(&m, LSBX_TIME_FMT, (o->limits.time_ms ? o->limits.time_ms : LSBX_TIME_DEFAULT) / 1000.0);
		sb_add_esc(err, sb_str(&m), m.len, NULL);
		sb_free(&m);
		rc = LPTX_SCRIPT;
	} else if (rc == LSBX_FORK_DIED) {
		strbuf m;
		sb_init(&m);
		sb_printf(&m, "%s: %s", name, sb_str(err));
		sb_reset(err);
		sb_add_esc(err, sb_str(&m), m.len, NULL);
		sb_free(&m);
		rc = LPTX_SCRIPT;
	} else {
		rc = rc ? LPTX_IO : finish(&res, o, report, err);
	}
	sb_free(&res);
	return rc;
}

int lptx_run(const char *script, const lptx_opts *o, strbuf *report, strbuf *err)
{
	/* the one reader of input files: a FIFO or a device is refused at once */
	char why[1024];
	size_t len = 0;
	char *text = fs_read_input(script, LPTX_SCRIPT_MAX, &len, why, sizeof why);
	if (!text) {
		sb_add(err, why);
		return LPTX_IO;
	}
	int rc = lptx_run_text(script, text, len, o, report, err);
	free(text);
	return rc;
}
