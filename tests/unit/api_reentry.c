/* The library called back from its own log callback, and used after
 * destroy, on the fake driver (t0952: plainly, under ASan/UBSan and under
 * ThreadSanitizer, within a time limit that fails a hang):
 *   - a NOTE callback that plans, executes and destroys on the same handle
 *     (the first JIT note is made under the handle's JIT lock), from one
 *     thread and from several; one that destroys the handle itself;
 *   - the thread's last error kept across the callbacks;
 *   - plans and handles used after destroy, after 0, 62, 63 and 1000 other
 *     problems and in several orders: PTXPOSE_ERR_STALE, never freed memory;
 *   - two threads destroying one plan (one handle) at once: one wins, the
 *     other gets PTXPOSE_ERR_STALE;
 *   - ids that never were, of the other kind, or of a slot past the table:
 *     PTXPOSE_ERR_INVALID;
 *   - pointers whose spans wrap the address space: PTXPOSE_ERR_INVALID; a
 *     span that ends at 2^64, or spans that only touch, are neither wrap
 *     nor overlap. */
#include <cuda.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/ptxpose.h"
#include "tests/unit/api_harness.h"
#include "tests/unit/tap.h"

#define THREADS 4

static ptxpose_desc desc(uint32_t es, uint64_t rows, uint64_t cols, const char *kernel)
{
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = es;
	d.rows = rows;
	d.cols = cols;
	d.kernel = kernel;
	return d;
}

static void expect(ptxpose_status st, ptxpose_status want, const char *part, const char *what)
{
	if (!ok(st == want, "%s: %s", what, ptxpose_status_string(want)))
		printf("#   got %s: %s\n", ptxpose_status_string(st), ptxpose_last_error());
	has_str(ptxpose_last_error(), part, "... and says why");
}

/* ---- callbacks that call back ------------------------------------------------ */

typedef struct {
	ptxpose_handle h;
	atomic_int notes, inner_ok, inner_bad;
	int destroy;              /* destroy h at the first note */
	atomic_int late;          /* notes after that */
	CUdeviceptr in, out;      /* 64 KB each */
} reenter;

static void on_note(void *user, unsigned kind, const char *text)
{
	reenter *r = user;
	(void)kind, (void)text;
	int n = atomic_fetch_add(&r->notes, 1);
	if (r->destroy && n) /* (threads share r: no plain write) */
		atomic_fetch_add(&r->late, 1);
	if (r->destroy && !n)
		atomic_fetch_add(ptxpose_destroy(r->h) ? &r->inner_bad : &r->inner_ok, 1);
	if (r->destroy || n > 64)
		return; /* enough: the inner calls' own notes end here */
	/* a failing call (its last error must not leak out), then a plan of another
	 * width (another kernel: another JIT, another note), executed, destroyed */
	ptxpose_plan p = NULL;
	ptxpose_desc bad = desc(3, 8, 8, NULL), d = desc(2, 40, 24, NULL);
	int good = ptxpose_plan_create(r->h, &p, &bad) == PTXPOSE_ERR_INVALID && !ptxpose_plan_create(r->h, &p, &d) &&
		   !ptxpose_execute(p, (void *)(uintptr_t)r->in, (void *)(uintptr_t)r->out, NULL) &&
		   !ptxpose_transpose(r->h, &d, (void *)(uintptr_t)r->in, (void *)(uintptr_t)r->out, NULL) &&
		   !ptxpose_plan_destroy(p);
	atomic_fetch_add(good ? &r->inner_ok : &r->inner_bad, 1);
}

static void test_reentry(void)
{
	reenter r = {0};
	ptxpose_plan p;
	ptxpose_desc d = desc(4, 33, 65, NULL);
	if (!ok(!ptxpose_create(&r.h, 0) && !cu.alloc(&r.in, 65536) && !cu.alloc(&r.out, 65536), "re-entry: a handle"))
		return;
	ok(!ptxpose_set_log(r.h, on_note, &r, PTXPOSE_LOG_NOTE), "... a NOTE callback that plans on the same handle");
	ptxpose_plan_create(NULL, &p, &d); /* the last error the callbacks must leave alone */
	char before[256];
	snprintf(before, sizeof before, "%s", ptxpose_last_error());
	ok(!ptxpose_plan_create(r.h, &p, &d), "... a plan whose JIT note calls back: no deadlock (%s)", ptxpose_last_error());
	ok(r.notes > 0 && r.inner_ok > 0 && !r.inner_bad, "... %d notes, %d inner plans made and run, %d failed",
	   (int)r.notes, (int)r.inner_ok, (int)r.inner_bad);
	ok(!strcmp(ptxpose_last_error(), before), "... the caller's last error kept (%s)", ptxpose_last_error());
	ok(!ptxpose_execute(p, (void *)(uintptr_t)r.in, (void *)(uintptr_t)r.out, NULL) && !ptxpose_plan_destroy(p),
	   "... the outer plan executes");
	ok(!ptxpose_destroy(r.h), "... the handle destroyed");

	/* a callback that destroys the handle of the call that logs */
	for (int via_transpose = 0; via_transpose < 2; via_transpose++) {
		r.notes = r.inner_ok = r.inner_bad = r.late = 0;
		r.destroy = 1;
		ptxpose_status st;
		/* the JIT's info log too: a second note queued behind the first */
		if (ptxpose_create(&r.h, 0) || ptxpose_set_log(r.h, on_note, &r, PTXPOSE_LOG_NOTE | PTXPOSE_LOG_JIT_INFO))
			continue;
		p = NULL;
		if (via_transpose)
			st = ptxpose_transpose(r.h, &d, (void *)(uintptr_t)r.in, (void *)(uintptr_t)r.out, NULL);
		else
			st = ptxpose_plan_create(r.h, &p, &d);
		ok(!st && r.inner_ok == 1, "a callback that destroys the handle, from %s: the call completes",
		   via_transpose ? "transpose" : "plan_create");
		ok(!r.late, "... and the handle's queued notes are dropped: no callback after destroy (%d)", r.late);
		expect(ptxpose_destroy(r.h), PTXPOSE_ERR_STALE, "destroyed", "... the handle is stale");
		if (!via_transpose)
			expect(ptxpose_execute(p, (void *)(uintptr_t)r.in, (void *)(uintptr_t)r.out, NULL), PTXPOSE_ERR_STALE,
			       "destroyed", "... and the plan just made, gone with it");
	}
	cu.free_(r.in);
	cu.free_(r.out);
}

/* Threads that plan kernels of their own (each JIT notes) on one handle
 * whose callback plans, executes and destroys on it. */
static void *reentry_thread(void *arg)
{
	void **a = arg;
	reenter *r = a[0];
	ptxpose_plan p = NULL;
	static const char *const kernels[THREADS] = {"fast_b32", "narrow_b16", "fast_b8", "fast_b64"};
	ptxpose_desc d = desc(0, 48, 80, kernels[(intptr_t)a[1]]);
	ptxpose_kernel_info k;
	int n = 0;
	ptxpose_kernel_count(r->h, &n);
	for (int i = 0; i < n; i++)
		if (!ptxpose_kernel_get(r->h, i, &k) && !strcmp(k.name, d.kernel))
			d.elem_bytes = k.elem_bytes;
	a[2] = (void *)(intptr_t)(ptxpose_plan_create(r->h, &p, &d) ||
				  ptxpose_execute(p, (void *)(uintptr_t)r->in, (void *)(uintptr_t)r->out, NULL) ||
				  ptxpose_plan_destroy(p));
	return NULL;
}

static void test_reentry_threads(void)
{
	reenter r = {0};
	if (!ok(!ptxpose_create(&r.h, 0) && !cu.alloc(&r.in, 65536) && !cu.alloc(&r.out, 65536) &&
		!ptxpose_set_log(r.h, on_note, &r, PTXPOSE_LOG_NOTE), "threads: a handle with a calling-back log"))
		return;
	pthread_t t[THREADS];
	void *a[THREADS][3];
	int bad = 0;
	for (intptr_t i = 0; i < THREADS; i++) {
		a[i][0] = &r, a[i][1] = (void *)i, a[i][2] = (void *)1;
		bad |= pthread_create(&t[i], NULL, reentry_thread, a[i]);
	}
	for (int i = 0; i < THREADS && !bad; i++)
		bad |= pthread_join(t[i], NULL) || a[i][2];
	ok(!bad && r.inner_ok > 0 && !r.inner_bad, "... %d threads planned and ran, %d notes, %d inner plans, %d failed",
	   THREADS, (int)r.notes, (int)r.inner_ok, (int)r.inner_bad);
	ok(!ptxpose_destroy(r.h), "... destroyed");
	cu.free_(r.in);
	cu.free_(r.out);
}

/* ---- two threads destroy one id ------------------------------------------------ */

#define RACES 1000

static struct {
	pthread_barrier_t go;
	ptxpose_handle h;
	ptxpose_plan p;
	int handles, n;      /* destroy h, else p; n times */
	atomic_int won, stale, other;
} race;

static void *racer(void *arg)
{
	(void)arg;
	for (int k = 0; k < race.n; k++) {
		pthread_barrier_wait(&race.go); /* the id made */
		ptxpose_status st = race.handles ? ptxpose_destroy(race.h) : ptxpose_plan_destroy(race.p);
		atomic_fetch_add(!st ? &race.won : st == PTXPOSE_ERR_STALE ? &race.stale : &race.other, 1);
		pthread_barrier_wait(&race.go); /* both done */
	}
	return NULL;
}

/* Of two threads destroying one plan (one handle) at once, one wins and the
 * other gets PTXPOSE_ERR_STALE: never both, never a double free. Each id is
 * made, then both threads let go at it together; whether they truly meet
 * depends on the machine's load (a destroy that looked up, then dropped,
 * failed here about once in three runs under TSan on 2 busy cores). */
static void test_destroy_race(void)
{
	ptxpose_desc d = desc(4, 1, 16, NULL); /* a copy plan: quick to make */
	ptxpose_handle h;
	if (ptxpose_create(&h, 0))
		return;
	for (race.handles = 0; race.handles < 2; race.handles++) {
		int bad = 0;
		pthread_t t[2];
		race.n = race.handles ? 20 : RACES;
		race.won = race.stale = race.other = 0;
		pthread_barrier_init(&race.go, NULL, 3);
		for (int i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, racer, NULL))
				abort(); /* the barrier would wait for good */
		for (int k = 0; k < race.n; k++) {
			if (!bad)
				bad = race.handles ? ptxpose_create(&race.h, 0) : ptxpose_plan_create(h, &race.p, &d);
			pthread_barrier_wait(&race.go);
			pthread_barrier_wait(&race.go);
		}
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		pthread_barrier_destroy(&race.go);
		ok(!bad && race.won == race.n && race.stale == race.n && !race.other,
		   "two threads destroy each of %d %s: %d won, %d stale, %d other", race.n,
		   race.handles ? "handles" : "plans", (int)race.won, (int)race.stale, (int)race.other);
	}
	ptxpose_destroy(h);
}

/* ---- use after destroy --------------------------------------------------------- */

/* A handle, a plan, `problems` distinct problems through ptxpose_transpose,
 * then destroyed in `order`: the plan stale whatever happened between. */
static void stale_after(int problems, int order, CUdeviceptr in, CUdeviceptr out)
{
	ptxpose_handle h, h2 = NULL;
	ptxpose_plan p, p2 = NULL;
	ptxpose_desc d = desc(4, 16, 16, NULL);
	void *i = (void *)(uintptr_t)in, *o = (void *)(uintptr_t)out;
	if (ptxpose_create(&h, 0) || ptxpose_plan_create(h, &p, &d)) {
		ok(0, "stale: a handle and a plan (%s)", ptxpose_last_error());
		return;
	}
	int bad = 0;
	for (int k = 0; k < problems && !bad; k++) { /* past 100, single rows: copy plans, quick to make */
		ptxpose_desc dk = k < 100 ? desc(4, 1 + (uint64_t)k % 50, 2 + (uint64_t)k / 50, NULL) : desc(4, 1, (uint64_t)k, NULL);
		bad = ptxpose_transpose(h, &dk, i, o, NULL) != PTXPOSE_OK;
	}
	const char *how[] = {"handle destroyed", "plan, then handle destroyed", "another handle's plans made after",
			     "handle destroyed, the other handle's plan still runs"};
	if (order == 1)
		bad |= ptxpose_plan_destroy(p) != PTXPOSE_OK;
	if (order >= 2)
		bad |= ptxpose_create(&h2, 0) || ptxpose_plan_create(h2, &p2, &d);
	bad |= ptxpose_destroy(h) != PTXPOSE_OK;
	if (order == 2) /* the slots of the dead, taken again */
		for (int k = 0; k < 200 && !bad; k++) {
			ptxpose_plan q;
			bad = ptxpose_plan_create(h2, &q, &d) || ptxpose_plan_destroy(q);
		}
	ok(!bad, "%d problems, %s", problems, how[order]);
	expect(ptxpose_execute(p, i, o, NULL), PTXPOSE_ERR_STALE, "the plan was destroyed", "... execute the plan");
	expect(ptxpose_plan_get(p, &(ptxpose_plan_info){0}), PTXPOSE_ERR_STALE, "destroyed", "... its info");
	expect(ptxpose_plan_destroy(p), PTXPOSE_ERR_STALE, "destroyed", "... destroy it");
	expect(ptxpose_transpose(h, &d, i, o, NULL), PTXPOSE_ERR_STALE, "the handle was destroyed", "... the handle");
	if (h2) {
		ok(order != 3 || !ptxpose_execute(p2, i, o, NULL), "... the other handle's plan runs");
		ok(!ptxpose_destroy(h2), "... the other handle destroyed");
		expect(ptxpose_execute(p2, i, o, NULL), PTXPOSE_ERR_STALE, "destroyed", "... its plan stale");
	}
}

static void test_stale(void)
{
	CUdeviceptr in, out;
	if (!ok(!cu.alloc(&in, 1 << 16) && !cu.alloc(&out, 1 << 16), "stale: buffers"))
		return;
	const int problems[] = {0, 62, 63, 1000};
	for (size_t k = 0; k < sizeof problems / sizeof problems[0]; k++)
		stale_after(problems[k], 0, in, out);
	for (int order = 1; order < 4; order++)
		stale_after(63, order, in, out);

	ptxpose_handle h;
	ptxpose_plan p;
	ptxpose_desc d = desc(4, 16, 16, NULL);
	if (ptxpose_create(&h, 0) || ptxpose_plan_create(h, &p, &d))
		return;
	int local = 0;
	expect(ptxpose_execute((ptxpose_plan)&local, (void *)(uintptr_t)in, (void *)(uintptr_t)out, NULL),
	       PTXPOSE_ERR_INVALID, "not a ptxpose plan", "an address that is no plan");
	expect(ptxpose_destroy((ptxpose_handle)p), PTXPOSE_ERR_INVALID, "not a ptxpose handle (a plan)", "a plan for a handle");
	expect(ptxpose_plan_destroy((ptxpose_plan)h), PTXPOSE_ERR_INVALID, "not a ptxpose plan (a handle)", "a handle for a plan");
	expect(ptxpose_plan_get((ptxpose_plan)((uintptr_t)p + ((uintptr_t)1 << 40)), &(ptxpose_plan_info){0}),
	       PTXPOSE_ERR_INVALID, "never", "a plan's id of a later generation");
	/* ids whose slot is past the table (4 Mi slots; an id has room for 2^28) */
	const uint64_t far[] = {(uint64_t)1 << 32 | (uint64_t)(4194304 + 1) << 4 | 0xb,
				(uint64_t)1 << 32 | (uint64_t)0xfffffff << 4 | 0xb};
	for (int k = 0; k < 2; k++)
		expect(ptxpose_plan_get((ptxpose_plan)(uintptr_t)far[k], &(ptxpose_plan_info){0}), PTXPOSE_ERR_INVALID,
		       "never", k ? "an id of slot 2^28 - 1" : "an id of the slot after the table's last");

	/* ---- spans that wrap the address space ---- */
	void *low = (void *)(uintptr_t)0x1000, *high = (void *)(UINTPTR_MAX - 0xfff); /* 16x16x4 = 1024 B fit below 2^64 */
	ptxpose_desc big = desc(4, 64, 64, NULL);                                  /* 16 KB: past 2^64 from high */
	ptxpose_plan pb;
	ok(!ptxpose_plan_create(h, &pb, &big), "wrap: a plan of 16 KB a matrix");
	expect(ptxpose_execute(pb, low, high, NULL), PTXPOSE_ERR_INVALID, "out 0x", "in near 0, out's span past 2^64");
	has_str(ptxpose_last_error(), "wraps past the end of the address space", "... says it wraps");
	expect(ptxpose_execute(pb, high, low, NULL), PTXPOSE_ERR_INVALID, "in 0x", "out near 0, in's span past 2^64");
	expect(ptxpose_transpose(h, &big, low, high, NULL), PTXPOSE_ERR_INVALID, "wraps", "transpose: the same");
	/* a span that ends at 2^64 is no wrap, nor are spans that only touch an
	 * overlap: on to the stream's check (a stream of another context, so
	 * that nothing is launched at these addresses) */
	CUcontext other, popped;
	CUstream os;
	void *top = (void *)(UINTPTR_MAX - 16383); /* 64x64x4 = 16 KB: its last byte is 2^64 - 1 */
	void *mid = (void *)(uintptr_t)0x100000, *after = (void *)(uintptr_t)(0x100000 + 16384);
	if (ok(!cu.ctx_create(&other, 0, 0) && !cu.stream_create(&os, CU_STREAM_NON_BLOCKING) && !cu.pop(&popped),
	       "a stream of another context")) {
		expect(ptxpose_execute(pb, low, top, (ptxpose_stream)os), PTXPOSE_ERR_CONTEXT, "belongs to",
		       "out's span ends at 2^64: no wrap");
		expect(ptxpose_execute(pb, top, low, (ptxpose_stream)os), PTXPOSE_ERR_CONTEXT, "belongs to",
		       "in's span ends at 2^64: no wrap");
		expect(ptxpose_execute(pb, mid, after, (ptxpose_stream)os), PTXPOSE_ERR_CONTEXT, "belongs to",
		       "out right after in's last byte: no overlap");
		expect(ptxpose_execute(pb, after, mid, (ptxpose_stream)os), PTXPOSE_ERR_CONTEXT, "belongs to",
		       "in right after out's last byte: no overlap");
		expect(ptxpose_execute(pb, mid, (char *)after - 4, (ptxpose_stream)os), PTXPOSE_ERR_INVALID, "overlap",
		       "out on in's last element: overlap");
		expect(ptxpose_execute(pb, (char *)after - 4, mid, (ptxpose_stream)os), PTXPOSE_ERR_INVALID, "overlap",
		       "in on out's last element: overlap");
		expect(ptxpose_execute(pb, (char *)top - 16384, top, (ptxpose_stream)os), PTXPOSE_ERR_CONTEXT, "belongs to",
		       "in right below out, out ending at 2^64: no overlap");
		expect(ptxpose_execute(pb, (char *)top - 16380, top, (ptxpose_stream)os), PTXPOSE_ERR_INVALID, "overlap",
		       "in's last element on out's first, out ending at 2^64: overlap");
	}
	ptxpose_destroy(h);
	cu.free_(in);
	cu.free_(out);
}

int main(void)
{
	setenv("PTXPOSE_LIBCUDA", API_FAKE_DRIVER, 0);
	ptxpose_handle h;
	if (!ok(!ptxpose_create(&h, 0) && !api_driver(), "a handle and the driver (%s)", ptxpose_last_error()))
		return tap_done();
	test_reentry();
	test_reentry_threads();
	test_destroy_race();
	test_stale();
	ptxpose_destroy(h);
	return tap_done();
}
