/* shape: matrix shapes, leading dimensions, batches and their byte sizes,
 * checked (by the library's one check of a problem, ptxpose_tool_desc_check)
 * before anything is allocated; shape lists for check and bench. */
#include "rig/rig.h"

#include "common/elem.h"
#include "common/ndspec.h"
#include "include/ptxpose_tools.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

rig_shape rig_shape_of(uint64_t rows, uint64_t cols, unsigned elem_bits)
{
	rig_shape s = RIG_SHAPE_INIT;
	s.p.rows = rows, s.p.cols = cols, s.p.batch = 1, s.p.elem_bytes = elem_bits / 8;
	return s;
}

unsigned rig_shape_elem_bytes(const rig_shape *s)
{
	return s->p.elem_bytes;
}

unsigned rig_shape_elem_bits(const rig_shape *s)
{
	return s->p.elem_bytes * 8;
}

/* The batch count a rig_shape must have: 0 is a batch of none here, not the
 * desc's default of one (the rig sizes and walks its buffers by it). */
static px_status batch_set(const rig_shape *s, char *err, size_t errlen)
{
	if (s->p.batch)
		return PX_OK;
	snprintf(err, errlen, "batch 0 is out of range (1 to %u)", RIG_DIM_MAX);
	return PX_EUSAGE;
}

/* The library's check of d (ptxpose_tool_desc_check), its message into err:
 * 0, or -1. */
static int desc_check(ptxpose_desc *d, int shape_only, char *err, size_t errlen)
{
	if (!ptxpose_tool_desc_check(d, shape_only))
		return 0;
	snprintf(err, errlen, "%s", ptxpose_last_error());
	return -1;
}

px_status rig_shape_check(rig_shape *s, char *err, size_t errlen)
{
	if ((!s->p.rank && batch_set(s, err, errlen)) || desc_check(&s->p, 1, err, errlen))
		return PX_EUSAGE;
	if (!elem_valid_bytes(s->p.elem_bytes)) {
		snprintf(err, errlen, "elem %u is not " ELEM_BITS_LIST " bits", rig_shape_elem_bits(s));
		return PX_EUSAGE;
	}
	return desc_check(&s->p, 0, err, errlen) ? PX_EUSAGE : PX_OK;
}

uint64_t rig_shape_in_bytes(const rig_shape *s)
{
	uint64_t in, out;
	ptxpose_tool_desc_bytes(&s->p, &in, &out);
	return in;
}

uint64_t rig_shape_out_bytes(const rig_shape *s)
{
	uint64_t in, out;
	ptxpose_tool_desc_bytes(&s->p, &in, &out);
	return out;
}

uint64_t rig_shape_host_bytes(const rig_shape *s)
{
	uint64_t out = rig_shape_out_bytes(s);
	return rig_shape_in_bytes(s) + out + (s->p.rank ? out : 0);
}

uint64_t rig_shape_moved_bytes(const rig_shape *s)
{
	if (s->p.rank)
		return 2 * rig_shape_nd_elems(s) * rig_shape_elem_bytes(s);
	return 2 * (s->p.batch ? s->p.batch : 1) * s->p.rows * s->p.cols * rig_shape_elem_bytes(s);
}

/* " key=value" appended at buf + *n while there is room. */
static void name_key(char *buf, size_t len, int *n, const char *key, unsigned long long v)
{
	if (*n >= 0 && (size_t)*n < len)
		*n += snprintf(buf + *n, len - (size_t)*n, " %s=%llu", key, v);
}

const char *rig_shape_name(const rig_shape *s, char *buf, size_t len)
{
	const ptxpose_desc *p = &s->p;
	if (p->rank)
		return rig_shape_nd_name(s, buf, len);
	int n = snprintf(buf, len, "%llux%llu", (unsigned long long)p->rows, (unsigned long long)p->cols);
	uint64_t ld_in = p->ld_in ? p->ld_in : p->cols, ld_out = p->ld_out ? p->ld_out : p->rows;
	if (ld_in != p->cols)
		name_key(buf, len, &n, "ld_in", ld_in);
	if (ld_out != p->rows)
		name_key(buf, len, &n, "ld_out", ld_out);
	if (s->offset)
		name_key(buf, len, &n, "offset", s->offset);
	if (p->batch > 1) {
		name_key(buf, len, &n, "batch", p->batch);
		if (p->stride_in && p->stride_in != p->rows * ld_in)
			name_key(buf, len, &n, "stride_in", p->stride_in);
		if (p->stride_out && p->stride_out != p->cols * ld_out)
			name_key(buf, len, &n, "stride_out", p->stride_out);
	}
	return buf;
}

/* The decimal digits at p: their count (0 when p holds none), the value in
 * *out, saturated at UINT64_MAX when it overflows. */
static size_t digits(const char *p, uint64_t *out)
{
	size_t n = 0;
	*out = 0;
	for (; p[n] >= '0' && p[n] <= '9'; n++)
		if (__builtin_mul_overflow(*out, 10, out) || __builtin_add_overflow(*out, (uint64_t)(p[n] - '0'), out))
			*out = UINT64_MAX;
	return n;
}

/* The keys of a list entry. Spellings of one key share an id, so a key given
 * twice is refused however it is spelt; a new key is one line here. */
static const struct {
	const char *key;
	unsigned id;
	size_t off;       /* the uint64_t field of rig_shape */
	uint64_t lo, hi;
} shape_keys[] = {
	{"elem", 0, 0, 8, 128},   /* p.elem_bytes, read by elem_parse_n, not as a number */
	{"ld-in", 1, offsetof(rig_shape, p.ld_in), 1, RIG_DIM_MAX},
	{"ld-out", 2, offsetof(rig_shape, p.ld_out), 1, RIG_DIM_MAX},
	{"ld_in", 1, offsetof(rig_shape, p.ld_in), 1, RIG_DIM_MAX},
	{"ld_out", 2, offsetof(rig_shape, p.ld_out), 1, RIG_DIM_MAX},
	{"offset", 3, offsetof(rig_shape, offset), 0, 15},
	{"batch", 4, offsetof(rig_shape, p.batch), 1, RIG_DIM_MAX},
	{"stride-in", 5, offsetof(rig_shape, p.stride_in), 0, RIG_STRIDE_MAX},  /* 0: packed */
	{"stride-out", 6, offsetof(rig_shape, p.stride_out), 0, RIG_STRIDE_MAX},
	{"stride_in", 5, offsetof(rig_shape, p.stride_in), 0, RIG_STRIDE_MAX},
	{"stride_out", 6, offsetof(rig_shape, p.stride_out), 0, RIG_STRIDE_MAX},
};
#define NKEYS (sizeof shape_keys / sizeof shape_keys[0])

/* One number of an entry at *p, ending at '\0' or `stop`: 0 and *p past it,
 * or -1 with the reason in why ("" when the entry's form is wrong). */
static int entry_num(const char **p, char stop, const char *name, uint64_t lo, uint64_t hi, uint64_t *v,
		     char *why, size_t wlen)
{
	size_t n = digits(*p, v);
	if (!n || ((*p)[n] && (*p)[n] != stop))
		return -1;
	if (*v < lo || *v > hi) {
		snprintf(why, wlen, "%s %.*s is out of range (%llu to %llu)", name, (int)n, *p,
			 (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	*p += n;
	return 0;
}

/* key=N at p (just past its ':'), stored in s; seen holds the ids given so far. */
static int entry_key(const char **p, rig_shape *s, unsigned *seen, char *why, size_t wlen)
{
	const char *key = *p;
	size_t kl = strcspn(key, "=:");
	if (key[kl] != '=')
		return -1;
	size_t k = 0;
	while (k < NKEYS && (strlen(shape_keys[k].key) != kl || strncmp(key, shape_keys[k].key, kl)))
		k++;
	if (k == NKEYS) {
		snprintf(why, wlen, "unknown key '%.*s' (ld_in, ld_out, elem, offset, batch, stride_in, stride_out)", (int)(kl < 40 ? kl : 40), key);
		return -1;
	}
	if (*seen & (1u << shape_keys[k].id)) {
		snprintf(why, wlen, "%s given twice", shape_keys[k].key);
		return -1;
	}
	*seen |= 1u << shape_keys[k].id;
	*p = key + kl + 1;
	if (shape_keys[k].id == 0) {
		size_t n = strcspn(*p, ":");
		char ew[400];
		unsigned bits;
		if (elem_parse_n(*p, n, &bits, NULL, ew, sizeof ew)) {
			snprintf(why, wlen, "elem %s", ew);
			return -1;
		}
		s->p.elem_bytes = bits / 8;
		*p += n;
		return 0;
	}
	uint64_t v;
	if (entry_num(p, ':', shape_keys[k].key, shape_keys[k].lo, shape_keys[k].hi, &v, why, wlen))
		return -1;
	*(uint64_t *)((char *)s + shape_keys[k].off) = v;
	return 0;
}

/* What can be checked before the element width is known (nothing of s
 * changes). */
static px_status early_check(const rig_shape *s, char *err, size_t errlen)
{
	rig_shape t = *s;
	if (t.p.rank && !t.p.elem_bytes)
		t.p.elem_bytes = 1; /* the N-d check needs a width: the smallest, the shape's facts alone */
	if (!t.p.rank && batch_set(s, err, errlen))
		return PX_EUSAGE;
	return desc_check(&t.p, 1, err, errlen) ? PX_EUSAGE : PX_OK;
}

/* The keys whose value is a list of rank numbers (common/ndspec.h's). */
static int nd_list_key(const char *key, size_t kl)
{
	static const char *const nd_keys[] = {"perm", "strides_in", "strides_out"};
	for (size_t k = 0; k < sizeof nd_keys / sizeof nd_keys[0]; k++)
		if (strlen(nd_keys[k]) == kl && !strncmp(key, nd_keys[k], kl))
			return 1;
	return 0;
}

/* The entry at p: its length (to the ',' that ends it: an N-d list key takes
 * rank values with commas between), and whether it is N-d (3 extents or
 * more, or an N-d key). */
static size_t entry_scan(const char *p, int *nd)
{
	size_t shape = strcspn(p, ":,");
	unsigned rank = 1;
	for (size_t i = 0; i < shape; i++)
		rank += p[i] == 'x';
	*nd = rank > 2;
	const char *q = p + shape;
	while (*q == ':') {
		q++;
		size_t kl = strcspn(q, "=:,");
		int list = q[kl] == '=' && nd_list_key(q, kl);
		*nd |= list;
		q += strcspn(q, ":,");
		for (unsigned c = 1; list && c < rank && *q == ','; c++)
			q += 1 + strcspn(q + 1, ":,");
	}
	return (size_t)(q - p) + strcspn(q, ",");
}

/* An N-d entry: the spec's part to ndspec_parse, elem= and offset= here. */
static px_status parse_nd(const char *text, rig_shape *s, char *err, size_t errlen)
{
	char *spec = malloc(strlen(text) + 1), why[512] = "";
	if (!spec) {
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	size_t n = strcspn(text, ":");
	memcpy(spec, text, n);
	unsigned seen = 0;
	px_status st = PX_OK;
	for (const char *p = text + n; *p == ':' && !st;) {
		size_t kl = strcspn(p + 1, "=:"), len = 1 + strcspn(p + 1, ":");
		if (nd_list_key(p + 1, kl)) {
			memcpy(spec + n, p, len);
			n += len;
			p += len;
		} else if ((kl == 4 && !strncmp(p + 1, "elem", 4)) || (kl == 6 && !strncmp(p + 1, "offset", 6))) {
			p++;
			if (entry_key(&p, s, &seen, why, sizeof why)) {
				snprintf(err, errlen, "bad shape '%s': %s", text, why[0] ? why : "expected a number");
				st = PX_EUSAGE;
			}
		} else {
			snprintf(err, errlen, "bad shape '%s': unknown key '%.*s' (an N-d shape is " RIG_SHAPE_ND_SYNTAX ")",
				 text, (int)(kl < 40 ? kl : 40), p + 1);
			st = PX_EUSAGE;
		}
	}
	spec[n] = '\0';
	ndspec sp;
	if (!st && ndspec_parse(spec, &sp, NULL, err, errlen))
		st = PX_EUSAGE;
	free(spec);
	if (st)
		return st;
	rig_shape_set_nd(s, &sp);
	if ((st = early_check(s, why, sizeof why)))
		snprintf(err, errlen, "shape '%s': %s", text, why);
	return st;
}

px_status rig_shape_parse(const char *text, rig_shape *s, char *err, size_t errlen)
{
	*s = rig_shape_of(0, 0, 0);
	const char *p = text;
	char why[512] = "";
	unsigned seen = 0;
	int nd;
	entry_scan(text, &nd);
	if (nd)
		return parse_nd(text, s, err, errlen);
	if (entry_num(&p, 'x', "rows", 1, RIG_DIM_MAX, &s->p.rows, why, sizeof why) || *p++ != 'x' ||
	    entry_num(&p, ':', "cols", 1, RIG_DIM_MAX, &s->p.cols, why, sizeof why))
		goto bad;
	while (*p == ':') {
		p++;
		if (entry_key(&p, s, &seen, why, sizeof why))
			goto bad;
	}
	px_status st = early_check(s, why, sizeof why);
	if (st)
		snprintf(err, errlen, "shape '%s': %s", text, why);
	return st;
bad:
	if (why[0])
		snprintf(err, errlen, "bad shape '%s': %s", text, why);
	else
		snprintf(err, errlen, "bad shape '%s': expected " RIG_SHAPE_SYNTAX " with values from 1 to %u, W an "
			 "element width (32, 4B or f32); or an N-d shape, " RIG_SHAPE_ND_SYNTAX, text, RIG_DIM_MAX);
	return PX_EUSAGE;
}

px_status rig_shape_list(const char *list, rig_shape **out, size_t *n, char *err, size_t errlen)
{
	*out = NULL;
	*n = 0;
	size_t cap = 1;
	for (const char *p = list; *p; p++)
		cap += *p == ',';
	rig_shape *v = calloc(cap, sizeof *v);
	char *copy = strdup(list);
	if (!v || !copy) {
		free(v);
		free(copy);
		snprintf(err, errlen, "out of memory");
		return PX_ENOMEM;
	}
	px_status st = PX_OK;
	size_t k = 0;
	for (char *t = copy; t && !st; k++) {
		int nd;
		char *comma = t + entry_scan(t, &nd);
		if (!*comma)
			comma = NULL;
		if (comma)
			*comma = '\0';
		if (!*t) {
			snprintf(err, errlen, "shape list '%s': entry %zu is empty", list, k + 1);
			st = PX_EUSAGE;
		} else {
			st = rig_shape_parse(t, &v[k], err, errlen);
		}
		t = comma ? comma + 1 : NULL;
	}
	free(copy);
	if (st) {
		free(v);
		return st;
	}
	*out = v;
	*n = k;
	return PX_OK;
}

px_status rig_shape_select(const char *list, const rig_shape *one, rig_shape **out, size_t *n,
			  char *err, size_t errlen)
{
	*out = NULL;
	*n = 0;
	if (!one->p.rows && !one->p.cols && !one->p.rank)
		return rig_shape_list(list, out, n, err, errlen);
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
