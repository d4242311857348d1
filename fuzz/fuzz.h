/* fuzz.h: what the fuzz targets (fuzz/fuzz_NAME.c) share. */
#ifndef FUZZ_FUZZ_H
#define FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* libFuzzer's entry point: each fuzz/fuzz_NAME.c defines it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string in a heap buffer of exactly size + 1
 * bytes, so ASan sees a read past its end; NULL when out of memory. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (text) {
		memcpy(text, data, size);
		text[size] = '\0';
	}
	return text;
}

#endif
