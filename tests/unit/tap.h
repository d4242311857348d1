/* TAP helpers for the C unit tests in tests/unit/.
 * Header-only: each test is its own program. */
#ifndef TESTS_UNIT_TAP_H
#define TESTS_UNIT_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 2, 3))) static inline int ok(int cond, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	tap_failed += !cond;
	return cond;
}

/* ok when got == want; shows both otherwise. */
static inline int is_str(const char *got, const char *want, const char *what)
{
	if (ok(!strcmp(got, want), "%s", what))
		return 1;
	printf("#   got:  '%s'\n#   want: '%s'\n", got, want);
	return 0;
}

/* ok when got contains want. */
static inline int has_str(const char *got, const char *want, const char *what)
{
	if (ok(strstr(got, want) != NULL, "%s", what))
		return 1;
	printf("#   got:  '%s'\n#   want a part: '%s'\n", got, want);
	return 0;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#endif
