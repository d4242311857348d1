/* fuzz_ndspec: N-d permutation specs (common/ndspec.c) on any bytes, as one
 * spec and as a list; an accepted spec at every width through nd_check,
 * nd_spans and nd_reduce (lib/nd_reduce.h), whose promises are checked: a refusal
 * says why on one line, and a reduced problem passes nd_check, has no
 * higher rank, moves the same bytes and spans no more of either buffer.
 * libFuzzer; see fuzz/README.md. */
#include "fuzz/fuzz.h"
#include "common/ndspec.h"
#include "lib/nd_reduce.h"

static int one_line(const char *s)
{
	return s[0] && !strchr(s, '\n');
}

static void reduce_all(const ndspec *s)
{
	char err[512], why[512], desc[1024];
	for (unsigned es = 1; es <= 16; es *= 2)
		for (unsigned a = 0; a <= 16; a = a ? a * 2 : es) {
			nd_problem p;
			nd_from_spec(&p, s, es);
			p.align_in = p.align_out = a;
			uint64_t ib, ob, rib, rob;
			nd_reduced r;
			int c = nd_check(&p, err, sizeof err), rr = nd_reduce(&p, &r, why, sizeof why);
			if (c != rr || nd_spans(&p, &ib, &ob) != c || (c && (!one_line(err) || strcmp(err, why))))
				abort();
			if (c)
				continue;
			/* the element count: at most the output's span */
			uint64_t n0 = 1, n1 = 1;
			for (unsigned k = 0; k < p.rank; k++)
				n0 *= p.ext[k];
			for (unsigned k = 0; k < r.p.rank; k++)
				n1 *= r.p.ext[k];
			if (nd_check(&r.p, err, sizeof err) || r.p.rank > p.rank || n0 * es != n1 * r.p.elem_bytes ||
			    nd_spans(&r.p, &rib, &rob) || rib > ib || rob > ob || !one_line(why) || n0 * es > ob)
				abort();
			if (r.cls != ND_COPY && r.cls != ND_TILED_COPY && r.cls != ND_TRANSPOSE && r.cls != ND_SMALL)
				abort();
			if ((r.cls == ND_TRANSPOSE || r.cls == ND_SMALL) && (r.rows < 2 || r.cols < 2 || r.nbatch + 2 != r.p.rank))
				abort();
			if (r.cls == ND_TILED_COPY && r.nbatch + 1 != r.p.rank)
				abort();
			if (r.cls == ND_COPY && r.p.rank != 1)
				abort();
			if ((size_t)nd_reduced_describe(&r, desc, sizeof desc) >= sizeof desc)
				abort();
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	char err[512];
	ndspec s;
	if (ndspec_parse(text, &s, NULL, err, sizeof err)) {
		if (!one_line(err))
			abort();
	} else {
		if (s.rank < 1 || s.rank > NDSPEC_MAX_RANK)
			abort();
		reduce_all(&s);
	}
	/* as a list: every spec ends at a comma or the end, past where it began */
	const char *p = text, *end;
	for (unsigned n = 0; n < 64; n++) {
		if (ndspec_parse(p, &s, &end, err, sizeof err)) {
			if (!one_line(err))
				abort();
			break;
		}
		if (end <= p || end > text + size || (*end && *end != ','))
			abort();
		if (!*end)
			break;
		p = end + 1;
	}
	free(text);
	return 0;
}
