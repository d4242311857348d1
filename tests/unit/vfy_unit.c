/* Unit tests for the host side of verification (rig/vfy.c, vfy_cmp.c,
 * vfy_copy.c): the random stream, the poison, the reference transpose for
 * every width, the comparison and its report, and the row copy's. Prints TAP. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rig/nd_ref.h"
#include "rig/rig.h"
#include "tests/unit/shape_harness.h"
#include "tap.h"

static rig_shape shape(uint64_t rows, uint64_t cols, uint64_t ld_in, uint64_t ld_out, unsigned bits)
{
	rig_shape s = shape_of(rows, cols, ld_in, ld_out, bits, 0, 1, 0, 0);
	char err[256];
	if (rig_shape_check(&s, err, sizeof err))
		printf("# shape_check: %s\n", err);
	return s;
}

/* Input and a poisoned output for s; the output then gets the reference. */
typedef struct {
	rig_shape s;
	unsigned char *in, *out;
	unsigned eb;
} mat;

static mat make(uint64_t rows, uint64_t cols, uint64_t ld_in, uint64_t ld_out, unsigned bits, uint64_t seed)
{
	mat m = {shape(rows, cols, ld_in, ld_out, bits), NULL, NULL, bits / 8};
	m.in = malloc(rig_shape_in_bytes(&m.s));
	m.out = malloc(rig_shape_out_bytes(&m.s));
	vfy_fill(m.in, rig_shape_in_bytes(&m.s), seed);
	vfy_poison(m.out, rig_shape_out_bytes(&m.s));
	vfy_transpose(m.in, m.out, &m.s);
	return m;
}

static void drop(mat *m)
{
	free(m->in);
	free(m->out);
}

static unsigned char *at_out(mat *m, uint64_t j, uint64_t i)
{
	return m->out + (j * m->s.p.ld_out + i) * m->eb;
}

static void test_stream(void)
{
	enum { N = 1 << 16 };
	unsigned char *a = malloc(N), *b = malloc(N), *c = malloc(N);
	vfy_fill(a, N, 42);
	vfy_fill(b, 1000, 42);
	ok(!memcmp(a, b, 1000), "a shorter fill is a prefix of a longer one");
	memset(c, 0, N);
	vfy_fill_range(c, 13, 4099, 42);
	int outside = 0;
	for (int k = 0; k < N; k++)
		outside += (k < 13 || k >= 4099) && c[k];
	ok(!memcmp(c + 13, a + 13, 4099 - 13) && !outside, "a range [13, 4099) is the stream's bytes there, nothing else");
	vfy_fill_range(c, 3, 6, 42);
	ok(!memcmp(c + 3, a + 3, 3) && !c[2] && !c[6], "a range inside one word");
	vfy_fill(b, N, 43);
	ok(memcmp(a, b, N) != 0, "another seed, another stream");
	int seen[256] = {0}, kinds = 0;
	for (int k = 0; k < N; k++)
		kinds += !seen[a[k]]++;
	ok(kinds == 256, "every byte value turns up in 64 KiB (%d of 256)", kinds);
	/* big enough for threads: the same bytes as a piecewise fill */
	uint64_t big = 48u << 20;
	unsigned char *x = malloc(big), *y = malloc(big);
	vfy_fill(x, big, 7);
	for (uint64_t from = 0; from < big; from += 1000003)
		vfy_fill_range(y, from, from + 1000003 < big ? from + 1000003 : big, 7);
	ok(!memcmp(x, y, big), "a threaded fill of 48 MiB equals a piecewise one");
	free(x), free(y), free(a), free(b), free(c);
	unsigned char p[37];
	vfy_poison(p, sizeof p);
	ok(vfy_poison_scan(p, sizeof p) == sizeof p && p[0] == 0xA5, "the poison is 0xa5 in every byte");
	p[30] = 0;
	ok(vfy_poison_scan(p, sizeof p) == 30, "vfy_poison_scan finds the first other byte");
}

static void test_reference(void)
{
	static const unsigned widths[] = {8, 16, 32, 64, 128};
	for (int w = 0; w < 5; w++) {
		mat m = make(67, 129, 131, 70, widths[w], 5);
		int bad = 0, pad = 0;
		for (uint64_t j = 0; j < 129; j++)
			for (uint64_t i = 0; i < (j < 128 ? 70u : 67u); i++) { /* the last row: no padding */
				unsigned char *o = at_out(&m, j, i);
				if (i < 67)
					bad += memcmp(o, m.in + (i * 131 + j) * m.eb, m.eb) != 0;
				else
					pad += vfy_poison_scan(o, m.eb) != m.eb;
			}
		ok(!bad && !pad, "reference transpose, elem=%u, 67x129 ld_in=131 ld_out=70: every element, padding kept",
		   widths[w]);
		vfy_result r;
		px_status st = vfy_compare(m.in, m.out, &m.s, &r);
		ok(st == PX_OK && r.mismatches == 0 && r.checked == 128 * 70 + 67,
		   "... and the comparison passes it, %llu elements checked", (unsigned long long)r.checked);
		drop(&m);
	}
}

static void test_mismatch(void)
{
	char why[512];
	vfy_result r;
	mat m = make(31, 33, 0, 0, 32, 1);
	uint32_t v;
	memcpy(&v, at_out(&m, 5, 7), 4);
	v ^= 0x100;
	memcpy(at_out(&m, 5, 7), &v, 4);
	ok(vfy_compare(m.in, m.out, &m.s, &r) == PX_WRONG && r.mismatches == 1 && r.j == 5 && r.i == 7 && !r.in_padding,
	   "one flipped bit: PX_WRONG at out[j=5][i=7]");
	char want[200];
	snprintf(want, sizeof want, "out[j=5][i=7]: got 0x%08x, want 0x%08x (1 of 1023 elements wrong)", v, v ^ 0x100);
	is_str(vfy_describe(&r, &m.s, why, sizeof why), want, "the report: where, got, want, how many");
	vfy_poison(at_out(&m, 2, 30), 4);
	vfy_compare(m.in, m.out, &m.s, &r);
	ok(r.j == 2 && r.i == 30 && r.mismatches == 2, "the first mismatch is the first in out's row-major order");
	has_str(vfy_describe(&r, &m.s, why, sizeof why), "got 0xa5a5a5a5, want 0x", "an element never written...");
	has_str(why, "(the poison: never written) (2 of 1023", "... is called so");
	drop(&m);

	m = make(67, 129, 0, 72, 16, 2);
	memset(at_out(&m, 127, 67), 0, 2); /* the last row has no padding in the buffer */
	vfy_compare(m.in, m.out, &m.s, &r);
	ok(r.in_padding && r.j == 127 && r.i == 67 && r.mismatches == 1, "a write into the ld_out padding (i = rows) is a mismatch");
	is_str(vfy_describe(&r, &m.s, why, sizeof why),
	       "out[j=127][i=67]: got 0x0000, want 0xa5a5 (in the ld_out padding: must keep the poison) (1 of 9283 elements wrong)",
	       "... reported as such");
	vfy_poison(at_out(&m, 127, 67), 2);
	at_out(&m, 0, 71)[1] = 0;
	vfy_compare(m.in, m.out, &m.s, &r);
	ok(r.in_padding && r.j == 0 && r.i == 71 && r.mismatches == 1, "... so is one into the last byte of a row");
	drop(&m);

	m = make(3, 2, 0, 0, 128, 3);
	at_out(&m, 1, 2)[0] ^= 1;
	vfy_compare(m.in, m.out, &m.s, &r);
	vfy_describe(&r, &m.s, why, sizeof why);
	char got[40];
	snprintf(got, sizeof got, "0x");
	for (int k = 15; k >= 0; k--)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%02x", at_out(&m, 1, 2)[k]);
	has_str(why, got, "16-byte elements print as 32 hex digits, most significant byte first");
	drop(&m);

	/* big enough for several threads: counts add up, the first is still first */
	m = make(3000, 2100, 0, 0, 8, 4);
	at_out(&m, 2000, 10)[0] ^= 1;
	at_out(&m, 1999, 2999)[0] ^= 1;
	at_out(&m, 7, 5)[0] ^= 1;
	vfy_compare(m.in, m.out, &m.s, &r);
	ok(r.mismatches == 3 && r.j == 7 && r.i == 5, "6.3M elements, 3 wrong: counted, first found (%llu at j=%llu i=%llu)",
	   (unsigned long long)r.mismatches, (unsigned long long)r.j, (unsigned long long)r.i);
	drop(&m);

	vfy_result g = {.guard_hits = 3, .guard_first = -16};
	rig_shape s = shape(2, 2, 0, 0, 32);
	has_str(vfy_describe(&g, &s, why, sizeof why), "wrote outside out: first changed byte at offset -16 from its start",
		"bytes changed around out are reported");
}

/* A batch of 3 x 5x4 (elem 32) with strides sin/sout: filled, poisoned,
 * transposed by the reference. */
static mat make_batch(uint64_t sin, uint64_t sout)
{
	rig_shape s = shape_of(5, 4, 0, 0, 32, 0, 3, sin, sout);
	char e[256];
	if (rig_shape_check(&s, e, sizeof e))
		printf("# shape_check: %s\n", e);
	mat m = {s, malloc(rig_shape_in_bytes(&s)), malloc(rig_shape_out_bytes(&s)), 4};
	vfy_fill(m.in, rig_shape_in_bytes(&s), 9);
	vfy_poison(m.out, rig_shape_out_bytes(&s));
	vfy_transpose(m.in, m.out, &m.s);
	return m;
}

static void test_batch(void)
{
	char why[512];
	vfy_result r;
	/* strides with gaps: 27 input and 25 output elements a matrix, 20 used */
	mat m = make_batch(27, 25);
	int bad = 0;
	for (uint64_t b = 0; b < 3; b++)
		for (uint64_t j = 0; j < 4; j++)
			for (uint64_t i = 0; i < 5; i++)
				bad += memcmp(m.out + (b * 25 + j * 5 + i) * 4, m.in + (b * 27 + i * 4 + j) * 4, 4) != 0;
	ok(!bad, "reference transpose of 3 matrices, strides 27 and 25: every element of every matrix");
	ok(vfy_compare(m.in, m.out, &m.s, &r) == PX_OK && r.checked == 2 * 25 + 20, "... and the comparison passes it");
	uint64_t k = 25 + 20 + 2; /* the gap after matrix 1 */
	ok(vfy_poison_scan(m.out + k * 4, 4) == 4, "the gaps between output matrices keep the poison");
	m.out[k * 4] = 0;
	ok(vfy_compare(m.in, m.out, &m.s, &r) == PX_WRONG && r.in_gap && r.b == 1 && r.j == 3 && r.i == 7,
	   "a write into the gap after matrix 1: PX_WRONG at b=1, past its last row");
	is_str(vfy_describe(&r, &m.s, why, sizeof why),
	       "out[b=1][j=3][i=7]: got 0xa5a5a500, want 0xa5a5a5a5 (between this matrix and the next: must keep the poison)"
	       " (1 of 70 elements wrong)", "... reported so");
	m.out[k * 4] = VFY_POISON;
	m.out[(2 * 25 + 1 * 5 + 3) * 4 + 1] ^= 1;
	ok(vfy_compare(m.in, m.out, &m.s, &r) == PX_WRONG && !r.in_gap && r.b == 2 && r.j == 1 && r.i == 3,
	   "a wrong element of the last matrix: b=2, j=1, i=3");
	has_str(vfy_describe(&r, &m.s, why, sizeof why), "out[b=2][j=1][i=3]: got 0x", "... named with its matrix");
	drop(&m);
	/* ld_out padding that reaches into the next matrix: 5x4 with ld_out 7 and
	 * stride_out 27, shorter than cols*ld_out = 28: the last row keeps one
	 * element of padding (i = 5), and i = 6 is the next matrix's first */
	rig_shape s = shape_of(5, 4, 0, 7, 32, 0, 3, 0, 27);
	char e[256];
	ok(rig_shape_check(&s, e, sizeof e) == PX_OK, "a stride shorter than cols*ld_out is valid (%s)", e);
	m = (mat){s, malloc(rig_shape_in_bytes(&s)), malloc(rig_shape_out_bytes(&s)), 4};
	vfy_fill(m.in, rig_shape_in_bytes(&s), 9);
	vfy_poison(m.out, rig_shape_out_bytes(&s));
	vfy_transpose(m.in, m.out, &m.s);
	ok(vfy_compare(m.in, m.out, &m.s, &r) == PX_OK, "... the next matrix's first elements are not taken for padding");
	m.out[(27 + 3 * 7 + 5) * 4] ^= 1; /* matrix 1's last row, i = 5: the padding that is still its own */
	ok(vfy_compare(m.in, m.out, &m.s, &r) == PX_WRONG && r.in_padding && r.b == 1 && r.j == 3 && r.i == 5,
	   "... the part of the last row's padding before the next matrix is still checked");
	drop(&m);
}

static void test_finite(void)
{
	uint32_t f[] = {0x00000000, 0x80000000, 0x00000001, 0x7f800000, 0xff800000, 0x7fc00001, 0x3f800000};
	uint64_t d[] = {0x0000000000000000ull, 0x7ff0000000000000ull, 0x7ff8000000000001ull, 0x000fffffffffffffull,
			0x3ff0000000000000ull};
	vfy_finite(f, sizeof f, 32);
	vfy_finite(d, sizeof d, 64);
	int bad = 0;
	for (int k = 0; k < 7; k++) {
		uint32_t e = f[k] & 0x7f800000u;
		bad += e == 0 || e == 0x7f800000u;
	}
	for (int k = 0; k < 5; k++) {
		uint64_t e = d[k] & 0x7ff0000000000000ull;
		bad += e == 0 || e == 0x7ff0000000000000ull;
	}
	ok(!bad && f[6] == 0x3f800000 && d[4] == 0x3ff0000000000000ull,
	   "vfy_finite: zeros, subnormals, Inf and NaN become normal numbers; normal ones stay");
}

typedef struct {
	int mode; /* 0 transpose, 1 fail, 2 wrong */
} runner_ctx;

static int runner(void *ud, vfy_bufs *b, const rig_shape *s)
{
	runner_ctx *c = ud;
	if (c->mode == 1)
		return 1;
	vfy_transpose(b->in, b->out, s);
	if (c->mode == 2)
		((unsigned char *)b->out)[0] ^= 1;
	return 0;
}

static void test_host_case(void)
{
	rig_shape s = shape(7, 9, 10, 8, 64);
	runner_ctx c = {0};
	vfy_result r;
	char err[256];
	vfy_bufs b;
	ok(vfy_bufs_prepare(&b, &s, 1, err, sizeof err) == PX_OK && b.in_bytes == (6 * 10 + 9) * 8 && b.out_bytes == (8 * 8 + 7) * 8,
	   "vfy_bufs: exact sizes (to the last element: (rows-1) x ld_in + cols, (cols-1) x ld_out + rows)");
	vfy_bufs_free(&b);
	ok(vfy_host_case(&s, 1, runner, &c, &r, err, sizeof err) == PX_OK, "host case: a right runner passes");
	c.mode = 1;
	ok(vfy_host_case(&s, 1, runner, &c, &r, err, sizeof err) == PX_EUNAVAIL, "... a failing runner: PX_EUNAVAIL");
	c.mode = 2;
	ok(vfy_host_case(&s, 1, runner, &c, &r, err, sizeof err) == PX_WRONG && r.j == 0 && r.i == 0,
	   "... a wrong one: PX_WRONG at out[0][0]");
}

/* An N-d shape (rig/vfy_nd.c): the whole output against rig/nd_ref.h's
 * reference, the poison where no element lands included. */
static void test_nd(void)
{
	rig_shape s;
	char err[512], why[512];
	/* out dims [6,4,5]: rows of 5 padded to 6, blocks of 24 padded to 28 */
	ok(!rig_shape_parse("4x5x6:perm=2,0,1:strides_out=28,6,1:elem=32", &s, err, sizeof err) &&
	   !rig_shape_check(&s, err, sizeof err), "an N-d shape with padded output strides");
	uint64_t ib = rig_shape_in_bytes(&s), obytes = rig_shape_out_bytes(&s);
	ok(ib == 480 && obytes == 163 * 4 && rig_shape_moved_bytes(&s) == 960, "... its bytes: in, out (163 elements), moved");
	unsigned char *in = malloc(ib), *out = malloc(obytes);
	vfy_fill(in, ib, 3);
	vfy_poison(out, obytes);
	nd_problem q;
	rig_shape_nd(&s, &q);
	vfy_result r;
	ok(!ndref_permute(&q, in, out) && vfy_compare(in, out, &s, &r) == PX_OK && r.checked == 163,
	   "the reference's output passes, all 163 elements checked");
	out[43 * 4] ^= 1; /* out[1,2,3]: 28 + 2*6 + 3 */
	ok(vfy_compare(in, out, &s, &r) == PX_WRONG && r.mismatches == 1 && r.at == 43 && r.written && r.idx[0] == 1 &&
	   r.idx[1] == 2 && r.idx[2] == 3, "a flipped bit: PX_WRONG at out[1,2,3], element 43");
	has_str(vfy_describe(&r, &s, why, sizeof why), "out[1,2,3] (element 43): got 0x", "... reported by its index");
	has_str(why, "(1 of 163 elements wrong)", "... and the count");
	out[43 * 4] ^= 1;
	out[5 * 4] = 0; /* the padding after the first row */
	ok(vfy_compare(in, out, &s, &r) == PX_WRONG && r.at == 5 && !r.written, "a write in the padding: PX_WRONG");
	has_str(vfy_describe(&r, &s, why, sizeof why), "out (element 5): got 0xa5a5a500, want 0xa5a5a5a5 (no element lands "
		"there: must keep the poison)", "... reported as a gap");
	free(in);
	free(out);
}

/* A host "kernel" of the row copy: mode 0 right, 1 one element of a row
 * missed, 2 one byte of ld_out padding written, 3 one element wrong. */
static int copier(void *ud, vfy_bufs *b, const rig_shape *s)
{
	const runner_ctx *c = ud;
	unsigned eb = rig_shape_elem_bytes(s);
	const unsigned char *in = b->in;
	unsigned char *out = b->out;
	for (uint64_t m = 0; m < s->p.batch; m++)
		for (uint64_t i = 0; i < s->p.rows; i++)
			for (uint64_t j = 0; j < s->p.cols; j++)
				if (!(c->mode == 1 && m == 1 && i == 2 && j == 3))
					memcpy(out + (m * s->p.stride_out + i * s->p.ld_out + j) * eb,
					       in + (m * s->p.stride_in + i * s->p.ld_in + j) * eb, eb);
	if (c->mode == 2)
		out[(s->p.stride_out + 2 * s->p.ld_out + s->p.cols) * eb] ^= 1;
	if (c->mode == 3)
		out[(s->p.stride_out + 2 * s->p.ld_out + 3) * eb] ^= 1;
	return 0;
}

static void test_copy(void)
{
	char err[256] = "";
	nd_problem p;
	rig_shape s = shape_of(7, 1, 0, 0, 32, 0, 0, 0, 0);
	ok(vfy_copy_shape(&s, &p, err, sizeof err) == PX_OK && s.p.ld_in == 1 && s.p.ld_out == 1 && s.p.batch == 1 &&
	   s.p.stride_out == 7 && p.rank == 3 && p.perm[1] == 1,
	   "copy 7x1: ld_in and ld_out default to cols, batch 1, strides rows x ld (%s)", err);
	s = shape_of(9, 33, 0, 20, 32, 0, 1, 0, 0);
	ok(vfy_copy_shape(&s, &p, err, sizeof err) == PX_EUSAGE && !strcmp(err, "copy: ld_out 20 is less than cols 33"),
	   "ld_out under cols refused: %s", err);
	s = shape_of(3, 5, 6, 7, 32, 0, 2, 18, 18); /* the second matrix from element 18, the first's last is 2*7+4 */
	ok(vfy_copy_shape(&s, &p, err, sizeof err) == PX_EUSAGE && strstr(err, "copy: "),
	   "output matrices that overlap refused: %s", err);
	/* 3 matrices of 5x7 in 8-byte elements, padded pitches, gaps between */
	rig_shape c5 = shape_of(5, 7, 9, 8, 64, 0, 3, 50, 44);
	runner_ctx c = {0};
	vfy_result r;
	ok(vfy_copy_case(&c5, 3, copier, &c, &r, err, sizeof err) == PX_OK && r.checked == 2 * 44 + 4 * 8 + 7,
	   "a right copy passes; every element of out compared (2*44 + 4*8 + 7)");
	c.mode = 1;
	ok(vfy_copy_case(&c5, 3, copier, &c, &r, err, sizeof err) == PX_WRONG && r.b == 1 && r.j == 2 && r.i == 3 &&
	   r.mismatches == 1 && r.got[0] == VFY_POISON && !r.in_padding,
	   "an element missed: PX_WRONG at out[b=1][j=2][i=3], the poison");
	c.mode = 2;
	ok(vfy_copy_case(&c5, 3, copier, &c, &r, err, sizeof err) == PX_WRONG && r.b == 1 && r.j == 2 && r.i == 7 &&
	   r.in_padding && r.want[0] == VFY_POISON, "the ld_out padding written: PX_WRONG, in the padding");
	char why[256];
	vfy_describe(&r, &c5, why, sizeof why);
	ok(strstr(why, "out[b=1][j=2][i=7]: got 0xa5a5a5a5a5a5a5a4, want 0xa5a5a5a5a5a5a5a5 (in the ld_out padding") != NULL,
	   "... described: %s", why);
	c.mode = 3;
	ok(vfy_copy_case(&c5, 3, copier, &c, &r, err, sizeof err) == PX_WRONG && r.i == 3 && !r.in_padding &&
	   r.got[0] != r.want[0], "an element wrong: PX_WRONG, got and want");
}

int main(void)
{
	test_nd();
	test_stream();
	test_reference();
	test_mismatch();
	test_batch();
	test_finite();
	test_host_case();
	test_copy();
	return tap_done();
}
