/* lsbx: the sandbox that generator scripts run in.
 *
 * Only the base, string, table, math and utf8 libraries are opened, plus
 * what the host adds (the `ptx` module). dofile, loadfile, require and
 * package, io, os and debug do not exist; load takes text only;
 * collectgarbage offers "collect", "count", "step" and "isrunning";
 * setmetatable refuses __gc (finalizers run beyond the time limit). Memory
 * is capped through the allocator and time through an instruction-count
 * hook; library calls that could run long without executing a Lua
 * instruction are bounded too (lsbx_lib.c). Scripts are loaded as text,
 * never as precompiled chunks. Reaching a limit is an error with the
 * script's line: `my.lua:7: time limit of 10 s reached (an endless loop?)`. */
#ifndef GEN_LSBX_H
#define GEN_LSBX_H

#include <lua.h>
#include <stddef.h>

#include "common/strbuf.h"

#define LSBX_MEM_DEFAULT ((size_t)256 << 20) /* bytes */
#define LSBX_TIME_DEFAULT 10000u             /* milliseconds */

typedef struct {
	size_t mem_bytes;   /* 0: LSBX_MEM_DEFAULT */
	unsigned time_ms;   /* 0: LSBX_TIME_DEFAULT */
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

/* ---- lsbx_lib.c: the libraries, their unsafe parts removed or bounded ---- */

/* Open base, string, table, math and utf8 into L and bound them. */
void lsbx_openlibs(lua_State *L);

#endif
