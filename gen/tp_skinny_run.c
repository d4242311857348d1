/* tp_skinny_run: the short side of a skinny kernel (gen/tp_skinny.h): the
 * run of tn x Kt elements that the output (wide) or the input (tall) holds
 * when its leading dimension is K. Contiguous and aligned, it moves as
 * whole 16-byte granules to or from their regions in shared memory, all
 * loads of a thread before its stores (the registers of the line granules
 * hold them); its last partial granule and a run that is not contiguous or
 * not aligned move element by element, dividing by Kt with a reciprocal. */
#include <stdio.h>

#include "gen/tp_skinny.h"

/* The shared address of run byte y (in a register) into dst: region
 * y / (16 Kt), that many gaps further. t is scratch. mul.hi(2x, magic)
 * with magic = ceil(2^31 / Kt) is x / Kt for every x below 2^16 (at
 * most 48 KiB of run). */
static void run_phys(sk *s, const char *dst, const char *y, const char *t)
{
	ptxb *b = s->e.b;
	ptxb_op(b, NULL, "shr.u32", "%s, %s, 3", t, y);
	ptxb_op(b, NULL, "and.b32", "%s, %s, 0xfffffffe", t, t);
	ptxb_op(b, NULL, "mul.hi.u32", "%s, %s, %s", t, t, s->magic);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", dst, t, s->gap, y);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", dst, dst, ptxb_find(b, "run_smem"));
}

/* The run moved whole when it is contiguous and aligned: this thread's
 * granules t + T*j (as many as its line granules, j < P*S), all loads
 * before any store, then the last partial granule element by element.
 * Otherwise element by element. The registers of the line granules hold
 * the run granules in flight. */
static void run_move(sk *s, int load)
{
	ptxb *b = s->e.b;
	const char *g = ptxb_find(b, "run_i"), *n = ptxb_find(b, "run_n"), *pa = ptxb_find(b, "run_addr");
	const char *t = s->tmp[0], *q = s->tmp[1], *ga = s->tmp64, *rb = ptxb_find(b, "run_start");
	unsigned J = s->P * s->S;
	char notfast[40], notpe[40], regs[160], a1[48], a2[48];
	snprintf(notfast, sizeof notfast, "!%s", s->run_fast);
	snprintf(notpe, sizeof notpe, "!%s", s->pe);
	ptxb_group(b, "The run of tn x Kt elements, %s shared memory: whole granules when it is contiguous and aligned.",
		   load ? "into" : "out of");
	ptxb_op(b, notfast, "bra.uni", "RUN_ELEMENTS");
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", n, s->tn, s->ktb);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", rb, s->lfirst, s->ktb);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", rb, rb, s->run_base);
	ptxb_op(b, NULL, "shl.b32", "%s, %s, 4", t, s->e.t);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", ga, t);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", ga, ga, rb);
	for (unsigned j = 0; j < J; j++) {
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", g, t, 16 * (s->T * j + 1));
		ptxb_op(b, NULL, "setp.le.u32", "%s, %s, %s", s->rok[j], g, n);
	}
	for (int phase = 0; phase < 2; phase++) /* all loads, then all stores */
		for (unsigned j = 0; j < J; j++) {
			const char *const *w = (const char *const *)s->d[j / s->S][j % s->S];
			int global = (phase == 0) == load; /* tall loads from global, wide stores to it */
			char op[32];
			snprintf(op, sizeof op, "%s.%s.%s", phase ? "st" : "ld", global ? "global" : "shared",
				 s->nd == 4 ? "v4.b32" : "v2.b64");
			if (s->nd == 4)
				snprintf(regs, sizeof regs, "{%s, %s, %s, %s}", w[0], w[1], w[2], w[3]);
			else
				snprintf(regs, sizeof regs, "{%s, %s}", w[0], w[1]);
			if (global)
				tp_addr(a1, sizeof a1, ga, 16 * s->T * j);
			else
				snprintf(a1, sizeof a1, "[%s]", s->phys[j]);
			if (phase)
				ptxb_op(b, s->rok[j], op, "%s, %s", a1, regs);
			else
				ptxb_op(b, s->rok[j], op, "%s, %s", regs, a1);
		}
	ptxb_note(b, "the last partial granule: one element a thread");
	ptxb_op(b, NULL, "and.b32", "%s, %s, 0xfffffff0", g, n);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", g, s->e.t, s->es, g);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", s->pe, g, n);
	ptxb_op(b, notpe, "bra", "RUN_DONE");
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", ga, g);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", ga, ga, rb);
	run_phys(s, pa, g, q);
	snprintf(a1, sizeof a1, "[%s]", ga);
	snprintf(a2, sizeof a2, "[%s]", pa);
	const char *const *ew = (const char *const *)s->d[0][0];
	sk_elem_op(s, 0, load ? "global" : "shared", NULL, load ? a1 : a2, ew, 0);
	sk_elem_op(s, 1, load ? "shared" : "global", NULL, load ? a2 : a1, ew, 0);
	ptxb_op(b, NULL, "bra", "RUN_DONE");

	ptxb_label(b, "RUN_ELEMENTS");
	ptxb_note(b, "a run that is not contiguous (ld != K, or K > kmax) or not aligned: element e of the stage is"
		     " long position e / Kt, short position e %% Kt");
	const char *lp = s->tmp[1], *sp = s->tmp[2];
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", n, s->tn, s->kt);
	ptxb_op(b, NULL, "mov.u32", "%s, %s", g, s->e.t);
	ptxb_label(b, "RUN_ELEMENT");
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", s->pe, g, n);
	ptxb_op(b, notpe, "bra", "RUN_DONE");
	ptxb_op(b, NULL, "shl.b32", "%s, %s, 1", lp, g);
	ptxb_op(b, NULL, "mul.hi.u32", "%s, %s, %s", lp, lp, s->magic);
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", sp, lp, s->kt);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", sp, g, sp);
	/* shared: region lp / V, then (lp % V)*Kt + sp elements */
	ptxb_op(b, NULL, "shr.u32", "%s, %s, %u", pa, lp, tp_lg2(s->V));
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %u", pa, pa, s->RB);
	ptxb_op(b, NULL, "and.b32", "%s, %s, %u", t, lp, s->V - 1);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", t, t, s->kt, sp);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", pa, t, s->es, pa);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", pa, pa, ptxb_find(b, "run_smem"));
	/* global: (l0 + lp)*ld_run + k0 + sp */
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, s->lfirst, lp);
	ptxb_op(b, NULL, "mul.wide.u32", "%s, %s, %s", ga, t, s->ld_run);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", t, s->kfirst, sp);
	ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", rb, t);
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", ga, ga, rb);
	ptxb_op(b, NULL, "shl.b64", "%s, %s, %u", ga, ga, tp_lg2(s->es));
	ptxb_op(b, NULL, "add.u64", "%s, %s, %s", ga, ga, s->run_base);
	sk_elem_op(s, 0, load ? "global" : "shared", NULL, load ? a1 : a2, ew, 0);
	sk_elem_op(s, 1, load ? "shared" : "global", NULL, load ? a2 : a1, ew, 0);
	ptxb_op(b, NULL, "add.u32", "%s, %s, %u", g, g, s->T);
	ptxb_op(b, NULL, "bra", "RUN_ELEMENT");
	ptxb_label(b, "RUN_DONE");
}

void sk_run_load(sk *s) { run_move(s, 1); }
void sk_run_store(sk *s) { run_move(s, 0); }

