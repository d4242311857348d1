#include "common/elem.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Type names and their widths; ELEM_ACCEPTED lists them for users. */
static const struct {
	const char *name;
	unsigned bits;
} types[] = {
	{"u8", 8}, {"i8", 8}, {"s8", 8}, {"b8", 8}, {"e4m3", 8}, {"e5m2", 8},
	{"f16", 16}, {"bf16", 16}, {"half", 16}, {"u16", 16}, {"i16", 16}, {"s16", 16}, {"b16", 16},
	{"f32", 32}, {"tf32", 32}, {"u32", 32}, {"i32", 32}, {"s32", 32}, {"b32", 32},
	{"f64", 64}, {"c64", 64}, {"u64", 64}, {"i64", 64}, {"s64", 64}, {"b64", 64},
	{"c128", 128}, {"b128", 128},
};

int elem_valid_bits(unsigned long long bits)
{
	return bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128;
}

int elem_valid_bytes(unsigned long long bytes)
{
	return bytes <= 16 && elem_valid_bits(bytes * 8);
}

/* The decimal number of the n characters at p (all digits, at most 9), or -1. */
static long number(const char *p, size_t n)
{
	long v = 0;
	if (!n || n > 9)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

int elem_parse_n(const char *text, size_t n, unsigned *bits, elem_unit *unit, char *why, size_t wlen)
{
	long v = -1;
	elem_unit u = ELEM_IN_BITS;
	if (n && text[n - 1] == 'B' && (v = number(text, n - 1)) >= 0) {
		u = ELEM_IN_BYTES;
		v = v <= 16 ? v * 8 : -1;
	} else if ((v = number(text, n)) < 0) {
		u = ELEM_IN_TYPE;
		for (size_t i = 0; v < 0 && i < sizeof types / sizeof types[0]; i++)
			if (strlen(types[i].name) == n && !strncasecmp(text, types[i].name, n))
				v = types[i].bits;
	}
	if (v < 0 || !elem_valid_bits((unsigned long long)v)) {
		if (why)
			snprintf(why, wlen, "'%.*s' is not an element width: give %s", (int)(n < 40 ? n : 40), text,
				 ELEM_ACCEPTED);
		return -1;
	}
	*bits = (unsigned)v;
	if (unit)
		*unit = u;
	return 0;
}

int elem_parse(const char *text, unsigned *bits, elem_unit *unit, char *why, size_t wlen)
{
	return elem_parse_n(text, strlen(text), bits, unit, why, wlen);
}

const char *elem_unit_name(elem_unit u)
{
	return u == ELEM_IN_BYTES ? "bytes" : u == ELEM_IN_TYPE ? "a type name" : "bits";
}
