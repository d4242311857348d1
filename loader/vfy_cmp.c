/* vfy_cmp: the bit-exact comparison of an output against the transpose of
 * its input, the poison in the ld_out padding, and the one-line report. */
#include "loader/loader.h"

#include <stdio.h>
#include <string.h>

#include "loader/par.h"

#define TB 64            /* tile of the walk, in elements */
#define GRAIN_ELEMS (1u << 20)

typedef struct {
	uint64_t mismatches, j, i;
	int found;
} cmp_part;

typedef struct {
	const unsigned char *in, *out;
	const px_shape *s;
	unsigned eb;
	cmp_part part[PAR_MAX];
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

static void note(cmp_part *p, uint64_t j, uint64_t i)
{
	if (!p->found || j < p->j || (j == p->j && i < p->i)) {
		p->j = j;
		p->i = i;
		p->found = 1;
	}
	p->mismatches++;
}

/* Rows [lo, hi) of out (columns of in), tile by tile, then their padding. */
static void cmp_rows(void *ctx, uint64_t lo, uint64_t hi, int part)
{
	cmp_job *c = ctx;
	const px_shape *s = c->s;
	unsigned eb = c->eb;
	cmp_part *p = &c->part[part];
	memset(p, 0, sizeof *p);
	for (uint64_t jb = lo; jb < hi; jb += TB) {
		uint64_t je = jb + TB < hi ? jb + TB : hi;
		for (uint64_t ib = 0; ib < s->rows; ib += TB) {
			uint64_t ie = ib + TB < s->rows ? ib + TB : s->rows;
			for (uint64_t j = jb; j < je; j++) {
				const unsigned char *orow = c->out + j * s->ld_out * eb;
				for (uint64_t i = ib; i < ie; i++)
					if (!elem_eq(orow + i * eb, c->in + (i * s->ld_in + j) * eb, eb))
						note(p, j, i);
			}
		}
		for (uint64_t j = jb; j < je; j++) {
			const unsigned char *orow = c->out + j * s->ld_out * eb;
			for (uint64_t i = s->rows; i < s->ld_out; i++)
				if (!is_poison(orow + i * eb, eb))
					note(p, j, i);
		}
	}
}

px_status vfy_compare(const void *in, const void *out, const px_shape *s, vfy_result *r)
{
	memset(r, 0, sizeof *r);
	cmp_job c = {in, out, s, px_shape_elem_bytes(s), {{0}}};
	uint64_t per_row = s->ld_out;
	uint64_t grain = GRAIN_ELEMS / per_row + 1;
	int parts = par_for(s->cols, grain, cmp_rows, &c);
	cmp_part first = {0};
	for (int k = 0; k < parts; k++) {
		cmp_part *p = &c.part[k];
		if (p->found && (!first.found || p->j < first.j || (p->j == first.j && p->i < first.i)))
			first = *p;
		r->mismatches += p->mismatches;
	}
	r->checked = s->cols * s->ld_out;
	if (!r->mismatches)
		return PX_OK;
	r->j = first.j;
	r->i = first.i;
	r->in_padding = first.i >= s->rows;
	memcpy(r->got, c.out + (first.j * s->ld_out + first.i) * c.eb, c.eb);
	if (r->in_padding)
		memset(r->want, VFY_POISON, c.eb);
	else
		memcpy(r->want, c.in + (first.i * s->ld_in + first.j) * c.eb, c.eb);
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

const char *vfy_describe(const vfy_result *r, const px_shape *s, char *buf, size_t len)
{
	unsigned eb = px_shape_elem_bytes(s);
	char got[40], want[40];
	size_t n = 0;
	buf[0] = '\0';
	if (r->mismatches) {
		hex(got, sizeof got, r->got, eb);
		hex(want, sizeof want, r->want, eb);
		const char *why = "";
		if (r->in_padding)
			why = " (in the ld_out padding: must keep the poison)";
		else if (is_poison(r->got, eb))
			why = " (the poison: never written)";
		n = (size_t)snprintf(buf, len, "out[j=%llu][i=%llu]: got %s, want %s%s (%llu of %llu elements wrong)",
				     (unsigned long long)r->j, (unsigned long long)r->i, got, want, why,
				     (unsigned long long)r->mismatches, (unsigned long long)r->checked);
	}
	if (r->guard_hits && n < len)
		snprintf(buf + n, len - n, "%swrote outside out: first changed byte at offset %lld from its start"
			 " (out is %llu bytes; %llu guard bytes changed)", n ? "; " : "",
			 (long long)r->guard_first, (unsigned long long)px_shape_out_bytes(s),
			 (unsigned long long)r->guard_hits);
	return buf;
}
