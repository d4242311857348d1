/* fuzz_lua: any bytes as a whole gen script, run in the sandbox in this
 * process (lptx_run_text, in_process) under a 0.3 s time limit and 16 MiB:
 * whatever the script does, it must end within LIMIT_S with exit code OK or
 * SCRIPT and a one-line message. An input that runs longer has escaped the
 * sandbox's own limits (the count hook, the bounds of lsbx_lib.c), which is
 * reported as a crash here long before libFuzzer's -timeout. gen itself
 * also kills the script's process at the limit; this target looks at the
 * limits under that. */
#include <stdio.h>
#include <time.h>

#include "fuzz/fuzz.h"
#include "gen/lptx.h"

#define TIME_MS 300
#define LIMIT_S 4.0 /* the limit, the grace of an instrumented build, and more */

static int sink(void *ud, const char *path, const char *data, size_t len)
{
	(void)ud, (void)path, (void)data, (void)len;
	return 0;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	strbuf report, err;
	sb_init(&report);
	sb_init(&err);
	lptx_opts o = {.outdir = "out", .sink = sink, .in_process = 1,
		       .limits = {.mem_bytes = 16u << 20, .time_ms = TIME_MS}};
	double t0 = now_s();
	int rc = lptx_run_text("fuzz.lua", text, size, &o, &report, &err);
	double s = now_s() - t0;
	if ((rc != LPTX_OK && rc != LPTX_SCRIPT) || strchr(sb_str(&err), '\n') || s > LIMIT_S) {
		fprintf(stderr, "rc %d after %.2f s (limit %d ms), message '%s' for:\n%s\n", rc, s, TIME_MS, sb_str(&err), text);
		abort();
	}
	sb_free(&report);
	sb_free(&err);
	free(text);
	return 0;
}
