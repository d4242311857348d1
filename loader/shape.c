/* shape: matrix shapes, leading dimensions, batches and their byte sizes,
 * checked before anything is allocated; shape lists for check and bench. */
#include "loader/loader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned px_shape_elem_bytes(const px_shape *s)
{
	return s->elem_bits / 8;
}

static int valid_elem(unsigned bits)
{
	return bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128;
}

/* a*b*c into *out; 0 when it overflows 64 bits. */
static int mul3(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
	uint64_t ab;
	if (__builtin_mul_overflow(a, b, &ab) || __builtin_mul_overflow(ab, c, out))
		return 0;
	return 1;
}

static px_status dim_check(const char *name, uint64_t v, char *err, size_t errlen)
{
	if (v >= 1 && v <= PX_DIM_MAX)
		return PX_OK;
	snprintf(err, errlen, "%s %llu is out of range (1 to %u)", name, (unsigned long long)v, PX_DIM_MAX);
	return PX_EUSAGE;
}

static px_status bytes_check(const char *what, uint64_t n, uint64_t ld, unsigned eb,
			     char *err, size_t errlen)
{
	uint64_t b;
	/* the largest allocation malloc or cuMemAlloc will take is PTRDIFF_MAX */
	if (mul3(n, ld, eb, &b) && b <= (uint64_t)PTRDIFF_MAX && b <= (uint64_t)SIZE_MAX)
		return PX_OK;
	snprintf(err, errlen, "too large: the %s needs %llu x %llu x %u bytes, more than a buffer can hold",
		 what, (unsigned long long)n, (unsigned long long)ld, eb);
	return PX_EUSAGE;
}

/* Leading dimensions that are set (non-zero) must hold a whole row. */
static px_status ld_check(const px_shape *s, char *err, size_t errlen)
{
	if (s->ld_in && s->ld_in < s->cols) {
		snprintf(err, errlen, "ld-in %llu is less than cols %llu (an input row holds cols elements)",
			 (unsigned long long)s->ld_in, (unsigned long long)s->cols);
		return PX_EUSAGE;
	}
	if (s->ld_out && s->ld_out < s->rows) {
		snprintf(err, errlen, "ld-out %llu is less than rows %llu (an output row holds rows elements)",
			 (unsigned long long)s->ld_out, (unsigned long long)s->rows);
		return PX_EUSAGE;
	}
	return PX_OK;
}

/* The batch count, and strides that are set must hold their matrix: the
 * elements from a matrix's first to its last, (rows-1)*ld_in + cols of the
 * input, (cols-1)*ld_out + rows of the output (unset leading dimensions
 * taken as their defaults). Strides are ignored for a batch of one. */
static px_status batch_check(const px_shape *s, char *err, size_t errlen)
{
	px_status st = dim_check("batch", s->batch, err, errlen);
	if (st || s->batch == 1)
		return st;
	uint64_t ld_in = s->ld_in ? s->ld_in : s->cols, ld_out = s->ld_out ? s->ld_out : s->rows;
	uint64_t need_in = (s->rows - 1) * ld_in + s->cols, need_out = (s->cols - 1) * ld_out + s->rows;
	if (s->stride_in && s->stride_in < need_in) {
		snprintf(err, errlen, "stride-in %llu is less than the input matrix it must hold"
			 " ((rows-1)*ld_in + cols = %llu elements)",
			 (unsigned long long)s->stride_in, (unsigned long long)need_in);
		return PX_EUSAGE;
	}
	if (s->stride_out && s->stride_out < need_out) {
		snprintf(err, errlen, "stride-out %llu is less than the output matrix it must hold"
			 " ((cols-1)*ld_out + rows = %llu elements)",
			 (unsigned long long)s->stride_out, (unsigned long long)need_out);
		return PX_EUSAGE;
	}
	return PX_OK;
}

/* A batch buffer, (batch-1)*stride + n*ld elements of eb bytes: in 64 bits
 * and within what one buffer can hold. The message names the stride. */
static px_status batch_bytes_check(const char *what, const char *flag, uint64_t batch, uint64_t stride,
				   uint64_t n, uint64_t ld, unsigned eb, char *err, size_t errlen)
{
	uint64_t last, gap, sum;
	if (batch < 2)
		return PX_OK;
	if (mul3(n, ld, eb, &last) && mul3(batch - 1, stride, eb, &gap) && !__builtin_add_overflow(gap, last, &sum) &&
	    sum <= (uint64_t)PTRDIFF_MAX && sum <= (uint64_t)SIZE_MAX)
		return PX_OK;
	snprintf(err, errlen, "too large: %s %llu: the %s's %llu matrices need more than a buffer can hold"
		 " (2^63 bytes)", flag, (unsigned long long)stride, what, (unsigned long long)batch);
	return PX_EUSAGE;
}

px_status px_shape_check(px_shape *s, char *err, size_t errlen)
{
	px_status st;
	if ((st = dim_check("rows", s->rows, err, errlen)) || (st = dim_check("cols", s->cols, err, errlen)))
		return st;
	if (!s->ld_in)
		s->ld_in = s->cols;
	if (!s->ld_out)
		s->ld_out = s->rows;
	if ((st = dim_check("ld-in", s->ld_in, err, errlen)) || (st = dim_check("ld-out", s->ld_out, err, errlen)))
		return st;
	if ((st = ld_check(s, err, errlen)) || (st = batch_check(s, err, errlen)))
		return st;
	if (!s->stride_in)
		s->stride_in = s->rows * s->ld_in; /* < 2^62 */
	if (!s->stride_out)
		s->stride_out = s->cols * s->ld_out;
	if (!valid_elem(s->elem_bits)) {
		snprintf(err, errlen, "elem %u is not 8, 16, 32, 64 or 128", s->elem_bits);
		return PX_EUSAGE;
	}
	unsigned eb = px_shape_elem_bytes(s);
	if ((st = bytes_check("input", s->rows, s->ld_in, eb, err, errlen)) ||
	    (st = bytes_check("output", s->cols, s->ld_out, eb, err, errlen)) ||
	    (st = batch_bytes_check("input", "stride-in", s->batch, s->stride_in, s->rows, s->ld_in, eb, err,
				    errlen)) ||
	    (st = batch_bytes_check("output", "stride-out", s->batch, s->stride_out, s->cols, s->ld_out, eb, err,
				    errlen)))
		return st;
	uint64_t sum = px_shape_in_bytes(s) + px_shape_out_bytes(s); /* each <= 2^63-1 */
	if (sum > (uint64_t)PTRDIFF_MAX) {
		snprintf(err, errlen, "too large: input and output together need more than 2^63 bytes");
		return PX_EUSAGE;
	}
	return PX_OK;
}

/* Elements of a batch buffer: batch-1 strides and the last matrix whole. */
static uint64_t batch_elems(uint64_t batch, uint64_t stride, uint64_t last)
{
	return batch > 1 ? (batch - 1) * stride + last : last;
}

uint64_t px_shape_in_bytes(const px_shape *s)
{
	return batch_elems(s->batch, s->stride_in, s->rows * s->ld_in) * px_shape_elem_bytes(s);
}

uint64_t px_shape_out_bytes(const px_shape *s)
{
	return batch_elems(s->batch, s->stride_out, s->cols * s->ld_out) * px_shape_elem_bytes(s);
}

uint64_t px_shape_moved_bytes(const px_shape *s)
{
	return 2 * (s->batch ? s->batch : 1) * s->rows * s->cols * px_shape_elem_bytes(s);
}

/* " key=value" appended at buf + *n while there is room. */
static void name_key(char *buf, size_t len, int *n, const char *key, unsigned long long v)
{
	if (*n >= 0 && (size_t)*n < len)
		*n += snprintf(buf + *n, len - (size_t)*n, " %s=%llu", key, v);
}

const char *px_shape_name(const px_shape *s, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%llux%llu", (unsigned long long)s->rows, (unsigned long long)s->cols);
	uint64_t ld_in = s->ld_in ? s->ld_in : s->cols, ld_out = s->ld_out ? s->ld_out : s->rows;
	if (ld_in != s->cols)
		name_key(buf, len, &n, "ld_in", ld_in);
	if (ld_out != s->rows)
		name_key(buf, len, &n, "ld_out", ld_out);
	if (s->offset)
		name_key(buf, len, &n, "offset", s->offset);
	if (s->batch > 1) {
		name_key(buf, len, &n, "batch", s->batch);
		if (s->stride_in && s->stride_in != s->rows * ld_in)
			name_key(buf, len, &n, "stride_in", s->stride_in);
		if (s->stride_out && s->stride_out != s->cols * ld_out)
			name_key(buf, len, &n, "stride_out", s->stride_out);
	}
	return buf;
}

/* A decimal in [lo, hi] that ends at *end (which must be one of `stops`). */
static int parse_num(const char *p, const char **end, const char *stops, uint64_t lo, uint64_t hi, uint64_t *out)
{
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	char *e;
	unsigned long long v = strtoull(p, &e, 10);
	if (errno || v < lo || v > hi || !strchr(stops, *e))
		return -1;
	*out = v;
	*end = e;
	return 0;
}

enum { K_LD_IN, K_LD_OUT, K_ELEM, K_OFFSET, K_BATCH, K_STRIDE_IN, K_STRIDE_OUT };

/* The keys of a shape entry and their ranges. A batch of 0 parses so that
 * batch_check names it; a stride of 0 means packed (the default). */
static const struct {
	const char *key;
	int which;
	uint64_t lo, hi;
} shape_keys[] = {
	{"batch", K_BATCH, 0, PX_DIM_MAX},
	{"elem", K_ELEM, 8, 128},
	{"ld-in", K_LD_IN, 1, PX_DIM_MAX},
	{"ld-out", K_LD_OUT, 1, PX_DIM_MAX},
	{"ld_in", K_LD_IN, 1, PX_DIM_MAX},
	{"ld_out", K_LD_OUT, 1, PX_DIM_MAX},
	{"offset", K_OFFSET, 0, 15},
	{"stride-in", K_STRIDE_IN, 0, PX_STRIDE_MAX},
	{"stride-out", K_STRIDE_OUT, 0, PX_STRIDE_MAX},
	{"stride_in", K_STRIDE_IN, 0, PX_STRIDE_MAX},
	{"stride_out", K_STRIDE_OUT, 0, PX_STRIDE_MAX},
};

/* What can be checked before the element width is known. */
static px_status early_check(const px_shape *s, char *err, size_t errlen)
{
	px_status st = ld_check(s, err, errlen);
	return st ? st : batch_check(s, err, errlen);
}

px_status px_shape_parse(const char *text, px_shape *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->batch = 1;
	const char *p = text;
	if (parse_num(p, &p, "x", 1, PX_DIM_MAX, &s->rows) ||
	    parse_num(p + 1, &p, ":", 1, PX_DIM_MAX, &s->cols))
		goto bad;
	while (*p == ':') {
		const char *key = p + 1, *eq = strchr(key, '=');
		int k = -1;
		for (size_t i = 0; eq && i < sizeof shape_keys / sizeof shape_keys[0]; i++)
			if (strlen(shape_keys[i].key) == (size_t)(eq - key) &&
			    !strncmp(key, shape_keys[i].key, (size_t)(eq - key)))
				k = (int)i;
		uint64_t v;
		if (k < 0 || parse_num(eq + 1, &p, ":", shape_keys[k].lo, shape_keys[k].hi, &v))
			goto bad;
		switch (shape_keys[k].which) {
		case K_LD_IN: s->ld_in = v; break;
		case K_LD_OUT: s->ld_out = v; break;
		case K_OFFSET: s->offset = (unsigned)v; break;
		case K_BATCH: s->batch = v; break;
		case K_STRIDE_IN: s->stride_in = v; break;
		case K_STRIDE_OUT: s->stride_out = v; break;
		default:
			if (!valid_elem((unsigned)v))
				goto bad;
			s->elem_bits = (unsigned)v;
		}
	}
	px_status st = early_check(s, err, errlen);
	if (st) {
		char why[256];
		snprintf(why, sizeof why, "%s", err);
		snprintf(err, errlen, "shape '%s': %s", text, why);
	}
	return st;
bad:
	snprintf(err, errlen, "bad shape '%s': expected ROWSxCOLS[:ld_in=N][:ld_out=N][:elem=8|16|32|64|128]"
		 "[:offset=0-15][:batch=B][:stride_in=S][:stride_out=S] with values from 1 to %u", text, PX_DIM_MAX);
	return PX_EUSAGE;
}

px_status px_shape_list(const char *list, px_shape **out, size_t *n, char *err, size_t errlen)
{
	*out = NULL;
	*n = 0;
	size_t cap = 1;
	for (const char *p = list; *p; p++)
		cap += *p == ',';
	px_shape *v = calloc(cap, sizeof *v);
	char *copy = strdup(list);
	if (!v || !copy) {
		free(v);
		free(copy);
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	size_t k = 0;
	char *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		px_status st = px_shape_parse(t, &v[k], err, errlen);
		if (st) {
			free(v);
			free(copy);
			return st;
		}
		k++;
	}
	free(copy);
	if (!k) {
		free(v);
		snprintf(err, errlen, "empty shape list");
		return PX_EUSAGE;
	}
	*out = v;
	*n = k;
	return PX_OK;
}

px_status px_shape_select(const char *list, const px_shape *one, px_shape **out, size_t *n,
			  char *err, size_t errlen)
{
	if (!one->rows)
		return px_shape_list(list, out, n, err, errlen);
	*n = 0;
	px_status st = early_check(one, err, errlen);
	if (st)
		return st;
	if (!(*out = malloc(sizeof **out))) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	**out = *one;
	*n = 1;
	return PX_OK;
}

px_status px_host_fits(uint64_t bytes, const char *what, char *err, size_t errlen)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
	if (pages <= 0 || page <= 0)
		return PX_OK; /* unknown: let the allocation decide */
	uint64_t ram = (uint64_t)pages * (uint64_t)page;
	if (bytes <= ram / 10 * 9)
		return PX_OK;
	char a[32], b[32];
	snprintf(err, errlen, "too large: %s: %s of host memory needed, this machine has %s",
		 what, px_bytes_str(bytes, a, sizeof a), px_bytes_str(ram, b, sizeof b));
	return PX_EUSAGE;
}
