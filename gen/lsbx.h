/* lsbx: the sandbox that generator scripts run in.
 *
 * Only the base, string, table, math and utf8 libraries are opened, plus
 * what the host adds (the `ptx` module). dofile, loadfile, require and
 * package, io, os and debug do not exist; load takes text only;
 * collectgarbage offers "collect", "count", "step" and "isrunning";
 * setmetatable refuses __gc (finalizers run beyond the time limit). Memory
 * is capped through the allocator and time through an instruction-count
 * hook; library calls that could run long without executing a Lua
 * instruction are bounded too (lsbx_lib.c). A host that must end whatever
 * the script does runs it in a child process with a hard deadline
 * (lsbx_fork below). Scripts are loaded as text,
 * never as precompiled chunks. Reaching a limit is an error with the
 * script's line: `my.lua:7: time limit of 10 s reached (an endless loop?)`. */
#ifndef GEN_LSBX_H
#define GEN_LSBX_H

#include <lua.h>
#include <stddef.h>

#include "common/strbuf.h"

#define LSBX_MEM_DEFAULT ((size_t)256 << 20) /* bytes */
#define LSBX_TIME_DEFAULT 10000u             /* milliseconds */
#define LSBX_TIME_FMT "time limit of %g s reached (an endless loop?)" /* seconds */

typedef struct {
	size_t mem_bytes;   /* 0: LSBX_MEM_DEFAULT */
	unsigned time_ms;   /* 0: LSBX_TIME_DEFAULT */
	volatile int *line; /* optional: where the time limit's hook leaves the
			     * line it last saw, for a watchdog's message */
} lsbx_limits;

typedef struct lsbx lsbx;

/* A fresh state under `lim` (NULL: the defaults). NULL when out of memory. */
lsbx *lsbx_new(const lsbx_limits *lim);
/* Close the state. No Lua code runs any more, finalizers included. */
void lsbx_free(lsbx *b);

/* Open the libraries, call setup(L) with `ud` as its one argument (light
 * userdata) to add the host's own, then load `text` (len bytes) as the
 * main chunk named `name` and run it to its end, all under the limits.
 * Returns 0, with the state left open for the host to read what the script
 * made, or -1 with one line in err ("name:LINE: message"; control
 * characters escaped), followed by a traceback when `traceback`. */
int lsbx_run(lsbx *b, lua_CFunction setup, void *ud, const char *name, const char *text, size_t len, int traceback,
	     strbuf *err);

/* For the libraries: the memory cap of L's state in bytes, and whether its
 * time limit has been reached (no Lua code runs any more). */
size_t lsbx_mem_limit(lua_State *L);
unsigned lsbx_time_limit(lua_State *L); /* milliseconds */
int lsbx_stopped(lua_State *L);
/* Raise the time limit's error if it has been reached: for library calls
 * that may be called often between two looks of the hook. */
void lsbx_check_time(lua_State *L);
/* Raise the memory limit's error (a string, at the script's line) after a
 * protected call that ran out of memory. */
int lsbx_memory_error(lua_State *L);

/* ---- lsbx_fork.c: a run that ends, whatever the script does ---- */

#define LSBX_FORK_GRACE_MS 250u /* past the time limit (plus a tenth of it) before the kill */
#define LSBX_FORK_LATE 1        /* lsbx_fork: the child was killed at the deadline */
#define LSBX_FORK_DIED 2        /* lsbx_fork: the child ended otherwise (a signal) */

/* What runs in the child: the script (its limits' `line` set to `line`),
 * its result appended to out. */
typedef void (*lsbx_child_fn)(void *ud, volatile int *line, strbuf *out);

/* Run fn(ud, line, out) in a child process killed, if still running, at
 * time_ms + a grace. Returns 0 with the child's `out` appended to res;
 * LSBX_FORK_LATE when it was killed, *line the script's line its hook saw
 * last (0: none); LSBX_FORK_DIED with one line in err when the child ended
 * otherwise (a signal: out of memory, say); -1 with one line in err when it
 * could not be run or heard. */
int lsbx_fork(unsigned time_ms, lsbx_child_fn fn, void *ud, strbuf *res, int *line, strbuf *err);

/* ---- lsbx_lib.c: the libraries, their unsafe parts removed or bounded ---- */

/* Open base, string, table, math and utf8 into L and bound them. */
void lsbx_openlibs(lua_State *L);

#endif
