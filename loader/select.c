#include "loader/select.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* 1 if both row pitches are whole 16-byte granules. */
static int aligned16(unsigned elem, uint64_t ld_in, uint64_t ld_out)
{
	return (ld_in * elem / 8) % 16 == 0 && (ld_out * elem / 8) % 16 == 0;
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
		unsigned long long r, c;
		char name[128];
		double pct;
		if (sscanf(buf, "%u %llu %llu %127s %lf", &e, &r, &c, name, &pct) != 5 || !r || !c) {
			snprintf(err, errlen, "selection table line %d: want 'elem rows cols kernel pct'", line);
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
