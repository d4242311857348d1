/* lex: PTX text into tokens. Words keep their dots ("ld.global.v4.b32",
 * "%tid.x", ".L1::no_allocate" inside an opcode); numbers follow PTX's
 * integer literals (decimal, 0x hex, 0b binary, leading-0 octal, U suffix). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_int.h"

static int word_start(int c) { return isalpha(c) || c == '_' || c == '$' || c == '%' || c == '.'; }
static int word_char(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.'; }

/* Parse an integer literal at s (already known to start with a digit).
 * Returns its length, or 0 if it is not a plain integer. */
static int lex_number(const char *s, uint64_t *out)
{
	const char *p = s;
	unsigned base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		base = 16, p += 2;
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		base = 2, p += 2;
	else if (p[0] == '0' && isdigit((unsigned char)p[1]))
		base = 8, p += 1;
	uint64_t v = 0;
	const char *digits = p;
	for (;; p++) {
		int c = (unsigned char)*p, d;
		if (isdigit(c))
			d = c - '0';
		else if (isxdigit(c) && base == 16)
			d = tolower(c) - 'a' + 10;
		else
			break;
		if ((unsigned)d >= base || v > (UINT64_MAX - (unsigned)d) / base)
			return 0;
		v = v * base + (unsigned)d;
	}
	if (p == digits && base != 10)
		return 0;
	if (*p == 'U')
		p++;
	if (word_char((unsigned char)*p))
		return 0;
	*out = v;
	return (int)(p - s);
}

static int push(emu_tok **t, size_t *n, size_t *cap, emu_tok tok)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 1024;
		emu_tok *q = realloc(*t, c * sizeof *q);
		if (!q)
			return -1;
		*t = q;
		*cap = c;
	}
	(*t)[(*n)++] = tok;
	return 0;
}

emu_tok *emu_lex(const char *src, strbuf *diag)
{
	emu_tok *t = NULL;
	size_t n = 0, cap = 0;
	int line = 1;
	const char *p = src;
	for (;;) {
		unsigned char c = (unsigned char)*p;
		emu_tok tok = {.line = line, .s = p};
		if (c == '\n') {
			line++, p++;
			continue;
		}
		if (isspace(c)) {
			p++;
			continue;
		}
		if (c == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (c == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			if (!e) {
				sb_printf(diag, "line %d: unterminated /* comment", line);
				goto fail;
			}
			for (; p < e; p++)
				line += *p == '\n';
			p = e + 2;
			continue;
		}
		if (!c) {
			tok.kind = EMU_T_END;
			if (push(&t, &n, &cap, tok))
				goto oom;
			return t;
		}
		if (word_start(c)) {
			const char *q = p + 1;
			while (word_char((unsigned char)*q) || (q[0] == ':' && q[1] == ':'))
				q += q[0] == ':' ? 2 : 1;
			tok.kind = EMU_T_WORD;
			tok.len = (int)(q - p);
		} else if (isdigit(c)) {
			int len = lex_number(p, &tok.num);
			tok.kind = EMU_T_NUM;
			if (!len) {
				/* "8.0", "0f3f800000": a word the parser may reject */
				const char *q = p;
				while (word_char((unsigned char)*q))
					q++;
				len = (int)(q - p);
				tok.kind = EMU_T_WORD;
			}
			tok.len = len;
		} else if (c == '"') {
			const char *q = p + 1 + strcspn(p + 1, "\"\n");
			if (*q != '"') {
				sb_printf(diag, "line %d: unterminated string", line);
				goto fail;
			}
			tok.kind = EMU_T_STR;
			tok.len = (int)(q + 1 - p);
		} else if (strchr(",;{}[]()+-<>!@:|=", c)) {
			tok.kind = EMU_T_PUNCT;
			tok.punct = (char)c;
			tok.len = 1;
		} else {
			sb_printf(diag, "line %d: unexpected character '%c'", line, isprint(c) ? c : '?');
			goto fail;
		}
		if (push(&t, &n, &cap, tok))
			goto oom;
		p += tok.len;
	}
oom:
	sb_add(diag, "out of memory while reading the PTX");
fail:
	free(t);
	return NULL;
}
