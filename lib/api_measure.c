/* api_measure: measured plans (PTXPOSE_PLAN_MEASURE): the candidates the
 * model finds plausible, timed by lib/measure.c, the fastest kept; the
 * choice read from and written to the on-disk cache (common/cache.h), keyed by
 * the device, its driver, the kernel set and the problem.
 *
 * A cache entry's blob is text:
 *     ptxpose measured plan 1
 *     budget_ms B
 *     spent_ms S
 *     cand KERNEL PREDICTED_US MEASURED_US RUNS K     (one a candidate, the model's order;
 *                                                    MEASURED_US -1: not timed)
 * The winner is the fastest measured candidate; it must be a kernel of the
 * handle of the problem's width, or the entry is stale (noted, measured
 * again, rewritten). */
#include "lib/api.h"
#include "lib/api_launch.h"
#include "lib/api_measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "common/cache.h"
#include "lib/measure.h"
#include "lib/pick.h"

#define TOP 6          /* the model's best few, always candidates */
#define MAX_CANDS 12   /* with those within the unsure margin, at most */
#define BUDGET_MS 200.0
#define BLOB_HEAD "ptxpose measured plan 1\n"

/* ---- the on-disk cache ---------------------------------------------------- */

static void disk_note(void *ud, const char *msg)
{
	api_note(ud, PTXPOSE_LOG_NOTE, msg);
}

/* The handle's cache, opened for its first measured plan. */
static cache *disk(ptxpose_handle h)
{
	pthread_mutex_lock(&h->disk_lock);
	if (!h->disk_tried) {
		cache_config cfg = {.off = (h->flags & PTXPOSE_NO_CACHE) != 0, .log = disk_note, .log_ctx = h};
		h->disk = cache_open(&cfg);
		h->disk_tried = 1;
	}
	pthread_mutex_unlock(&h->disk_lock);
	return h->disk;
}

/* The key: the device (its name and SM count), compute capability, driver,
 * the kernel set, how kernels are JIT-compiled (PTXPOSE_JIT=link costs
 * registers) and launched (the PTXPOSE_GRID_MAX test knob), and the problem
 * with its pointers' alignment class. */
static void key_of(ptxpose_handle h, const model_problem *p, char *device, size_t dn, char *item, size_t in,
		   cache_key *k)
{
	const cu_devinfo *d = cu_info(h->cu);
	snprintf(device, dn, "%s (%d SMs)", d->name, d->sm_count);
	const char *jit = getenv("PTXPOSE_JIT"), *grid = getenv("PTXPOSE_GRID_MAX");
	snprintf(item, in, "jit %s grid_max %.32s elem %u rows %llu cols %llu ld_in %llu ld_out %llu batch %llu "
			   "stride_in %llu stride_out %llu align_in %u align_out %u",
		 jit && !strcmp(jit, "link") ? "link" : "whole", grid && *grid ? grid : "none", p->es,
		 (unsigned long long)p->rows,
		 (unsigned long long)p->cols, (unsigned long long)p->ld_in, (unsigned long long)p->ld_out,
		 (unsigned long long)p->batch, (unsigned long long)p->stride_in, (unsigned long long)p->stride_out,
		 p->align_in < 256 ? p->align_in : 256, p->align_out < 256 ? p->align_out : 256);
	if (p->op || p->nbd) { /* an N-d plan: what else makes its problem */
		size_t n = strlen(item);
		n += (size_t)snprintf(item + n, in - n, " op %u", p->op);
		for (unsigned b = 0; b < p->nbd && n < in; b++)
			n += (size_t)snprintf(item + n, in - n, " bd %llu/%llu/%llu", (unsigned long long)p->bd_ext[b],
					      (unsigned long long)p->bd_in[b], (unsigned long long)p->bd_out[b]);
	}
	*k = (cache_key){.device = device, .cc_major = (unsigned)d->cc_major, .cc_minor = (unsigned)d->cc_minor,
			 .driver = d->driver_version, .kernels = kreg_set_hash(h->reg), .kind = "plan", .item = item};
}

static int best_of(const api_report *r)
{
	int best = -1;
	for (int i = 0; i < r->n; i++)
		if (r->c[i].measured_us >= 0 && (best < 0 || r->c[i].measured_us < r->c[best].measured_us))
			best = i;
	return best;
}

/* A blob into r: 0, or -1 with the reason. */
static int parse_blob(const char *blob, size_t len, api_report *r, char *why, size_t wn)
{
	char *text = malloc(len + 1);
	if (!text) {
		snprintf(why, wn, "out of memory");
		return -1;
	}
	memcpy(text, blob, len);
	text[len] = '\0';
	int rc = -1, n = 0, nul = strlen(text) != len;
	for (const char *q = text; (q = strstr(q, "\ncand ")); q++)
		n++;
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	if (nul || !line || strcmp(line, "ptxpose measured plan 1"))
		snprintf(why, wn, "not a measured plan of this version");
	else if (!n || !(r->c = calloc((size_t)n, sizeof *r->c)))
		snprintf(why, wn, n ? "out of memory" : "no candidates");
	else
		rc = 0;
	while (!rc && (line = strtok_r(NULL, "\n", &save))) {
		api_cand *c = &r->c[r->n];
		int used = 0;
		if (sscanf(line, "budget_ms %lf%n", &r->budget_ms, &used) == 1 && !line[used])
			continue;
		if (sscanf(line, "spent_ms %lf%n", &r->spent_ms, &used) == 1 && !line[used])
			continue;
		if (r->n < n && sscanf(line, "cand %63[A-Za-z0-9_$%%] %lf %lf %d %d%n", c->kernel, &c->predicted_us,
				       &c->measured_us, &c->runs, &c->k, &used) == 5 && !line[used]) {
			r->n++;
			continue;
		}
		snprintf(why, wn, "a line it cannot read: '%.40s'", line);
		rc = -1;
	}
	if (!rc && (r->best = best_of(r)) < 0) {
		snprintf(why, wn, "no candidate was timed");
		rc = -1;
	}
	free(text);
	return rc;
}

static char *blob_of(const api_report *r, size_t *len)
{
	strbuf b;
	sb_init(&b);
	sb_printf(&b, BLOB_HEAD "budget_ms %.17g\nspent_ms %.17g\n", r->budget_ms, r->spent_ms);
	for (int i = 0; i < r->n; i++)
		sb_printf(&b, "cand %s %.17g %.17g %d %d\n", r->c[i].kernel, r->c[i].predicted_us, r->c[i].measured_us,
			  r->c[i].runs, r->c[i].k);
	if (b.oom) {
		sb_free(&b);
		return NULL;
	}
	*len = b.len;
	return b.data;
}

/* The cached choice for the key, as a report whose winner is a kernel of
 * this handle of the problem's width; else NULL (a miss, or noted as bad). */
static api_report *from_disk(ptxpose_handle h, cache *c, const cache_key *k, const model_problem *p, double budget_ms,
			     int *index)
{
	void *blob;
	size_t len;
	if (!cache_get(c, k, &blob, &len))
		return NULL;
	api_report *r = calloc(1, sizeof *r);
	char why[160] = "out of memory", msg[320];
	int bad = !r || parse_blob(blob, len, r, why, sizeof why);
	if (!bad) {
		*index = kreg_find(h->reg, r->c[r->best].kernel);
		if (*index < 0 || kreg_get(h->reg, *index)->mk.es != p->es) {
			snprintf(why, sizeof why, "stale: its kernel %s is not one of this handle's for %u-byte elements",
				 r->c[r->best].kernel, p->es);
			bad = 1;
		}
	}
	int timed = 0;
	for (int i = 0; !bad && i < r->n; i++)
		timed += r->c[i].measured_us >= 0;
	if (!bad && timed < r->n && r->budget_ms < budget_ms) { /* a starved measurement is not kept for good */
		snprintf(why, sizeof why, "%d of %d candidates were timed within %g ms, and %g ms are given now", timed,
			 r->n, r->budget_ms, budget_ms);
		bad = 1;
	}
	free(blob);
	if (bad) {
		snprintf(msg, sizeof msg, "cache: a measured plan for %s ignored: %s; measuring again", k->item, why);
		api_note(h, PTXPOSE_LOG_NOTE, msg);
		if (r)
			free(r->c);
		free(r);
		return NULL;
	}
	r->from_cache = 1;
	return r;
}

/* ---- measuring ------------------------------------------------------------- */

typedef struct {
	ptxpose_handle h;
	const model_problem *p;
	const pick_result *rank;
	const int *pick;              /* candidate i is rank->c[pick[i]] */
	struct ptxpose_plan_s *plans; /* their launches */
} job_ctx;

static px_status prepare(void *ud, int i, char *err, size_t errlen)
{
	job_ctx *x = ud;
	struct ptxpose_plan_s *pl = &x->plans[i];
	int index = x->rank->c[x->pick[i]].index;
	ptxpose_status st = api_fix_launch(pl, kreg_get(x->h->reg, index), x->p);
	if (!st)
		st = api_kernel_fn(x->h, index, &pl->fn);
	if (!st) {
		pl->f = x->h->cu->f;
		pl->ctx = x->h->cu->ctx;
	}
	snprintf(err, errlen, "%s", st ? ptxpose_last_error() : "");
	return st == PTXPOSE_ERR_JIT ? PX_EJIT : st == PTXPOSE_ERR_NO_MEMORY ? PX_ENOMEM : st ? PX_ECUDA : PX_OK;
}

static px_status launch(void *ud, int i, CUdeviceptr in, CUdeviceptr out, CUstream s, char *err, size_t errlen)
{
	job_ctx *x = ud;
	ptxpose_status st = api_launch(&x->plans[i], (const void *)(uintptr_t)in, (void *)(uintptr_t)out, s);
	if (!st)
		return PX_OK;
	snprintf(err, errlen, "%s", ptxpose_last_error());
	return PX_ECUDA;
}

/* The candidates: the model's best TOP and every other within its unsure
 * margin of the best, MAX_CANDS at most, in the model's order. */
static int pick_candidates(const pick_result *r, double margin, int *pick)
{
	int n = 0;
	for (int i = 0; i < r->n && n < MAX_CANDS; i++)
		if (i < TOP || r->c[i].e.us <= r->c[0].e.us * (1 + margin))
			pick[n++] = i;
	return n;
}

/* Time the candidates; the report of every one. */
static ptxpose_status measure(ptxpose_handle h, const ptxpose_desc *d, const model_problem *p,
			      const pick_result *rank, api_report **out)
{
	int pick[MAX_CANDS], n = pick_candidates(rank, h->params->unsure_margin, pick);
	job_ctx x = {h, p, rank, pick, calloc((size_t)n, sizeof *x.plans)};
	measure_time *t = calloc((size_t)n, sizeof *t);
	api_report *r = calloc(1, sizeof *r);
	if (r)
		r->c = calloc((size_t)n, sizeof *r->c);
	ptxpose_status st = x.plans && t && r && r->c ? PTXPOSE_OK : api_fail(PTXPOSE_ERR_NO_MEMORY, "out of memory");
	char err[1024];
	measure_job j = {.f = h->cu->f, .in_bytes = model_problem_in_bytes(p), .out_bytes = model_problem_out_bytes(p),
			 .align_in = p->align_in, .align_out = p->align_out,
			 .budget_ms = d->measure_budget_ms > 0 ? d->measure_budget_ms : BUDGET_MS, .n = n,
			 .prepare = prepare, .launch = launch, .ud = &x};
	px_status pst = st ? PX_OK : measure_run(&j, t, &r->spent_ms, err, sizeof err);
	if (!st && pst)
		st = api_fail_px(pst, err);
	for (int i = 0; !st && i < n; i++) {
		const pick_cand *c = &rank->c[pick[i]];
		api_cand *a = &r->c[i];
		snprintf(a->kernel, sizeof a->kernel, "%s", kreg_get(h->reg, c->index)->meta.kernel);
		a->predicted_us = c->e.us;
		a->measured_us = t[i].us;
		a->runs = t[i].runs;
		a->k = t[i].k;
		snprintf(a->skipped, sizeof a->skipped, "%s", t[i].skipped ? t[i].skipped : "");
	}
	if (!st) {
		r->n = n;
		r->budget_ms = j.budget_ms;
		r->best = best_of(r);
	}
	free(x.plans);
	free(t);
	if (st && r) {
		free(r->c);
		free(r);
		r = NULL;
	}
	*out = r;
	return st;
}

/* The model's time for kernel i alone (a choice from the cache: no ranking). */
static double predicted(ptxpose_handle h, int i, const model_problem *p, int *of_width)
{
	model_features f;
	model_estimate e;
	const kreg_kernel *k = kreg_get(h->reg, i);
	model_features_of(&h->dev, &k->mk, p, h->params, &f);
	model_estimate_of(h->params, &k->mk, &f, &e);
	*of_width = 0;
	for (int j = 0; j < kreg_count(h->reg); j++)
		*of_width += kreg_get(h->reg, j)->mk.es == p->es;
	return e.us;
}

ptxpose_status api_measure_choose(ptxpose_handle h, const ptxpose_desc *d, const model_problem *p,
				  ptxpose_plan pl, int *index)
{
	char err[512], device[320], item[1024];
	cache *c = disk(h);
	cache_key k;
	key_of(h, p, device, sizeof device, item, sizeof item, &k);
	api_report *r = c ? from_disk(h, c, &k, p, d->measure_budget_ms > 0 ? d->measure_budget_ms : BUDGET_MS, index)
			  : NULL;
	ptxpose_status st = PTXPOSE_OK;
	pick_result rank = {0};
	if (r) { /* the model is not asked to rank: a warm plan costs a file read */
		pl->info.predicted_us = predicted(h, *index, p, &pl->info.candidates);
	} else {
		px_status pst = pick_rank(h->reg, &h->dev, h->params, p, &rank, err, sizeof err);
		if (pst)
			return api_fail_px(pst, err);
		pl->info.unsure = rank.unsure;
		pl->info.candidates = rank.n;
		*index = rank.c[0].index;
		if (!(st = measure(h, d, p, &rank, &r))) {
			*index = kreg_find(h->reg, r->c[r->best].kernel);
			size_t len;
			char *blob = c ? blob_of(r, &len) : NULL;
			if (blob)
				cache_put(c, &k, blob, len);
			free(blob);
			pl->info.measure_ms = r->spent_ms;
		} else if (st == PTXPOSE_ERR_NO_MEMORY) { /* no scratch memory: the model's choice, said once */
			snprintf(err, sizeof err, "measure: %s; the plan is the cost model's", ptxpose_last_error());
			api_note(h, PTXPOSE_LOG_NOTE, err);
			st = PTXPOSE_OK;
		}
		for (int i = 0; !st && i < rank.n; i++)
			if (rank.c[i].index == *index)
				pl->info.predicted_us = rank.c[i].e.us;
		pick_free(&rank);
	}
	if (!st && r) {
		snprintf(r->method, sizeof r->method, "events around %d runs of back-to-back launches (about %.0f us a "
						      "run), the median, after one warm-up launch", MEASURE_RUNS,
			 MEASURE_RUN_US);
		pl->info.measured_us = r->c[r->best].measured_us;
		pl->info.from_cache = r->from_cache;
		for (int i = 0; i < r->n; i++)
			pl->info.timed += r->c[i].measured_us >= 0;
		pl->report = r;
	}
	return st;
}

const ptxpose_tool_report *ptxpose_tool_plan_report(ptxpose_plan p)
{
	return api_check_plan(&p) ? NULL : p->report;
}
