/* Unit tests for what inspect shows: the bank-model lines (from the
 * generator's numbers) and JSON string escapes. TAP. */
#include <stdio.h>
#include <string.h>

#include "inspect/inspect.h"
#include "tests/unit/ins_tap.h"

static void is(const char *got, const char *want, const char *what)
{
	if (strcmp(got, want))
		printf("# got  '%s'\n# want '%s'\n", got, want);
	ok(!strcmp(got, want), what);
}

static void describe(const char *id, int st, unsigned bytes, unsigned w, unsigned ideal,
		     const char *want, const char *what)
{
	meta_smem a = {.op_store = st, .bytes = bytes, .wavefronts = w, .ideal = ideal};
	snprintf(a.id, sizeof a.id, "%s", id);
	strbuf sb;
	sb_init(&sb);
	ins_smem_describe(&a, &sb);
	is(sb_str(&sb), want, what);
	sb_free(&sb);
}

int main(void)
{
	describe("smem_st0", 1, 16, 4, 4, "st smem_st0: 16-byte, 4 wavefronts per request (ideal 4) conflict-free",
		 "16-byte store at its minimum is conflict-free");
	describe("smem_ld", 0, 4, 32, 1, "ld smem_ld: 4-byte, 32 wavefronts per request (ideal 1) 32-way",
		 "plain 32-bit column read is 32-way");
	describe("smem_st", 1, 4, 1, 1, "st smem_st: 4-byte, 1 wavefront per request (ideal 1) conflict-free",
		 "one wavefront, singular");
	describe("smem_st", 1, 8, 32, 2, "st smem_st: 8-byte, 32 wavefronts per request (ideal 2) 16-way",
		 "64-bit: 32 wavefronts over an ideal of 2 is 16-way");
	describe("x", 0, 8, 5, 2, "ld x: 8-byte, 5 wavefronts per request (ideal 2) 2.50x ideal",
		 "a ratio that is not whole");

	px_meta m;
	memset(&m, 0, sizeof m);
	m.nsmem = 3;
	m.smem[0] = (meta_smem){"a", 1, 4, 2, 1};
	m.smem[1] = (meta_smem){"b", 1, 16, 8, 4};
	m.smem[2] = (meta_smem){"c", 1, 4, 8, 1};
	const meta_smem *w = ins_smem_worst(&m, 1);
	is(w ? w->id : "(none)", "c", "worst store by wavefronts/ideal");
	is(ins_smem_worst(&m, 0) ? "found" : "(none)", "(none)", "no load: no worst load");

	strbuf sb;
	sb_init(&sb);
	ins_json_string(&sb, "a \"b\"\\c\n\t\x01");
	is(sb_str(&sb), "\"a \\\"b\\\"\\\\c\\n\\t\\u0001\"", "JSON string escapes");
	sb_free(&sb);

	return done_testing();
}
