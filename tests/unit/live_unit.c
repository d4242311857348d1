/* The table of live ids (lib/api_live.c), built here with small limits so
 * that its edges can be reached: a table of 2 chunks (2048 slots) and
 * generations up to 3. t0953, plainly and under ASan/UBSan:
 *   - a full table refuses a new id (0) and takes one again after a drop;
 *   - a slot whose generation is spent is retired: its ids read STALE for
 *     good and it is never handed out again;
 *   - ids of every other kind of wrong: INVALID, never a read out of the
 *     table. */
#define API_LIVE_CHUNKS 2
#define API_LIVE_GEN_MAX 3
/* this copy's names, apart from those of the library's own copy */
#define api_live_add t_add
#define api_live_drop t_drop
#define api_check_handle t_check_handle
#define api_check_plan t_check_plan
#define api_take_handle t_take_handle
#define api_take_plan t_take_plan
#define api_check_handle_arg t_check_handle_arg
#define api_check_plan_arg t_check_plan_arg
#include "lib/api_live.c"

#include <stdio.h>

#include "tests/unit/tap.h"

#define SLOTS (API_LIVE_CHUNKS * CHUNK)

static int objs[SLOTS + 1];

static ptxpose_status plan_of(uintptr_t id, void **obj)
{
	ptxpose_plan p = (ptxpose_plan)id;
	ptxpose_status st = t_check_plan(&p);
	*obj = p;
	return st;
}

static void test_full(void)
{
	static uintptr_t id[SLOTS];
	int bad = 0;
	for (int i = 0; i < SLOTS; i++)
		bad |= !(id[i] = t_add(&objs[i], 1));
	ok(!bad, "full: %d ids made", SLOTS);
	ok(!t_add(&objs[SLOTS], 1), "... one more: 0 (the table is full)");
	void *o;
	for (int i = 0; i < SLOTS && !bad; i++)
		bad = plan_of(id[i], &o) || o != &objs[i];
	ok(!bad, "... each names its object");
	t_drop(id[7]);
	uintptr_t again = t_add(&objs[SLOTS], 1);
	ok(again && again != id[7] && (again >> 4 & 0xfffffff) == (id[7] >> 4 & 0xfffffff),
	   "a drop frees a slot: taken again at its next generation");
	ok(plan_of(id[7], &o) == PTXPOSE_ERR_STALE, "... the old id: STALE");
	ok(!plan_of(again, &o) && o == &objs[SLOTS], "... the new one names the new object");
	t_drop(again);
	for (int i = 0; i < SLOTS; i++)
		if (i != 7)
			t_drop(id[i]);
}

static void test_retired(void)
{
	/* the free list is first in, first out: with every slot free, one slot
	 * comes round again only after all the others. Cycle one object
	 * through all slots until each generation is spent. */
	void *o;
	uintptr_t first = 0, last = 0;
	int made = 0, bad = 0;
	for (;;) {
		uintptr_t id = t_add(&objs[0], 1);
		if (!id)
			break;
		if (!first)
			first = id;
		bad |= plan_of(id, &o) != PTXPOSE_OK;
		if (made++ > 4 * SLOTS) {
			bad = 1;
			break;
		}
		t_drop(id);
		last = id;
	}
	/* test_full left each slot at generation 2, slot 7 at 3 */
	ok(!bad && made == SLOTS * (API_LIVE_GEN_MAX - 1) - 1,
	   "retire: each slot used up to generation %u, then never again (%d ids, then none)", API_LIVE_GEN_MAX, made);
	ok(last >> 32 == API_LIVE_GEN_MAX, "... the last id made had generation %llu",
	   (unsigned long long)(last >> 32));
	ok(plan_of(last, &o) == PTXPOSE_ERR_STALE && plan_of(first, &o) == PTXPOSE_ERR_STALE,
	   "... ids of a retired slot: STALE");
	ptxpose_handle h = (ptxpose_handle)last;
	ok(t_take_handle(&h) == PTXPOSE_ERR_STALE && t_check_handle(&h) == PTXPOSE_ERR_STALE,
	   "... as a handle too: STALE");
	ok(t_take_plan(&(ptxpose_plan){(ptxpose_plan)last}) == PTXPOSE_ERR_STALE, "... and cannot be destroyed again");
}

static void test_invalid(void)
{
	void *o;
	const uintptr_t bad[] = {
		1,                                                   /* no tag */
		(uintptr_t)1 << 32 | 0xb,                            /* slot 0 (none) */
		(uintptr_t)1 << 32 | (uintptr_t)(SLOTS + 1) << 4 | 0xb, /* past the table */
		(uintptr_t)1 << 32 | (uintptr_t)0xfffffff << 4 | 0xb, /* the last slot an id can name */
		(uintptr_t)5 << 32 | (uintptr_t)1 << 4 | 0xb,       /* a generation to come */
		(uintptr_t)&objs[0],                                 /* an address */
	};
	int n = 0;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		n += plan_of(bad[i], &o) == PTXPOSE_ERR_INVALID;
	ok(n == (int)(sizeof bad / sizeof bad[0]), "invalid ids: INVALID (%d of %zu)", n, sizeof bad / sizeof bad[0]);
	ok(plan_of(0, &o) == PTXPOSE_ERR_INVALID, "... and NULL");
}

int main(void)
{
	test_full();
	test_retired();
	test_invalid();
	return tap_done();
}
