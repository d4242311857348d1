/* Unit tests for the selection table (loader/select.c). Prints TAP. */
#include <stdio.h>
#include <string.h>

#include "rig/select.h"
#include "tests/unit/tap.h"

static void is(const char *got, const char *want, const char *what) { is_str(got, want, what); }

int main(void)
{
	const char *t = "# measured on a GPU\n"
			"32 16384 16384 big_b32 97.1\n"
			"32 2048 2048 small_b32 95.0\n"
			"32 65536 4096 tall_b32 98.0\n"
			"32 8191 8193 odd_b32 86.0\n"
			"8 16384 16384 big_b8 96.0\n";
	char k[128], err[200];
	sel_pick(t, 32, 16384, 16384, 16384, 16384, k, sizeof k, err, sizeof err);
	is(k, "big_b32", "an exact shape picks its row");
	sel_pick(t, 32, 1500, 3000, 3000, 1500, k, sizeof k, err, sizeof err);
	is(k, "small_b32", "an uncovered shape picks the nearest measured one");
	sel_pick(t, 32, 70000, 3000, 3000, 70000, k, sizeof k, err, sizeof err);
	is(k, "tall_b32", "tall and skinny picks the tall row");
	sel_pick(t, 8, 7, 30000, 30000, 7, k, sizeof k, err, sizeof err);
	is(k, "big_b8", "the only row of a width");
	sel_pick(t, 32, 16384, 16384, 16385, 16384, k, sizeof k, err, sizeof err);
	is(k, "odd_b32", "a pitch that rules out 16-byte vectors picks a misaligned measurement");
	sel_pick(t, 32, 4000, 6001, 6001, 4000, k, sizeof k, err, sizeof err);
	is(k, "odd_b32", "an odd shape picks the odd measurement, not the nearer aligned one");
	sel_pick(t, 8, 8191, 8193, 8193, 8191, k, sizeof k, err, sizeof err);
	is(k, "big_b8", "no row of the class: the nearest of any");
	int rc = sel_pick(t, 64, 10, 10, 10, 10, k, sizeof k, err, sizeof err);
	is(rc == -1 && strstr(err, "64-bit") ? "refused" : k, "refused", "no row for the width: an error naming it");
	rc = sel_pick("32 10 x k 1\n", 32, 10, 10, 10, 10, k, sizeof k, err, sizeof err);
	is(rc == -1 && strstr(err, "line 1") ? "refused" : k, "refused", "a malformed line is named");
	/* issue 9, item 10: numbers are never wrapped ("4294967328" read as 32) */
	static const char *const bad[] = {
		"4294967328 10 10 k 1\n", "32 18446744073709551626 10 k 1\n", "32 10 4294967306 k 1\n",
		"24 10 10 k 1\n", "32 0 10 k 1\n", "32 10 10 k 1 extra\n", "32 10 10 k nan\n", "32 10 10 k 1x\n",
		"+32 10 10 k 1\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		rc = sel_pick(bad[i], 32, 10, 10, 10, 10, k, sizeof k, err, sizeof err);
		ok(rc == -1 && strstr(err, "line 1"), "a bad row is refused: %.*s", (int)strcspn(bad[i], "\n"), bad[i]);
	}
	return tap_done();
}
