/* fuzz_api: the library's lifetimes on any bytes: a program of up to 48
 * calls (create, set a log callback, plan, execute, transpose, register,
 * destroy a plan or a handle) on 3 handle and 8 plan slots whose ids stay
 * after destroy, with log callbacks that call back into the library (plan
 * and execute, transpose, destroy a plan, destroy their own handle, make
 * and destroy another handle), on the fake driver. A model of what is live
 * says what each call must return: a live handle or plan works (a desc may
 * be refused, with one line), a destroyed one is PTXPOSE_ERR_STALE, no log
 * callback runs for a destroyed handle, and nothing hangs or touches freed
 * memory (ASan). libFuzzer; see fuzz/README.md. */
#include <cuda.h>
#include <stdio.h>

#include "fuzz/fuzz.h"
#include "include/ptxpose.h"
#include "tests/unit/api_harness.h"

#define HANDLES 3
#define PLANS 8
#define CALLS 48
#define BYTES 65536 /* each buffer: 16-byte elements, 24 x 24, batch 2 at most */

typedef struct {
	ptxpose_handle id;        /* NULL: never made */
	int live;
	unsigned action;          /* what its log callback does */
} hslot;

typedef struct {
	ptxpose_plan id;
	int live, handle;
} pslot;

static struct {
	hslot h[HANDLES];
	pslot p[PLANS];
	const uint8_t *in;
	size_t n;
	int depth;                /* callbacks within callbacks */
} S;

static ptxpose_handle keep;   /* keeps the primary context and the buffers for every input */
static CUdeviceptr buf_in, buf_out;

static unsigned byte(void)
{
	if (!S.n)
		return 0;
	S.n--;
	return *S.in++;
}

/* A refusal: a status and one line saying why. */
static void refused(ptxpose_status st)
{
	const char *e = ptxpose_last_error();
	if (st == PTXPOSE_OK || !e[0] || strchr(e, '\n')) {
		fprintf(stderr, "fuzz_api: a refusal without one line: %s: '%s'\n", ptxpose_status_string(st), e);
		abort();
	}
}

static void want(ptxpose_status st, int live)
{
	if (live ? st == PTXPOSE_ERR_STALE : st != PTXPOSE_ERR_STALE) {
		fprintf(stderr, "fuzz_api: %s, expected of a %s id: %s\n", ptxpose_status_string(st),
			live ? "live" : "destroyed", ptxpose_last_error());
		abort();
	}
	if (st)
		refused(st);
}

/* Handle i destroyed in the model: its plans with it. */
static void handle_gone(int i)
{
	S.h[i].live = 0;
	for (int k = 0; k < PLANS; k++)
		if (S.p[k].id && S.p[k].handle == i)
			S.p[k].live = 0;
}

static ptxpose_desc desc(void)
{
	static const uint32_t es[] = {1, 2, 4, 8, 16};
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	unsigned b = byte();
	d.elem_bytes = es[b % 5];
	d.rows = 1 + byte() % 24; /* small: the fake driver emulates every launch */
	d.cols = 1 + byte() % 24;
	d.batch = b & 0x80 ? 2 : 0;
	return d;
}

static void *in_ptr(void)
{
	return (void *)(uintptr_t)buf_in;
}

static void *out_ptr(void)
{
	return (void *)(uintptr_t)buf_out;
}

static void call(unsigned op);

/* The log callback: handle i's action, once a note, not too deep. */
static void on_log(void *user, unsigned kind, const char *text)
{
	int i = (int)(intptr_t)user;
	if (!S.h[i].live) { /* its queued notes go with it */
		fprintf(stderr, "fuzz_api: a log callback of handle slot %d after its destroy\n", i);
		abort();
	}
	if (!text || !(kind & (PTXPOSE_LOG_NOTE | PTXPOSE_LOG_JIT_INFO | PTXPOSE_LOG_JIT_ERROR)) || S.depth > 2)
		return;
	S.depth++;
	hslot *h = &S.h[i];
	switch (h->action % 6) {
	case 0: break;
	case 1: call(3 | (unsigned)i << 4); break;  /* plan on this handle */
	case 2: call(6 | (unsigned)i << 4); break;  /* transpose on it */
	case 3: call(1 | (unsigned)i << 4); break;  /* destroy it */
	case 4: call(4); break;                     /* destroy a plan */
	default: {                                  /* another handle, made and gone */
		ptxpose_handle o;
		if (ptxpose_create(&o, 0) || ptxpose_destroy(o))
			abort();
	}
	}
	S.depth--;
}

/* One call: the op's low nibble says which, the high one the slot. */
static void call(unsigned op)
{
	int hi = (int)(op >> 4) % HANDLES, pi = (int)(op >> 4) % PLANS;
	hslot *h = &S.h[hi];
	pslot *p = &S.p[pi];
	ptxpose_status st;
	switch (op & 15) {
	case 0: /* create (the old id kept stale only in the model) */
		if (h->live)
			break;
		if (ptxpose_create(&h->id, 0))
			abort();
		h->live = 1;
		h->action = 0;
		break;
	case 1:
		if (h->id) {
			int was = h->live;
			handle_gone(hi);
			want(ptxpose_destroy(h->id), was);
		}
		break;
	case 2:
		if (h->id) {
			h->action = byte();
			want(ptxpose_set_log(h->id, on_log, (void *)(intptr_t)hi, 1 + h->action / 6 % 7), h->live);
		}
		break;
	case 3:
		if (h->id && !(p->id && p->live)) {
			ptxpose_desc d = desc();
			ptxpose_plan id = NULL;
			int was = h->live;
			st = ptxpose_plan_create(h->id, &id, &d);
			want(st, was);
			if (!st) { /* a callback may have destroyed it already: the model learns from the call */
				*p = (pslot){id, h->live, hi};
				want(ptxpose_execute(id, in_ptr(), out_ptr(), NULL), h->live);
			}
		}
		break;
	case 4:
		if (p->id) {
			int was = p->live;
			p->live = 0;
			want(ptxpose_plan_destroy(p->id), was);
		}
		break;
	case 5:
		if (p->id)
			want(ptxpose_execute(p->id, in_ptr(), out_ptr(), NULL), p->live);
		break;
	case 6:
		if (h->id) {
			ptxpose_desc d = desc();
			int was = h->live; /* a callback may destroy it within the call */
			want(ptxpose_transpose(h->id, &d, in_ptr(), out_ptr(), NULL), was);
		}
		break;
	case 7:
		if (h->id) { /* a kernel of a new name or a replaced one: its first plan JITs (a note) */
			char ptx[320];
			unsigned k = byte() % 4;
			int len = snprintf(ptx, sizeof ptx,
					   "// ptxpose kernel=fz%u_b32 abi=2 elem=32 grid=tile tile=32x32 block=32x8\n"
					   ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry fz%u_b32(\n)\n{\n\tret;\n}\n",
					   k, k);
			want(ptxpose_register_ptx(h->id, ptx, (size_t)len, NULL), h->live);
			if (h->live && !p->live) {
				ptxpose_desc d = desc();
				char name[16];
				snprintf(name, sizeof name, "fz%u_b32", k);
				d.elem_bytes = 4;
				d.kernel = name;
				ptxpose_plan id = NULL;
				if (!ptxpose_plan_create(h->id, &id, &d))
					*p = (pslot){id, h->live, hi};
			}
		}
		break;
	default: break;
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	setenv("PTXPOSE_LIBCUDA", API_FAKE_DRIVER, 0);
	setenv("PTXPOSE_CACHE", "off", 1); /* no measured plans: never the user's cache */
	if (ptxpose_create(&keep, 0) || api_driver() || cu.alloc(&buf_in, BYTES) || cu.alloc(&buf_out, BYTES)) {
		fprintf(stderr, "fuzz_api: %s (run from the repository's root, or set PTXPOSE_LIBCUDA)\n",
			ptxpose_last_error());
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	memset(&S, 0, sizeof S);
	S.in = data;
	S.n = size;
	for (int k = 0; k < CALLS && S.n; k++)
		call(byte());
	for (int i = 0; i < HANDLES; i++) /* every id, live or stale, once more, then gone */
		if (S.h[i].id) {
			int was = S.h[i].live;
			handle_gone(i);
			S.h[i].action = 0;
			want(ptxpose_destroy(S.h[i].id), was);
		}
	for (int k = 0; k < PLANS; k++)
		if (S.p[k].id)
			want(ptxpose_execute(S.p[k].id, in_ptr(), out_ptr(), NULL), 0);
	return 0;
}
