/* The fake driver's streams, stream capture, CUDA graphs, events and model
 * clock (see libcuda.c for the rest).
 *
 * Time is a model. Every call that does work advances a device clock, an
 * event records the clock, so elapsed times are exact and tests can check
 * the arithmetic done with them:
 *   a kernel, cuMemcpyDtoD(Async) or cuMemsetD8 outside a graph:
 *       LAUNCH_US (2 us; FAKECUDA_LAUNCH_US) + bytes / bandwidth
 *   cuGraphLaunch: GRAPH_US (3 us), then for each node NODE_US (0.5 us) +
 *       bytes / bandwidth; with FAKECUDA_HICCUP=N every Nth launch takes
 *       HICCUP_US (1000 us) longer, so a median and a mean differ
 *   bandwidths (bytes read + written): a kernel 1500 GB/s (or its
 *       "fakecuda: speed=N"), a copy 2000, a copy node inside a graph 1800
 *       (FAKECUDA_COPY_NODE_GBPS: the figure that made the copy floor the
 *       faster of two), cuMemsetD8 3000, the fake cuBLAS's geam 1200.
 * The work is done once: a call or graph node identical to the one done just
 * before it, with no other write to device memory in between, would write
 * the same bytes again, so only its buffers are checked and the clock moves.
 * That keeps timing loops over big shapes cheap on the CPU.
 *
 * Capture: cuStreamBeginCapture_v2 on a stream made by cuStreamCreate;
 * kernels, cuMemcpyDtoDAsync and the fake cuBLAS's work (fakecuda_submit_host)
 * on that stream are recorded instead of run; cuStreamEndCapture makes a
 * graph of them, cuGraphInstantiateWithFlags an executable graph, and
 * cuGraphLaunch runs its nodes. While a capture is under way an allocation,
 * cuCtxSynchronize or work on the legacy stream fails
 * (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED or _IMPLICIT) and invalidates it:
 * cuStreamEndCapture then returns CUDA_ERROR_STREAM_CAPTURE_INVALIDATED.
 * Events are not modelled inside a capture (cuEventRecord refuses).
 *
 * FAKECUDA_FAIL=NAME[,NAME...]: those entry points of this file fail, with
 * CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED for cuStreamBeginCapture_v2 and
 * CUDA_ERROR_NOT_SUPPORTED for the others. Built with -DFAKECUDA_CUDA_11_0
 * (build/fakecuda/cuda11.0/), it lacks cuGraphInstantiateWithFlags, as a
 * driver before CUDA 11.4 does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake.h"

#ifdef FAKECUDA_CUDA_11_0
#define SINCE_11_4 /* hidden: not in the dynamic symbol table */
#else
#define SINCE_11_4 EXPORT
#endif

#define GRAPH_US 3.0
#define NODE_US 0.5
#define HICCUP_US 1000.0

enum { N_KERNEL, N_COPY, N_HOST };

typedef struct {
	int kind;
	fake_launch l;            /* N_KERNEL */
	CUdeviceptr dst, src;     /* N_COPY */
	size_t bytes;
	void (*fn)(void *);       /* N_HOST: the fake cuBLAS's work on a copy of its arguments */
	unsigned char arg[128];
	double host_bytes, gbps;
} node;

typedef struct {
	node *v;
	size_t n, cap;
} nodes;

typedef struct fstream {
	struct fstream *next;
	CUcontext ctx;  /* current when it was made */
	int capturing, invalid;
	nodes rec;
} fstream;

typedef struct fgraph {
	struct fgraph *next;
	int exec;  /* an executable graph (cuGraphInstantiate) */
	nodes n;
} fgraph;

static struct {
	fstream *streams;
	fgraph *graphs;
	int capturing;  /* streams being captured */
	double clock_us, launch_us, copy_node_gbps;
	unsigned long launches;
	unsigned long hiccup;
	node last;      /* the work done last, if have_last */
	int have_last;
} fs = {.launch_us = 2, .copy_node_gbps = 1800};

static double env_num(const char *name, double dflt)
{
	const char *e = getenv(name);
	return e && *e ? strtod(e, NULL) : dflt;
}

void fake_stream_init(void)
{
	fs.launch_us = env_num("FAKECUDA_LAUNCH_US", 2);
	fs.copy_node_gbps = env_num("FAKECUDA_COPY_NODE_GBPS", 1800);
	fs.hiccup = (unsigned long)env_num("FAKECUDA_HICCUP", 0);
}

/* FAKECUDA_FAIL names this entry point. */
static int failing(const char *name)
{
	const char *e = getenv("FAKECUDA_FAIL");
	size_t n = strlen(name);
	for (const char *p = e; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

void fake_advance(double overhead_us, double bytes, double gbps)
{
	fs.clock_us += overhead_us + bytes / (gbps * 1e3);
}

double fake_launch_us(void)
{
	return fs.launch_us;
}

void fake_forget(void)
{
	fs.have_last = 0;
}

static int repeated(const node *n)
{
	if (fs.have_last && !memcmp(&fs.last, n, sizeof *n))
		return 1;
	fs.last = *n;
	fs.have_last = 1;
	return 0;
}

void fake_stream_reset(void)
{
	while (fs.streams) {
		fstream *p = fs.streams;
		fs.streams = p->next;
		free(p->rec.v);
		free(p);
	}
	while (fs.graphs) {
		fgraph *p = fs.graphs;
		fs.graphs = p->next;
		free(p->n.v);
		free(p);
	}
	fs.capturing = 0;
	fake_forget();
}

CUresult fake_unsafe_in_capture(CUresult code)
{
	if (!fs.capturing)
		return CUDA_SUCCESS;
	for (fstream *p = fs.streams; p; p = p->next)
		p->invalid |= p->capturing;
	return code;
}

/* s is NULL (the legacy stream: *out NULL) or a stream made here. */
static CUresult stream_ok(CUstream s, fstream **out)
{
	*out = NULL;
	if (!s || s == CU_STREAM_LEGACY || s == CU_STREAM_PER_THREAD)
		return CUDA_SUCCESS;
	for (fstream *p = fs.streams; p; p = p->next)
		if (p == (fstream *)s) {
			*out = p;
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_HANDLE;
}

static fgraph *find_graph(void *h, int exec)
{
	for (fgraph *p = fs.graphs; p; p = p->next)
		if (p == h && p->exec == exec)
			return p;
	return NULL;
}

static CUresult drop_graph(void *h, int exec)
{
	for (fgraph **pp = &fs.graphs; *pp; pp = &(*pp)->next)
		if (*pp == h && (*pp)->exec == exec) {
			fgraph *p = *pp;
			*pp = p->next;
			free(p->n.v);
			free(p);
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_HANDLE;
}

/* Do a node's work now: a call outside a graph, or a node of a replay. */
static void run(const node *n, int in_graph)
{
	double over = in_graph ? NODE_US : fs.launch_us;
	int work = !repeated(n);
	switch (n->kind) {
	case N_KERNEL: {
		double us = fake_launch_run(&n->l, work);
		if (us >= 0)
			fs.clock_us += over + us;
		break;
	}
	case N_COPY:
		if (!fake_mapped(n->dst, n->bytes) || !fake_mapped(n->src, n->bytes)) {
			fake_fault();
			break;
		}
		if (work)
			memmove((void *)(uintptr_t)n->dst, (const void *)(uintptr_t)n->src, n->bytes);
		fake_advance(over, 2.0 * n->bytes, in_graph ? fs.copy_node_gbps : 2000);
		break;
	default:
		if (work)
			n->fn((void *)n->arg);
		fake_advance(over, n->host_bytes, n->gbps);
	}
}

/* Record n into s's capture, or run it now. */
static CUresult submit(CUstream s, const node *n)
{
	fstream *p;
	CUresult rc = stream_ok(s, &p);
	if (rc)
		return rc;
	if (p && p->capturing) {
		if (p->invalid)
			return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
		if (p->rec.n == p->rec.cap) {
			size_t cap = p->rec.cap ? 2 * p->rec.cap : 16;
			node *v = realloc(p->rec.v, cap * sizeof *v);
			if (!v)
				return CUDA_ERROR_OUT_OF_MEMORY;
			p->rec.v = v;
			p->rec.cap = cap;
		}
		p->rec.v[p->rec.n++] = *n;
		return CUDA_SUCCESS;
	}
	if (!p && (rc = fake_unsafe_in_capture(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT)))
		return rc;
	run(n, 0);
	return CUDA_SUCCESS;
}

CUresult fake_submit_launch(CUstream s, const fake_launch *l)
{
	node n;
	memset(&n, 0, sizeof n);
	n.kind = N_KERNEL;
	n.l = *l;
	return submit(s, &n);
}

/* For the fake cuBLAS: fn(copy of arg) on stream s, moving `bytes` at gbps. */
EXPORT CUresult fakecuda_submit_host(CUstream s, void (*fn)(void *), const void *arg, size_t size, double bytes,
				     double gbps)
{
	FAKE_LOCKED;
	CUresult rc = fake_ready();
	node n;
	if (rc)
		return rc;
	if (size > sizeof n.arg)
		return CUDA_ERROR_INVALID_VALUE;
	memset(&n, 0, sizeof n);
	n.kind = N_HOST;
	n.fn = fn;
	memcpy(n.arg, arg, size);
	n.host_bytes = bytes;
	n.gbps = gbps;
	return submit(s, &n);
}

EXPORT CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr d, CUdeviceptr src, size_t bytes, CUstream s)
{
	FAKE_LOCKED;
	CUresult rc = fake_ready();
	if (rc)
		return rc;
	if (failing("cuMemcpyDtoDAsync_v2"))
		return CUDA_ERROR_NOT_SUPPORTED;
	if (!fake_mapped(d, bytes) || !fake_mapped(src, bytes))
		return CUDA_ERROR_INVALID_VALUE;
	node n;
	memset(&n, 0, sizeof n);
	n.kind = N_COPY;
	n.dst = d;
	n.src = src;
	n.bytes = bytes;
	return submit(s, &n);
}

/* ---- streams and capture ---- */

EXPORT CUresult cuStreamCreate(CUstream *out, unsigned flags)
{
	FAKE_LOCKED;
	CUresult rc = fake_ready();
	if (rc)
		return rc;
	if (failing("cuStreamCreate"))
		return CUDA_ERROR_NOT_SUPPORTED;
	if (flags & ~(unsigned)CU_STREAM_NON_BLOCKING)
		return CUDA_ERROR_INVALID_VALUE;
	fstream *p = calloc(1, sizeof *p);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	p->ctx = fake_current();
	p->next = fs.streams;
	fs.streams = p;
	*out = (CUstream)p;
	return CUDA_SUCCESS;
}

/* Work runs when it is submitted: a valid stream is always idle. */
EXPORT CUresult cuStreamSynchronize(CUstream s)
{
	FAKE_LOCKED;
	fstream *p;
	CUresult rc = fake_ready();
	return rc ? rc : stream_ok(s, &p);
}

EXPORT CUresult cuStreamGetCtx(CUstream s, CUcontext *c)
{
	FAKE_LOCKED;
	fstream *p;
	CUresult rc = fake_ready();
	if (!rc)
		rc = stream_ok(s, &p);
	if (!rc)
		*c = p ? p->ctx : fake_current();
	return rc;
}

EXPORT CUresult cuStreamDestroy_v2(CUstream s)
{
	FAKE_LOCKED;
	if (failing("cuStreamDestroy_v2"))
		return CUDA_ERROR_NOT_SUPPORTED;
	for (fstream **pp = &fs.streams; *pp; pp = &(*pp)->next)
		if (*pp == (fstream *)s) {
			fstream *p = *pp;
			*pp = p->next;
			fs.capturing -= p->capturing;
			free(p->rec.v);
			free(p);
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_HANDLE;
}

EXPORT CUresult cuStreamBeginCapture_v2(CUstream s, CUstreamCaptureMode mode)
{
	FAKE_LOCKED;
	fstream *p;
	CUresult rc = fake_ready();
	if (rc)
		return rc;
	if (failing("cuStreamBeginCapture_v2") || !s)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	if ((rc = stream_ok(s, &p)))
		return rc;
	if (p->capturing)
		return CUDA_ERROR_ILLEGAL_STATE;
	if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
	    mode != CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	p->capturing = 1;
	p->invalid = 0;
	p->rec.n = 0;
	fs.capturing++;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamEndCapture(CUstream s, CUgraph *out)
{
	FAKE_LOCKED;
	fstream *p;
	*out = NULL;
	CUresult rc = stream_ok(s, &p);
	if (rc || !p)
		return rc ? rc : CUDA_ERROR_ILLEGAL_STATE;
	if (!p->capturing)
		return CUDA_ERROR_ILLEGAL_STATE;
	p->capturing = 0;
	fs.capturing--;
	if (p->invalid || failing("cuStreamEndCapture")) {
		p->rec.n = 0;
		return p->invalid ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED : CUDA_ERROR_NOT_SUPPORTED;
	}
	if ((rc = fake_ready()))
		return rc;
	fgraph *gr = calloc(1, sizeof *gr);
	if (!gr)
		return CUDA_ERROR_OUT_OF_MEMORY;
	gr->n = p->rec;
	memset(&p->rec, 0, sizeof p->rec);
	gr->next = fs.graphs;
	fs.graphs = gr;
	*out = (CUgraph)gr;
	return CUDA_SUCCESS;
}

/* ---- graphs ---- */

SINCE_11_4 CUresult cuGraphInstantiateWithFlags(CUgraphExec *out, CUgraph graph, unsigned long long flags)
{
	FAKE_LOCKED;
	CUresult rc = fake_ready();
	if (rc)
		return rc;
	if (failing("cuGraphInstantiateWithFlags"))
		return CUDA_ERROR_NOT_SUPPORTED;
	fgraph *src = find_graph(graph, 0);
	if (!src)
		return CUDA_ERROR_INVALID_HANDLE;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	fgraph *e = calloc(1, sizeof *e);
	if (!e || (src->n.n && !(e->n.v = malloc(src->n.n * sizeof *e->n.v)))) {
		free(e);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (src->n.n)
		memcpy(e->n.v, src->n.v, src->n.n * sizeof *e->n.v);
	e->n.n = e->n.cap = src->n.n;
	e->exec = 1;
	e->next = fs.graphs;
	fs.graphs = e;
	*out = (CUgraphExec)e;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuGraphLaunch(CUgraphExec exec, CUstream s)
{
	FAKE_LOCKED;
	fstream *p;
	CUresult rc = fake_ready();
	if (rc)
		return rc;
	if (failing("cuGraphLaunch"))
		return CUDA_ERROR_NOT_SUPPORTED;
	fgraph *e = find_graph(exec, 1);
	if (!e)
		return CUDA_ERROR_INVALID_HANDLE;
	if ((rc = stream_ok(s, &p)))
		return rc;
	if (p && p->capturing)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED; /* child graphs are not modelled */
	if (!p && (rc = fake_unsafe_in_capture(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT)))
		return rc;
	fs.launches++;
	fs.clock_us += GRAPH_US + (fs.hiccup && fs.launches % fs.hiccup == 0 ? HICCUP_US : 0);
	for (size_t k = 0; k < e->n.n && !fake_ready(); k++)
		run(&e->n.v[k], 1);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuGraphExecDestroy(CUgraphExec exec)
{
	FAKE_LOCKED;
	return failing("cuGraphExecDestroy") ? CUDA_ERROR_NOT_SUPPORTED : drop_graph(exec, 1);
}

EXPORT CUresult cuGraphDestroy(CUgraph graph)
{
	FAKE_LOCKED;
	return failing("cuGraphDestroy") ? CUDA_ERROR_NOT_SUPPORTED : drop_graph(graph, 0);
}

/* ---- events: stamps of the model clock ---- */

EXPORT CUresult cuEventCreate(CUevent *e, unsigned flags)
{
	FAKE_LOCKED;
	CUresult rc = fake_ready();
	if (rc)
		return rc;
	*e = calloc(1, sizeof(double) * 2);
	return *e ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

EXPORT CUresult cuEventRecord(CUevent e, CUstream s)
{
	FAKE_LOCKED;
	fstream *p;
	CUresult rc = fake_ready();
	if (rc || (rc = stream_ok(s, &p)))
		return rc;
	if (p && p->capturing)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED; /* event nodes are not modelled */
	if (!p && (rc = fake_unsafe_in_capture(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT)))
		return rc;
	((double *)e)[0] = fs.clock_us;
	((double *)e)[1] = 1; /* recorded */
	return CUDA_SUCCESS;
}

/* Work here runs when enqueued, so a wait has nothing to order; the stream and event are checked. */
EXPORT CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags)
{
	FAKE_LOCKED;
	fstream *p;
	CUresult rc = fake_ready();
	if (rc || (rc = stream_ok(s, &p)))
		return rc;
	return e && ((double *)e)[1] != 0 && !flags ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

EXPORT CUresult cuEventSynchronize(CUevent e)
{
	FAKE_LOCKED;
	return fake_ready();
}

EXPORT CUresult cuEventDestroy_v2(CUevent e)
{
	FAKE_LOCKED;
	free(e);
	return CUDA_SUCCESS;
}

/* Only the old name: the driver loader must fall back to it on drivers before 12.8. */
#undef cuEventElapsedTime
EXPORT CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
	FAKE_LOCKED;
	CUresult rc = fake_ready();
	if (rc)
		return rc;
	if (!((double *)a)[1] || !((double *)b)[1])
		return CUDA_ERROR_INVALID_HANDLE;
	*ms = (float)((((double *)b)[0] - ((double *)a)[0]) / 1e3);
	return CUDA_SUCCESS;
}
