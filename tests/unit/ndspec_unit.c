/* Unit tests for common/ndspec.c: N-d permutation specs
 * (D0xD1x...:perm=p0,p1,...[:strides_in=...][:strides_out=...]), accepted
 * and refused, one line naming the bad token; and lists of them split at
 * the right commas. Prints TAP. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/ndspec.h"
#include "common/nd.h"
#include "tap.h"

static char err[512];

static void good(const char *text, unsigned rank, const char *want)
{
	ndspec s;
	char got[256] = "";
	size_t at = 0;
	if (ndspec_parse(text, &s, NULL, err, sizeof err)) {
		ok(0, "'%s' is accepted", text);
		printf("#   %s\n", err);
		return;
	}
	for (unsigned k = 0; k < s.rank && at < sizeof got; k++)
		at += (size_t)snprintf(got + at, sizeof got - at, "%s%" PRIu64 "/%u/%" PRId64 "/%" PRId64, k ? " " : "",
				       s.ext[k], s.perm[k], s.s_in[k], s.s_out[k]);
	ok(s.rank == rank, "'%s': rank %u", text, s.rank);
	is_str(got, want, "  ... extents/perm/s_in/s_out");
}

static void bad(const char *text, const char *want)
{
	ndspec s;
	err[0] = '\0';
	int rc = ndspec_parse(text, &s, NULL, err, sizeof err);
	char shown[128];
	size_t n = 0;
	for (const char *c = text; *c && n + 3 < sizeof shown; c++)
		n += (size_t)snprintf(shown + n, sizeof shown - n, *c == '\n' ? "\\n" : "%c", *c);
	shown[n] = '\0';
	ok(rc == -1 && !strchr(err, '\n'), "'%s' is refused on one line", shown);
	is_str(err, want, "  ... naming what");
}

int main(void)
{
	good("4x5:perm=1,0", 2, "4/1/0/0 5/0/0/0");
	good("7:perm=0", 1, "7/0/0/0");
	good("2x3x4:perm=2,0,1:strides_in=100,20,1:strides_out=-3,0,9", 3, "2/2/100/-3 3/0/20/0 4/1/1/9");
	good("2x3:strides_out=3,1:perm=1,0", 2, "2/1/0/3 3/0/0/1");
	good("1x2x3x4x5x6x7x8:perm=7,6,5,4,3,2,1,0", 8, "1/7/0/0 2/6/0/0 3/5/0/0 4/4/0/0 5/3/0/0 6/2/0/0 7/1/0/0 8/0/0/0");
	good("18446744073709551615x0:perm=1,0:strides_in=9223372036854775807,-9223372036854775807", 2,
	     "18446744073709551615/1/9223372036854775807/0 0/0/-9223372036854775807/0");
	ndspec s;
	ndspec_parse("2x3:perm=1,0:strides_in=4,1", &s, NULL, err, sizeof err);
	ok(s.has_s_in && !s.has_s_out, "has_s_in and not has_s_out");

	bad("4xx5:perm=1,0", "bad spec '4xx5:perm=1,0': extent 1 is empty");
	bad("x5:perm=1,0", "bad spec 'x5:perm=1,0': extent 0 is empty");
	bad("", "bad spec '': extent 0 is empty");
	bad("4x5y:perm=1,0", "bad spec '4x5y:perm=1,0': extent 1 is not a number: '5y'");
	bad("4x5x:perm=1,0", "bad spec '4x5x:perm=1,0': extent 2 is empty");
	bad("1x2x3x4x5x6x7x8x9:perm=0", "bad spec '1x2x3x4x5x6x7x8x9:perm=0': more than 8 dims");
	bad("18446744073709551616:perm=0",
	    "bad spec '18446744073709551616:perm=0': extent 0 overflows (over 18446744073709551615): '18446744073709551616'");
	bad("4x5", "bad spec '4x5': no perm= (give D0xD1x...:perm=p0,p1,...)");
	bad("4x5:perm=1", "bad spec '4x5:perm=1': perm has 1 entries for rank 2");
	bad("4x5:perm=1,0,2", "bad spec '4x5:perm=1,0,2': perm has more than 2 entries for rank 2");
	bad("4x5:perm=1,", "bad spec '4x5:perm=1,': perm 1 is empty");
	bad("4x5:perm=1,a", "bad spec '4x5:perm=1,a': perm 1 is not a number: 'a'");
	bad("4x5:perm=1,-1", "bad spec '4x5:perm=1,-1': perm 1 is not a number: '-1'");
	bad("4x5:perm=1,4294967296", "bad spec '4x5:perm=1,4294967296': perm 1 overflows (over 4294967295): "
	    "'4294967296'");
	bad("4x5:perm=1,0:perm=0,1", "bad spec '4x5:perm=1,0:perm=0,1': perm given twice");
	bad("4x5:perm=1,0:strides_in=5,1:strides_in=5,1",
	    "bad spec '4x5:perm=1,0:strides_in=5,1:strides_in=5,1': strides_in given twice");
	bad("4x5:perm=1,0:strides_out=9223372036854775808,1", "bad spec '4x5:perm=1,0:strides_out=9223372036854775808,1'"
	    ": strides_out 0 overflows (over 9223372036854775807): '9223372036854775808'");
	bad("4x5:perm=1,0:strides_in=-,1", "bad spec '4x5:perm=1,0:strides_in=-,1': strides_in 0 is not a number: '-'");
	bad("4x5:perm=1,0:stride_in=5,1", "bad spec '4x5:perm=1,0:stride_in=5,1': expected perm=, strides_in= or "
	    "strides_out= at 'stride_in=5'");
	bad("4x5:perm=1,0:", "bad spec '4x5:perm=1,0:': expected perm=, strides_in= or strides_out= at ''");
	bad("4x5:perm=1,0 ", "bad spec '4x5:perm=1,0 ': perm 1 is not a number: '0 '");
	bad("4x5:perm=1,0,", "bad spec '4x5:perm=1,0,': perm has more than 2 entries for rank 2");
	bad("4\nx5:perm=1,0", "bad spec '4\\nx5:perm=1,0': extent 0 is not a number: '4\\n'");
	bad("4x5:perm=1,0:strides_in=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22",
	    "bad spec '4x5:perm=1,0:strides_in=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,...': strides_in has more than 2 "
	    "entries for rank 2");

	/* a list: each spec ends at the comma after its last value */
	const char *list = "4x5:perm=1,0,2x3x4:perm=2,1,0:strides_in=12,4,1,7:perm=0", *p = list, *end;
	unsigned ranks[4], n = 0;
	while (n < 4 && !ndspec_parse(p, &s, &end, err, sizeof err)) {
		ranks[n++] = s.rank;
		if (!*end)
			break;
		p = end + 1;
	}
	ok(n == 3 && ranks[0] == 2 && ranks[1] == 3 && ranks[2] == 1 && !*end && s.ext[0] == 7,
	   "a list of three specs splits at the right commas (%u)", n);
	ok(ndspec_parse("4x5:perm=1,0,", &s, &end, err, sizeof err) == 0 && *end == ',' && end[1] == '\0',
	   "  ... a spec followed by a comma ends there");
	ok(ndspec_parse("4x5,3:perm=0", &s, &end, err, sizeof err) == -1 && strstr(err, "no perm="),
	   "  ... a shape without perm= before a comma is refused (%s)", err);

	/* to a problem */
	nd_problem p2;
	ndspec_parse("2x3x4:perm=2,0,1:strides_out=20,5,1", &s, NULL, err, sizeof err);
	nd_from_spec(&p2, &s, 8);
	ok(!nd_check(&p2, err, sizeof err) && p2.rank == 3 && p2.elem_bytes == 8 && p2.perm[0] == 2 && p2.s_in[0] == 12 &&
	   p2.s_out[0] == 20, "nd_from_spec: a problem nd_check accepts (%s)", err);
	ndspec_parse("2x3:perm=1,0:strides_in=0,0", &s, NULL, err, sizeof err);
	nd_from_spec(&p2, &s, 4);
	ok(!nd_check(&p2, err, sizeof err) && p2.s_in[0] == 0 && p2.s_in[1] == 0 && p2.s_out[0] == 2 && p2.s_out[1] == 1,
	   "  ... strides_in=0,0 given: a broadcast, not packed (%s)", err);
	return tap_done();
}
