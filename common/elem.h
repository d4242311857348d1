/* elem: an element width as a user writes it, the one rule for every
 * command and shape list: bits (`32`, as before), bytes with a unit (`4B`)
 * or a type name (`f32`, `bf16`, `c128`). A width is 8, 16, 32, 64 or 128
 * bits. */
#ifndef COMMON_ELEM_H
#define COMMON_ELEM_H

#include <stddef.h>

/* The valid widths in bits, and in bytes, for messages. */
#define ELEM_BITS_LIST "8, 16, 32, 64 or 128"
#define ELEM_BYTES_LIST "1, 2, 4, 8 or 16"

/* What a width may be, in one line for every command's help. */
#define ELEM_HELP "bits (8 to 128), bytes with a unit (1B to 16B) or a type (u8 e4m3 f16 bf16 f32 tf32 f64 " \
	"c64 c128 ...)"

/* What a user may write, for messages and help. */
#define ELEM_ACCEPTED "bits (8, 16, 32, 64, 128), bytes with a unit (1B, 2B, 4B, 8B, 16B) or a type " \
	"(u8 i8 s8 b8 e4m3 e5m2, f16 bf16 half u16 i16 s16 b16, f32 tf32 u32 i32 s32 b32, " \
	"f64 c64 u64 i64 s64 b64, c128 b128)"

/* How a width was written. */
typedef enum {
	ELEM_IN_BITS,
	ELEM_IN_BYTES,
	ELEM_IN_TYPE,
} elem_unit;

/* 1 if bits is 8, 16, 32, 64 or 128: the one rule. */
int elem_valid_bits(unsigned long long bits);
/* 1 if bytes is 1, 2, 4, 8 or 16 (the same rule in bytes). */
int elem_valid_bytes(unsigned long long bytes);

/* The n characters at text as a width: 0 with *bits (and *unit, if not NULL)
 * set, or -1 with one line in why (if not NULL): "'TEXT' is not an element
 * width: give ..." . Decimal digits are bits (leading zeros allowed); a
 * number followed by `B` is bytes; a type name matches in any case. */
int elem_parse_n(const char *text, size_t n, unsigned *bits, elem_unit *unit, char *why, size_t wlen);
int elem_parse(const char *text, unsigned *bits, elem_unit *unit, char *why, size_t wlen);

/* "bits", "bytes" or "a type name". */
const char *elem_unit_name(elem_unit u);

#endif
