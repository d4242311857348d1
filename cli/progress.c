/* progress: a long phase said on stderr (progress.h). */
#include "cli/progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void cli_progress_init(cli_progress *p, const char *cmd)
{
	const char *v = getenv("PTXPOSE_PROGRESS");
	*p = (cli_progress){.cmd = cmd, .off = v && !strcmp(v, "0"), .tty = isatty(STDERR_FILENO)};
	p->start = p->last = now();
	pthread_mutex_init(&p->mu, NULL);
}

void cli_progress_step(void *ud, const char *phase, int total)
{
	cli_progress *p = ud;
	if (p->off)
		return;
	pthread_mutex_lock(&p->mu);
	if (p->phase != phase)
		p->phase = phase, p->done = 0;
	p->done++;
	p->total = total;
	double t = now();
	if (p->tty) {
		if (t - p->last >= 0.1 || p->done == total) {
			fprintf(stderr, "\rptxpose %s: %d of %d %s\033[K", p->cmd, p->done, total, phase);
			fflush(stderr);
			p->last = t;
		}
	} else if (t - p->start >= PROGRESS_QUIET_S && (!p->lines || t - p->last >= PROGRESS_EVERY_S)) {
		fprintf(stderr, "ptxpose %s: %d of %d %s (%.0f s)\n", p->cmd, p->done, total, phase, t - p->start);
		p->lines++;
		p->last = t;
	}
	pthread_mutex_unlock(&p->mu);
}

void cli_progress_end(cli_progress *p)
{
	if (!p->off && p->tty && p->phase)
		fputs("\r\033[K", stderr);
	else if (!p->off && p->lines)
		fprintf(stderr, "ptxpose %s: done in %.0f s\n", p->cmd, now() - p->start);
	pthread_mutex_destroy(&p->mu);
}
