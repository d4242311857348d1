/* measure: time candidate launches of one problem on the GPU, for measured
 * plans (PTXPOSE_PLAN_MEASURE; lib/api_measure.c chooses the candidates and
 * keeps the winner).
 *
 * Scratch buffers of the problem's sizes, whose pointers have the alignment
 * the plan is made for (allocated with slack, then offset), and a private
 * non-blocking stream: no caller's memory or stream is touched. For each
 * candidate, in the order given (the model's, best first): `prepare` (the
 * JIT link, counted in the budget), one warm-up launch between two events,
 * then MEASURE_RUNS runs of K back-to-back launches between two events, K
 * such that a run lasts about MEASURE_RUN_US (1 for long kernels, at most
 * MEASURE_K_MAX), so that the launches queue up and launch latency stays out
 * of the figure, as in a CUDA graph; a candidate's time is the median run
 * over K. Work stops when the budget (wall clock, from the call) is spent:
 * no new candidate starts, and one under way stops after its current run;
 * the first candidate is always timed, with one run at least. */
#ifndef LIB_MEASURE_H
#define LIB_MEASURE_H

#include "loader/cu_api.h"

#define MEASURE_RUNS 5
#define MEASURE_RUN_US 50.0
#define MEASURE_K_MAX 64

typedef struct {
	const cu_fns *f;
	uint64_t in_bytes, out_bytes;   /* the problem's buffers */
	unsigned align_in, align_out;   /* what the pointers are to be aligned to (at most 256 is kept) */
	double budget_ms;
	int n;                          /* candidates */
	/* Link candidate i: PX_OK, or a failure (why in err): the candidate is skipped. */
	px_status (*prepare)(void *ud, int i, char *err, size_t errlen);
	/* Enqueue candidate i on s (no synchronization); a failure skips the candidate
	 * (a sticky error then ends the measurement at its next driver call). */
	px_status (*launch)(void *ud, int i, CUdeviceptr in, CUdeviceptr out, CUstream s, char *err, size_t errlen);
	void *ud;
} measure_job;

typedef struct {
	double us;                      /* median microseconds a launch; < 0: not timed */
	int runs, k;                    /* runs timed, launches a run */
	const char *skipped;            /* why not timed ("the budget was spent", "it did not link"); NULL */
} measure_time;

/* Time the job's candidates into t[0..n-1]. *spent_ms: the wall clock the
 * call took. PX_OK when at least one was timed; PX_ENOMEM when the scratch
 * buffers cannot be had; PX_ECUDA (err: the driver call) when a call fails;
 * PX_EJIT when no candidate linked. */
px_status measure_run(const measure_job *j, measure_time *t, double *spent_ms, char *err, size_t errlen);

#endif
