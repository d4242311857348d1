/* lsbx: the state, its memory cap and time limit, and running one script
 * (lsbx.h). The script runs in a coroutine so that, whatever it raised,
 * its stack is still there to say on which line. */
#include "gen/lsbx.h"

#include <lauxlib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define HOOK_EVERY 1000 /* instructions between looks at the clock */

struct lsbx {
	lua_State *L;
	size_t cap, used;    /* bytes the allocator may hand out, has handed out */
	int mem_hit;         /* an allocation was refused for the cap */
	unsigned time_ms;
	struct timespec deadline;
	int stopped;         /* past the deadline: every instruction raises */
	volatile int *line;  /* lsbx_limits.line */
	const char *name;    /* the script, for messages */
};

static lsbx *of(lua_State *L) { return *(lsbx **)lua_getextraspace(L); }

static void *alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	lsbx *b = ud;
	size_t old = ptr ? osize : 0; /* without ptr, osize is a type tag */
	if (!nsize) {
		free(ptr);
		b->used -= old;
		return NULL;
	}
	if (nsize > old && nsize - old > b->cap - b->used) {
		b->mem_hit = 1;
		return NULL;
	}
	void *q = realloc(ptr, nsize);
	if (q)
		b->used = b->used - old + nsize;
	return q;
}

lsbx *lsbx_new(const lsbx_limits *lim)
{
	lsbx *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->cap = lim && lim->mem_bytes ? lim->mem_bytes : LSBX_MEM_DEFAULT;
	b->time_ms = lim && lim->time_ms ? lim->time_ms : LSBX_TIME_DEFAULT;
	b->line = lim ? lim->line : NULL;
	if (!(b->L = lua_newstate(alloc, b))) {
		free(b);
		return NULL;
	}
	*(lsbx **)lua_getextraspace(b->L) = b; /* threads made later copy it */
	return b;
}

/* From now on every instruction of L raises, so that no pcall, finalizer
 * or __close handler can run on. */
static void stop(lsbx *b, lua_State *L);

void lsbx_free(lsbx *b)
{
	if (!b)
		return;
	stop(b, b->L); /* finalizers run at close: they get no time */
	lua_close(b->L);
	free(b);
}

/* "name:LINE: " of the innermost function of L that has a line. */
static void where(lua_State *L, const char *name, strbuf *sb)
{
	lua_Debug ar;
	for (int level = 0; lua_getstack(L, level, &ar); level++)
		if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
			sb_printf(sb, "%s:%d: ", ar.short_src, ar.currentline);
			return;
		}
	sb_printf(sb, "%s: ", name);
}

static int past(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

size_t lsbx_mem_limit(lua_State *L) { return of(L)->cap; }
unsigned lsbx_time_limit(lua_State *L) { return of(L)->time_ms; }
int lsbx_stopped(lua_State *L) { return of(L)->stopped; }

/* Raise the time limit's error at L's line; from now on every instruction
 * raises it too. */
static void over(lsbx *b, lua_State *L)
{
	stop(b, L);
	strbuf m;
	sb_init(&m);
	where(L, b->name, &m);
	sb_printf(&m, LSBX_TIME_FMT, b->time_ms / 1000.0);
	lua_pushstring(L, sb_str(&m));
	sb_free(&m);
	lua_error(L);
}

static void hook(lua_State *L, lua_Debug *ar)
{
	lsbx *b = of(L);
	if (b->line && !b->stopped && lua_getinfo(L, "l", ar) && ar->currentline > 0)
		*b->line = ar->currentline;
	if (b->stopped || past(&b->deadline))
		over(b, L);
}

void lsbx_check_time(lua_State *L)
{
	lsbx *b = of(L);
	if (b->stopped || (b->deadline.tv_sec && past(&b->deadline)))
		over(b, L);
}

static void stop(lsbx *b, lua_State *L)
{
	b->stopped = 1;
	lua_sethook(L, hook, LUA_MASKCOUNT, 1);
}

static void set_deadline(lsbx *b)
{
	struct timespec *d = &b->deadline;
	clock_gettime(CLOCK_MONOTONIC, d);
	d->tv_sec += b->time_ms / 1000;
	d->tv_nsec += (long)(b->time_ms % 1000) * 1000000L;
	if (d->tv_nsec >= 1000000000L)
		d->tv_sec++, d->tv_nsec -= 1000000000L;
}

static void mem_text(const lsbx *b, strbuf *sb)
{
	if (b->mem_hit)
		sb_printf(sb, "memory limit of %zu MiB reached", b->cap >> 20);
	else
		sb_add(sb, "out of memory");
}

int lsbx_memory_error(lua_State *L)
{
	lsbx *b = of(L);
	strbuf m;
	sb_init(&m);
	where(L, b->name, &m);
	mem_text(b, &m);
	lua_pushstring(L, sb_str(&m)); /* a failed push raises a memory error itself */
	sb_free(&m);
	return lua_error(L);
}

/* In the process of lsbx_fork (limits.line set): a timer at the deadline
 * makes the hook run at the script's next instruction, so that a loop of
 * long instructions (s .. s over 64 MiB) stops at its line before the
 * watchdog's kill. lua_sethook may be called from a signal handler. */
static lua_State *volatile alarmed;

static void on_alarm(int sig)
{
	(void)sig;
	if (alarmed)
		lua_sethook(alarmed, hook, LUA_MASKCOUNT, 1);
}

static void arm(lsbx *b, lua_State *co)
{
	if (!b->line)
		return;
	alarmed = co;
	struct sigaction sa = {.sa_handler = on_alarm};
	sigemptyset(&sa.sa_mask);
	struct itimerval it = {.it_value = {.tv_sec = b->time_ms / 1000, .tv_usec = (long)(b->time_ms % 1000) * 1000}};
	if (!sigaction(SIGALRM, &sa, NULL))
		setitimer(ITIMER_REAL, &it, NULL);
}

static void disarm(lsbx *b)
{
	if (!b->line)
		return;
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, NULL);
	alarmed = NULL;
}

typedef struct {
	lsbx *b;
	lua_CFunction setup;
	void *ud;
	const char *text;
	size_t len;
	int traceback;
	strbuf *err;
	int reported;       /* err holds the message */
} run_args;

/* The message for a script that failed with status st, its error object on
 * co's stack. */
static void report(run_args *a, lua_State *co, int st)
{
	lsbx *b = a->b;
	strbuf m;
	sb_init(&m);
	size_t n;
	const char *s = lua_type(co, -1) == LUA_TSTRING ? lua_tolstring(co, -1, &n) : NULL;
	if (st == LUA_ERRMEM) {
		where(co, b->name, &m);
		mem_text(b, &m);
	} else if (s) {
		sb_addn(&m, s, n);
	} else if (st == LUA_YIELD) {
		sb_printf(&m, "%s: the script yielded (scripts run to their end)", b->name);
	} else {
		where(co, b->name, &m);
		sb_printf(&m, "error object is a %s, not a message", luaL_typename(co, -1));
	}
	sb_add_esc(a->err, m.data ? m.data : "", m.len, NULL);
	sb_free(&m);
	a->reported = 1;
}

static int run(lua_State *L)
{
	run_args *a = lua_touserdata(L, 1);
	lsbx *b = a->b;
	lsbx_openlibs(L);
	lua_pushcfunction(L, a->setup);
	lua_pushlightuserdata(L, a->ud);
	lua_call(L, 1, 0);
	set_deadline(b);
	lua_sethook(L, hook, LUA_MASKCOUNT, HOOK_EVERY); /* for finalizers that run on L */
	lua_State *co = lua_newthread(L);                 /* it takes L's hook */
	const char *text = a->text;
	size_t len = a->len;
	if (len && text[0] == '#') { /* a #! line, as lua does: keep its newline */
		const char *nl = memchr(text, '\n', len);
		len -= nl ? (size_t)(nl - text) : len;
		text = nl ? nl : text + len;
	}
	int st;
	if (len >= 4 && !memcmp(text, LUA_SIGNATURE, 4)) {
		lua_pushfstring(co, "%s: a precompiled chunk; scripts are loaded as text only", b->name);
		st = LUA_ERRSYNTAX;
	} else {
		lua_pushfstring(L, "@%s", b->name);
		st = luaL_loadbufferx(co, text, len, lua_tostring(L, -1), "t");
	}
	int nres = 0;
	if (st == LUA_OK) {
		arm(b, co);
		st = lua_resume(co, L, 0, &nres);
		disarm(b);
	}
	stop(b, L); /* the script is over: no Lua code runs any more */
	stop(b, co);
	if (st == LUA_OK)
		return 0;
	report(a, co, st);
	if (a->traceback) {
		luaL_traceback(L, co, NULL, 0);
		sb_addc(a->err, '\n');
		sb_add(a->err, lua_tostring(L, -1));
	}
	return 0;
}

int lsbx_run(lsbx *b, lua_CFunction setup, void *ud, const char *name, const char *text, size_t len, int traceback,
	     strbuf *err)
{
	strbuf nm;
	sb_init(&nm);
	sb_add_esc(&nm, name, strlen(name), NULL); /* a name with a newline keeps messages on one line */
	b->name = sb_str(&nm);
	run_args a = {.b = b, .setup = setup, .ud = ud, .text = text, .len = len, .traceback = traceback, .err = err};
	lua_pushcfunction(b->L, run);
	lua_pushlightuserdata(b->L, &a);
	int st = lua_pcall(b->L, 1, 0, 0);
	if (st != LUA_OK && !a.reported) { /* the host's setup failed, or memory ran out outside the script */
		const char *m = lua_tostring(b->L, -1);
		if (st == LUA_ERRMEM || !m)
			sb_printf(err, "%s: %s", b->name, b->mem_hit ? "memory limit reached" : "out of memory");
		else
			sb_add_esc(err, m, strlen(m), NULL);
		a.reported = 1;
	}
	lua_settop(b->L, 0);
	b->name = "script";
	sb_free(&nm);
	return a.reported ? -1 : 0;
}
