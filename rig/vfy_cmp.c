/* vfy_cmp: the bit-exact comparison of an output against the transpose of
 * its input, the poison in the ld_out padding and between the matrices of a
 * batch, and the one-line report. */
#include "rig/rig.h"

#include <stdio.h>
#include <string.h>

#include "common/pool.h"

#define TB 64            /* tile of the walk, in elements */
#define GRAIN_ELEMS (1u << 20)

typedef struct {
	uint64_t mismatches, b, j, i;
	int found;
} cmp_part;

typedef struct {
	const unsigned char *in, *out;
	const rig_shape *s;
	unsigned eb;
	cmp_part part[POOL_PARTS_MAX];
} cmp_job;

static int elem_eq(const unsigned char *a, const unsigned char *b, unsigned eb)
{
	switch (eb) {
	case 1:
		return *a == *b;
	case 2: {
		uint16_t x, y;
		memcpy(&x, a, 2), memcpy(&y, b, 2);
		return x == y;
	}
	case 4: {
		uint32_t x, y;
		memcpy(&x, a, 4), memcpy(&y, b, 4);
		return x == y;
	}
	case 8: {
		uint64_t x, y;
		memcpy(&x, a, 8), memcpy(&y, b, 8);
		return x == y;
	}
	default:
		return !memcmp(a, b, eb);
	}
}

static int is_poison(const unsigned char *a, unsigned eb)
{
	for (unsigned k = 0; k < eb; k++)
		if (a[k] != VFY_POISON)
			return 0;
	return 1;
}

/* (b, j, i) orders positions as out's memory does: a gap element is
 * (b, cols-1, i >= ld_out), past matrix b's last row. */
static int earlier(uint64_t b, uint64_t j, uint64_t i, const cmp_part *p)
{
	return b != p->b ? b < p->b : j != p->j ? j < p->j : i < p->i;
}

static void note(cmp_part *p, uint64_t b, uint64_t j, uint64_t i)
{
	if (!p->found || earlier(b, j, i, p)) {
		p->b = b;
		p->j = j;
		p->i = i;
		p->found = 1;
	}
	p->mismatches++;
}

/* Elements of output row j of matrix b: ld_out, but the last row of the
 * last matrix ends with its last element (the buffer does: its padding is
 * no part of the output), and the last row of another matrix ends where
 * the next matrix starts when the stride is shorter than cols*ld_out (the
 * part past it is the next matrix's). */
static uint64_t row_len(const rig_shape *s, uint64_t b, uint64_t j)
{
	if (j + 1 < s->p.cols)
		return s->p.ld_out;
	if (b + 1 == s->p.batch)
		return s->p.rows;
	uint64_t room = s->p.stride_out - (s->p.cols - 1) * s->p.ld_out; /* >= rows */
	return room < s->p.ld_out ? room : s->p.ld_out;
}

/* Global output rows [lo, hi) (row g is row g % cols of matrix g / cols),
 * tile by tile; then their padding, and after a matrix's last row the gap
 * to the next matrix. */
static void cmp_rows(void *ctx, uint64_t lo, uint64_t hi, int part)
{
	cmp_job *c = ctx;
	const rig_shape *s = c->s;
	unsigned eb = c->eb;
	cmp_part *p = &c->part[part];
	memset(p, 0, sizeof *p);
	for (uint64_t g = lo; g < hi;) {
		uint64_t b = g / s->p.cols, jb = g % s->p.cols;
		uint64_t je = jb + TB < s->p.cols ? jb + TB : s->p.cols;
		if (je - jb > hi - g)
			je = jb + (hi - g);
		const unsigned char *in = c->in + b * s->p.stride_in * eb, *out = c->out + b * s->p.stride_out * eb;
		for (uint64_t ib = 0; ib < s->p.rows; ib += TB) {
			uint64_t ie = ib + TB < s->p.rows ? ib + TB : s->p.rows;
			for (uint64_t j = jb; j < je; j++) {
				const unsigned char *orow = out + j * s->p.ld_out * eb;
				for (uint64_t i = ib; i < ie; i++)
					if (!elem_eq(orow + i * eb, in + (i * s->p.ld_in + j) * eb, eb))
						note(p, b, j, i);
			}
		}
		for (uint64_t j = jb; j < je; j++) {
			const unsigned char *orow = out + j * s->p.ld_out * eb;
			for (uint64_t i = s->p.rows, n = row_len(s, b, j); i < n; i++)
				if (!is_poison(orow + i * eb, eb))
					note(p, b, j, i);
		}
		uint64_t end = s->p.cols * s->p.ld_out, last = (s->p.cols - 1) * s->p.ld_out;
		if (je == s->p.cols && b + 1 < s->p.batch)
			for (uint64_t k = end; k < s->p.stride_out; k++)
				if (!is_poison(out + k * eb, eb))
					note(p, b, s->p.cols - 1, k - last);
		g += je - jb;
	}
}

px_status vfy_compare(const void *in, const void *out, const rig_shape *s, vfy_result *r)
{
	if (s->p.rank)
		return vfy_nd_compare(in, out, s, r);
	memset(r, 0, sizeof *r);
	cmp_job c = {in, out, s, rig_shape_elem_bytes(s), {{0}}};
	uint64_t per_row = s->p.ld_out;
	uint64_t grain = GRAIN_ELEMS / per_row + 1;
	int parts = pool_for(s->p.batch * s->p.cols, grain, cmp_rows, &c);
	cmp_part first = {0};
	for (int k = 0; k < parts; k++) {
		cmp_part *p = &c.part[k];
		if (p->found && (!first.found || earlier(p->b, p->j, p->i, &first)))
			first = *p;
		r->mismatches += p->mismatches;
	}
	r->checked = rig_shape_out_bytes(s) / c.eb;
	if (!r->mismatches)
		return PX_OK;
	r->b = first.b;
	r->j = first.j;
	r->i = first.i;
	r->in_gap = first.i >= s->p.ld_out;
	r->in_padding = first.i >= s->p.rows && !r->in_gap;
	memcpy(r->got, c.out + ((first.b * s->p.stride_out) + first.j * s->p.ld_out + first.i) * c.eb, c.eb);
	if (first.i >= s->p.rows)
		memset(r->want, VFY_POISON, c.eb);
	else
		memcpy(r->want, c.in + (first.b * s->p.stride_in + first.i * s->p.ld_in + first.j) * c.eb, c.eb);
	return PX_WRONG;
}

uint64_t vfy_poison_scan(const void *buf, uint64_t bytes)
{
	const unsigned char *b = buf;
	for (uint64_t k = 0; k < bytes; k++)
		if (b[k] != VFY_POISON)
			return k;
	return bytes;
}

static void hex(char *buf, size_t len, const unsigned char *v, unsigned eb)
{
	size_t n = (size_t)snprintf(buf, len, "0x");
	for (unsigned k = eb; k-- > 0 && n + 2 < len;)
		n += (size_t)snprintf(buf + n, len - n, "%02x", v[k]);
}

const char *vfy_describe(const vfy_result *r, const rig_shape *s, char *buf, size_t len)
{
	unsigned eb = rig_shape_elem_bytes(s);
	char got[40], want[40];
	size_t n = 0;
	buf[0] = '\0';
	if (r->mismatches) {
		hex(got, sizeof got, r->got, eb);
		hex(want, sizeof want, r->want, eb);
	}
	if (r->mismatches && s->p.rank) {
		/* the output index, in output dims */
		char at[200] = "";
		for (unsigned k = 0, m = 0; r->written && k < s->p.rank && m < sizeof at; k++)
			m += (size_t)snprintf(at + m, sizeof at - m, "%s%llu", k ? "," : "", (unsigned long long)r->idx[k]);
		n = (size_t)snprintf(buf, len, "out%s%s%s (element %llu): got %s, want %s%s (%llu of %llu elements wrong)",
				     r->written ? "[" : "", at, r->written ? "]" : "", (unsigned long long)r->at, got, want,
				     !r->written ? " (no element lands there: must keep the poison)"
				     : is_poison(r->got, eb) ? " (the poison: never written)" : "",
				     (unsigned long long)r->mismatches, (unsigned long long)r->checked);
	} else if (r->mismatches) {
		const char *why = "";
		if (r->in_padding)
			why = " (in the ld_out padding: must keep the poison)";
		else if (r->in_gap)
			why = " (between this matrix and the next: must keep the poison)";
		else if (is_poison(r->got, eb))
			why = " (the poison: never written)";
		char at[32] = "";
		if (s->p.batch > 1)
			snprintf(at, sizeof at, "[b=%llu]", (unsigned long long)r->b);
		n = (size_t)snprintf(buf, len, "out%s[j=%llu][i=%llu]: got %s, want %s%s (%llu of %llu elements wrong)",
				     at, (unsigned long long)r->j, (unsigned long long)r->i, got, want, why,
				     (unsigned long long)r->mismatches, (unsigned long long)r->checked);
	}
	if (r->guard_hits && n < len)
		snprintf(buf + n, len - n, "%swrote outside out: first changed byte at offset %lld from its start"
			 " (out is %llu bytes; %llu guard bytes changed)", n ? "; " : "",
			 (long long)r->guard_first, (unsigned long long)rig_shape_out_bytes(s),
			 (unsigned long long)r->guard_hits);
	return buf;
}
