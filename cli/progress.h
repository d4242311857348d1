/* progress: a long phase of a command said on stderr, never on stdout. On a
 * terminal, one line rewritten in place as steps end, cleared at the end.
 * Elsewhere (a pipe, a log), nothing for a phase that ends within
 * PROGRESS_QUIET_S seconds; past that, a line then and every
 * PROGRESS_EVERY_S seconds, and one when it ends. PTXPOSE_PROGRESS=0 turns
 * it off (the test suite does, so that what a test reads on stderr does not
 * hang on how long a phase took). */
#ifndef CLI_PROGRESS_H
#define CLI_PROGRESS_H

#include <pthread.h>

#define PROGRESS_QUIET_S 2.0
#define PROGRESS_EVERY_S 10.0

typedef struct {
	const char *cmd;    /* "list": lines read "ptxpose list: 40 of 185 files assembled" */
	int off, tty;
	double start, last; /* seconds (monotonic): the phase's start, the last line */
	int lines;          /* lines printed (not a terminal) */
	const char *phase;
	int done, total;
	pthread_mutex_t mu;
} cli_progress;

void cli_progress_init(cli_progress *p, const char *cmd);
/* One more of total done in phase, which names what ("files assembled";
 * ins_progress's step: ud is p). Thread-safe. */
void cli_progress_step(void *p, const char *phase, int total);
/* The end: a terminal's line cleared; elsewhere, where lines were printed, one saying so. */
void cli_progress_end(cli_progress *p);

#endif
