/* strbuf: a growable, always NUL-terminated byte string. */
#ifndef COMMON_STRBUF_H
#define COMMON_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct {
	char *data;   /* NUL-terminated; NULL until the first append */
	size_t len;
	size_t cap;
	int oom;      /* set once an allocation failed; later appends are no-ops */
} strbuf;

void sb_init(strbuf *sb);
void sb_free(strbuf *sb);
void sb_reset(strbuf *sb);
void sb_addn(strbuf *sb, const char *s, size_t n);
void sb_add(strbuf *sb, const char *s);
void sb_addc(strbuf *sb, char c);
void sb_printf(strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);
/* Pad with spaces until the current line is `col` characters long. */
void sb_pad_to(strbuf *sb, size_t col);
/* Append the n bytes at s with control characters escaped, so that a
 * user-given string (a file name, a value; NUL bytes too) keeps a message,
 * a TAP line or a table cell on one line: \n, \r, \t and \0 as such,
 * other control bytes and DEL as \xHH; each character of `also` (may be
 * NULL) gets a backslash before it ("#" for a TAP description, "|" for a
 * Markdown cell). The one escaper of the tree. */
void sb_add_esc(strbuf *sb, const char *s, size_t n, const char *also);
/* The text, or "" when empty. Never NULL. */
const char *sb_str(const strbuf *sb);

#endif
