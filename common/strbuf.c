#include "common/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(strbuf *sb) { memset(sb, 0, sizeof *sb); }

void sb_free(strbuf *sb)
{
	free(sb->data);
	sb_init(sb);
}

void sb_reset(strbuf *sb)
{
	sb->len = 0;
	if (sb->data)
		sb->data[0] = '\0';
}

static int sb_grow(strbuf *sb, size_t extra)
{
	if (sb->oom)
		return 0;
	if (sb->len + extra + 1 <= sb->cap)
		return 1;
	size_t cap = sb->cap ? sb->cap : 256;
	while (cap < sb->len + extra + 1)
		cap *= 2;
	char *p = realloc(sb->data, cap);
	if (!p) {
		sb->oom = 1;
		return 0;
	}
	sb->data = p;
	sb->cap = cap;
	return 1;
}

void sb_addn(strbuf *sb, const char *s, size_t n)
{
	if (!sb_grow(sb, n))
		return;
	memcpy(sb->data + sb->len, s, n);
	sb->len += n;
	sb->data[sb->len] = '\0';
}

void sb_add(strbuf *sb, const char *s) { sb_addn(sb, s, strlen(s)); }

void sb_addc(strbuf *sb, char c) { sb_addn(sb, &c, 1); }

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0 || !sb_grow(sb, (size_t)n))
		return;
	vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(sb, fmt, ap);
	va_end(ap);
}

void sb_pad_to(strbuf *sb, size_t col)
{
	size_t start = sb->len;
	while (start > 0 && sb->data[start - 1] != '\n')
		start--;
	size_t cur = sb->len - start;
	while (cur++ < col)
		sb_addc(sb, ' ');
}

void sb_add_esc(strbuf *sb, const char *s, size_t n, const char *also)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : c == 0 ? "\\0" : NULL;
		if (e) {
			sb_add(sb, e);
		} else if (c < 0x20 || c == 0x7f) {
			char x[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
			sb_addn(sb, x, 4);
		} else {
			if (also && strchr(also, c))
				sb_addc(sb, '\\');
			sb_addc(sb, (char)c);
		}
	}
}

const char *sb_str(const strbuf *sb) { return sb->data ? sb->data : ""; }
