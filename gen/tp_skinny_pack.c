/* tp_skinny_pack: the packed scatter (wide) and gather (tall) of a skinny
 * kernel made with pack = true (gen/tp_skinny.h): a thread's lines come in
 * groups of G = 4/es neighbours along K, so element e of a group's G
 * granules is one aligned 32-bit word of the run in shared memory, (c,
 * r..r+G-1). Per word of the granules: G 32-bit shared accesses at the
 * group's first line's element addresses, the words transposed with prmt
 * (a 4x4 byte or 2x2 half-word transpose, its own inverse). Taken where the
 * tile's Kt is a multiple of G and every line is equally misaligned (the
 * `packed` predicate, tp_skinny_line.c); it writes or reads exactly the
 * bytes of the element path, so the rest of the kernel is the same. */
#include <stdio.h>

#include "gen/tp_skinny.h"

/* The packed scatter (store) or gather (load) of slot k of the group of
 * lines p0..p0+G-1: per word of the granules, G 32-bit shared accesses at
 * element (w*G + i)'s address in line p0, each holding the G lines'
 * elements. Shared offset off, under `guard`. */
static void pack_slot(sk *s, int store, unsigned p0, unsigned k, unsigned off, const char *guard)
{
	ptxb *b = s->e.b;
	char a[64];
	const char *in[4], *out[4];
	for (unsigned w = 0; w < 4; w++) {
		for (unsigned j = 0; j < s->G; j++) {
			(store ? in : out)[j] = s->d[p0 + j][k][w];
			(store ? out : in)[j] = s->tmp[j];
		}
		for (unsigned i = 0; i < s->G && !store; i++)
			ptxb_op(b, guard, "ld.shared.b32", "%s, %s", in[i], tp_addr(a, sizeof a, s->addr[p0][w * s->G + i], off));
		tp_prmt_xpose(b, s->es, in, out, s->pk);
		for (unsigned i = 0; i < s->G && store; i++)
			ptxb_op(b, guard, "st.shared.b32", "%s, %s", tp_addr(a, sizeof a, s->addr[p0][w * s->G + i], off), out[i]);
	}
}

void sk_packed_path(sk *s, int store, const char *done)
{
	ptxb *b = s->e.b;
	char notpk[40], notw0[40];
	const char *x = ptxb_find(b, "extra_ok");
	snprintf(notpk, sizeof notpk, "!%s", s->packed);
	snprintf(notw0, sizeof notw0, "!%s", ptxb_find(b, "warp0"));
	ptxb_op(b, notpk, "bra.uni", "%s_ELEMENTS", done);
	ptxb_note(b, "packed: words of %u lines' elements, transposed with prmt", s->G);
	for (unsigned p = 0; p < s->P; p += s->G)
		for (unsigned k = 0; k < s->S; k++)
			pack_slot(s, store, p, k, sk_slot_smem(s, k), s->rowok[p]);
	ptxb_op(b, notw0, "bra.uni", "%s", done);
	for (unsigned p = 0; p < s->P; p += s->G) {
		ptxb_op(b, NULL, "and.pred", "%s, %s, %s", x, s->head, s->rowok[p]);
		pack_slot(s, store, p, s->S, s->CH * s->RB, x);
	}
	ptxb_op(b, NULL, "bra.uni", "%s", done);
	char l[40];
	snprintf(l, sizeof l, "%s_ELEMENTS", done);
	ptxb_label(b, l);
}
