/* ndspec: parse an N-d permutation spec (common/ndspec.h). */
#include "common/ndspec.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/strbuf.h"

/* The longest text and token quoted in a message. */
#define QUOTE_MAX 60
#define TOKEN_MAX 24

typedef struct {
	const char *text;
	char *err;
	size_t errlen;
} parse_ctx;

/* at most max bytes of s (n of them) escaped into sb, "..." when cut */
static void quote(strbuf *sb, const char *s, size_t n, size_t max)
{
	sb_add_esc(sb, s, n < max ? n : max, "'");
	if (n > max)
		sb_add(sb, "...");
}

/* "bad spec 'TEXT': " and the message; returns -1. %T in fmt is not
 * printf's: the token at tok (up to the next separator) quoted. */
__attribute__((format(printf, 3, 4))) static int fail(const parse_ctx *c, const char *tok, const char *fmt, ...)
{
	strbuf sb;
	sb_init(&sb);
	sb_add(&sb, "bad spec '");
	quote(&sb, c->text, strlen(c->text), QUOTE_MAX);
	sb_add(&sb, "': ");
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	if (tok) {
		sb_add(&sb, " '");
		quote(&sb, tok, strcspn(tok, "x:,"), TOKEN_MAX);
		sb_add(&sb, "'");
	}
	snprintf(c->err, c->errlen, "%s", sb.oom ? "bad spec (out of memory for the message)" : sb_str(&sb));
	sb_free(&sb);
	return -1;
}

/* The decimal digits at p: their count; *v the value, *over set when it
 * passes max. */
static size_t digits(const char *p, uint64_t max, uint64_t *v, int *over)
{
	size_t n = 0;
	*v = 0;
	*over = 0;
	for (; p[n] >= '0' && p[n] <= '9'; n++) {
		uint64_t d = (uint64_t)(p[n] - '0');
		if (*v > (max - d) / 10)
			*over = 1;
		else
			*v = *v * 10 + d;
	}
	return n;
}

/* One number at *p for `what` (NAME N: "extent 2", "perm entry 1"): a
 * digit string, with a '-' first where sign; ends at a separator of
 * `stops` or '\0'. 0 with *p past it, or -1. */
static int number(const parse_ctx *c, const char **p, const char *stops, int sign, uint64_t max, const char *what,
		  unsigned i, uint64_t *out, int *neg)
{
	const char *tok = *p, *q = *p;
	*neg = sign && *q == '-';
	q += *neg;
	if (!*tok || strchr(stops, *tok))
		return fail(c, NULL, "%s %u is empty", what, i);
	uint64_t v;
	int over;
	size_t n = digits(q, max, &v, &over);
	if (!n || (q[n] && !strchr(stops, q[n])))
		return fail(c, tok, "%s %u is not a number:", what, i);
	if (over)
		return fail(c, tok, "%s %u overflows (over %llu):", what, i, (unsigned long long)max);
	*out = v;
	*p = q + n;
	return 0;
}

/* The keys; each at most once. */
static const char *const keys[] = {"perm", "strides_in", "strides_out"};
#define NKEYS (sizeof keys / sizeof keys[0])

/* key=v0,v1,... at *p (past the ':'): exactly s->rank values. */
static int key_list(const parse_ctx *c, const char **p, ndspec *s, unsigned *seen, int list_mode)
{
	const char *key = *p;
	size_t kl = strcspn(key, "=:,");
	unsigned k = 0;
	while (k < NKEYS && (strlen(keys[k]) != kl || strncmp(key, keys[k], kl)))
		k++;
	if (key[kl] != '=' || k == NKEYS)
		return fail(c, key, "expected perm=, strides_in= or strides_out= at");
	if (*seen & (1u << k))
		return fail(c, NULL, "%s given twice", keys[k]);
	*seen |= 1u << k;
	*p = key + kl + 1;
	for (unsigned i = 0; i < s->rank; i++) {
		if (i && **p != ',')
			return fail(c, NULL, "%s has %u entries for rank %u", keys[k], i, s->rank);
		*p += i > 0;
		uint64_t v;
		int neg;
		if (number(c, p, ":,", k > 0, k ? (uint64_t)INT64_MAX : 0xffffffffu, keys[k], i, &v, &neg))
			return -1;
		if (k == 0)
			s->perm[i] = (unsigned)v;
		else
			(k == 1 ? s->s_in : s->s_out)[i] = neg ? -(int64_t)v : (int64_t)v;
	}
	if (**p == ',' && !list_mode)
		return fail(c, NULL, "%s has more than %u entries for rank %u", keys[k], s->rank, s->rank);
	s->has_s_in |= k == 1;
	s->has_s_out |= k == 2;
	return 0;
}

int ndspec_parse(const char *text, ndspec *s, const char **end, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	parse_ctx c = {text, err, errlen};
	const char *p = text;
	for (;;) {
		if (s->rank == NDSPEC_MAX_RANK)
			return fail(&c, NULL, "more than %u dims", NDSPEC_MAX_RANK);
		uint64_t v;
		int neg;
		if (number(&c, &p, "x:,", 0, UINT64_MAX, "extent", s->rank, &v, &neg))
			return -1;
		s->ext[s->rank++] = v;
		if (*p != 'x')
			break;
		p++;
	}
	unsigned seen = 0;
	while (*p == ':') {
		p++;
		if (key_list(&c, &p, s, &seen, end != NULL))
			return -1;
	}
	if (*p && !(end && *p == ','))
		return fail(&c, p, "unexpected text at");
	if (!(seen & 1))
		return fail(&c, NULL, "no perm= (give D0xD1x...:perm=p0,p1,...)");
	if (end)
		*end = p;
	return 0;
}
