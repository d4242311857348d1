#include "rig/select.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 if both row pitches are whole 16-byte granules. */
static int aligned16(unsigned elem, uint64_t ld_in, uint64_t ld_out)
{
	return (ld_in * elem / 8) % 16 == 0 && (ld_out * elem / 8) % 16 == 0;
}

/* A field of decimal digits in [lo, hi] (never wrapped: "4294967328" is no 32). */
static int field_num(const char *t, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = 0;
	for (; t[n] >= '0' && t[n] <= '9'; n++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(t[n] - '0'), &v))
			return -1;
	if (!n || t[n] || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* "elem rows cols kernel pct": 0, or -1 when a field is missing, extra,
 * out of range or not a number. buf is cut into its fields. */
static int parse_row(char *buf, unsigned *elem, uint64_t *rows, uint64_t *cols, char *name, size_t nlen)
{
	char *f[6], *save = NULL;
	int n = 0;
	for (char *t = strtok_r(buf, " \t\r", &save); t && n < 6; t = strtok_r(NULL, " \t\r", &save))
		f[n++] = t;
	uint64_t e;
	char *end;
	if (n != 5 || field_num(f[0], 8, 128, &e) || (e & (e - 1)) || field_num(f[1], 1, 0x7fffffff, rows) ||
	    field_num(f[2], 1, 0x7fffffff, cols) || strlen(f[3]) >= nlen)
		return -1;
	double pct = strtod(f[4], &end);
	if (end == f[4] || *end || !isfinite(pct))
		return -1;
	*elem = (unsigned)e;
	snprintf(name, nlen, "%s", f[3]);
	return 0;
}

int sel_pick(const char *table, unsigned elem, uint64_t rows, uint64_t cols,
	     uint64_t ld_in, uint64_t ld_out, char *kernel, size_t klen,
	     char *err, size_t errlen)
{
	return sel_pick_at(table, elem, rows, cols, ld_in, ld_out, 0, kernel, klen, err, errlen);
}

int sel_pick_at(const char *table, unsigned elem, uint64_t rows, uint64_t cols,
		uint64_t ld_in, uint64_t ld_out, unsigned offset, char *kernel, size_t klen,
		char *err, size_t errlen)
{
	double best = INFINITY, best_any = INFINITY;
	char any[128] = "";
	int want = aligned16(elem, ld_in, ld_out) && (uint64_t)offset * elem / 8 % 16 == 0;
	int line = 0;
	kernel[0] = '\0';
	for (const char *p = table; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char buf[256];
		line++;
		if (n >= sizeof buf) {
			snprintf(err, errlen, "selection table line %d is too long", line);
			return -1;
		}
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n + (nl != NULL);
		if (buf[strspn(buf, " \t\r")] == '#' || buf[strspn(buf, " \t\r")] == '\0')
			continue;
		unsigned e;
		uint64_t r, c;
		char name[128];
		if (parse_row(buf, &e, &r, &c, name, sizeof name)) {
			snprintf(err, errlen, "selection table line %d: want 'elem rows cols kernel pct' with elem 8, 16, "
				 "32, 64 or 128 and rows, cols from 1 to 2147483647", line);
			return -1;
		}
		if (e != elem)
			continue;
		e = elem;
		double d = fabs(log2((double)rows) - log2((double)r)) + fabs(log2((double)cols) - log2((double)c));
		if (d < best_any) {
			best_any = d;
			snprintf(any, sizeof any, "%s", name);
		}
		if (aligned16(e, c, r) == want && d < best) {
			best = d;
			snprintf(kernel, klen, "%s", name);
		}
	}
	if (!kernel[0])
		snprintf(kernel, klen, "%s", any);
	if (!kernel[0]) {
		snprintf(err, errlen, "the selection table has no kernel for %u-bit elements", elem);
		return -1;
	}
	return 0;
}
