/* api_live: the ids that callers hold for handles and plans, and the
 * objects they name while those live.
 *
 * A ptxpose_handle or ptxpose_plan given to a caller is not an address but
 * an id: a slot of a table and the slot's generation,
 *
 *   bits 63..32  generation (from 1)
 *   bits 31..4   slot + 1
 *   bits  3..0   TAG (never the low bits of an allocation)
 *
 * Destroying an object moves its slot to the next generation, so every id
 * of it is stale for good: a slot whose generation would wrap is retired,
 * never used again. A lookup takes no lock (ptxpose_execute stays lock
 * free): the table grows by chunks that are never moved or freed, and a
 * slot's state (generation and kind) is one atomic word. Creating and
 * destroying take the table's mutex; a destroy looks its id up again under
 * it, so of two threads destroying one object, one wins and the other gets
 * STALE. */
#include "lib/api.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define TAG 0xbu
#define CHUNK 1024
/* tests/unit/live_unit.c builds this file with small limits */
#ifndef API_LIVE_CHUNKS
#define API_LIVE_CHUNKS 4096 /* 4 Mi objects alive at once */
#endif
#ifndef API_LIVE_GEN_MAX
#define API_LIVE_GEN_MAX 0xffffffffu
#endif
#define CHUNKS API_LIVE_CHUNKS
#define GEN_MAX API_LIVE_GEN_MAX

enum { FREE = 0, HANDLE = 1, PLAN = 2, RETIRED = 3 };

typedef struct {
	_Atomic uint64_t state; /* generation << 2 | kind */
	void *_Atomic obj;
	uint32_t next;          /* the next free slot + 1, under the mutex */
} slot;

static struct {
	pthread_mutex_t mu;
	slot *_Atomic chunk[CHUNKS];
	uint32_t used;          /* slots handed out at least once */
	uint32_t head, tail;    /* the free slots (+ 1), the longest free first */
} live = {.mu = PTHREAD_MUTEX_INITIALIZER};

_Static_assert(sizeof(uintptr_t) == 8 && sizeof(ptxpose_handle) == 8 && sizeof(ptxpose_plan) == 8,
	       "ids need 64-bit pointers");

/* The slot an id names (UINT32_MAX: none). */
static uint32_t index_of(uintptr_t id)
{
	return (uint32_t)(id >> 4 & 0xfffffff) - 1;
}

/* Slot i, or NULL where no chunk holds it (an id may name any i). */
static slot *slot_at(uint32_t i)
{
	if (i >= (uint32_t)CHUNKS * CHUNK)
		return NULL;
	slot *c = atomic_load_explicit(&live.chunk[i / CHUNK], memory_order_acquire);
	return c ? &c[i % CHUNK] : NULL;
}

/* A fresh slot, under the mutex: its index, or -1. */
static int64_t take(void)
{
	if (live.head) {
		uint32_t i = live.head - 1;
		if (!(live.head = slot_at(i)->next))
			live.tail = 0;
		return i;
	}
	if (live.used == (uint32_t)CHUNKS * CHUNK)
		return -1;
	uint32_t i = live.used;
	if (!slot_at(i)) {
		slot *c = calloc(CHUNK, sizeof *c);
		if (!c)
			return -1;
		for (int k = 0; k < CHUNK; k++)
			atomic_init(&c[k].state, (uint64_t)1 << 2);
		atomic_store_explicit(&live.chunk[i / CHUNK], c, memory_order_release);
	}
	live.used++;
	return i;
}

uintptr_t api_live_add(void *obj, int plan)
{
	pthread_mutex_lock(&live.mu);
	int64_t i = take();
	uintptr_t id = 0;
	if (i >= 0) {
		slot *s = slot_at((uint32_t)i);
		uint64_t gen = atomic_load_explicit(&s->state, memory_order_relaxed) >> 2;
		atomic_store_explicit(&s->obj, obj, memory_order_relaxed);
		atomic_store_explicit(&s->state, gen << 2 | (plan ? PLAN : HANDLE), memory_order_release);
		id = (uintptr_t)(gen << 32 | (uint64_t)(i + 1) << 4 | TAG);
	}
	pthread_mutex_unlock(&live.mu);
	return id;
}

/* Slot i's object gone, under the mutex: the slot's next generation goes to
 * the end of the free list, or the slot is retired. */
static void drop(uint32_t i)
{
	slot *s = slot_at(i);
	uint64_t gen = atomic_load_explicit(&s->state, memory_order_relaxed) >> 2;
	atomic_store_explicit(&s->obj, NULL, memory_order_relaxed);
	if (gen == GEN_MAX) {
		atomic_store_explicit(&s->state, gen << 2 | RETIRED, memory_order_release);
		return;
	}
	atomic_store_explicit(&s->state, (gen + 1) << 2 | FREE, memory_order_release);
	s->next = 0;
	if (live.tail)
		slot_at(live.tail - 1)->next = i + 1;
	else
		live.head = i + 1;
	live.tail = i + 1;
}

void api_live_drop(uintptr_t id)
{
	pthread_mutex_lock(&live.mu);
	drop(index_of(id));
	pthread_mutex_unlock(&live.mu);
}

/* The object of id if it is of kind `want`: PTXPOSE_OK, or INVALID (never
 * an id, or one of the other kind) or STALE (destroyed). */
static ptxpose_status lookup(uintptr_t id, int want, void **obj)
{
	const char *what = want == PLAN ? "plan" : "handle", *other = want == PLAN ? "a handle" : "a plan";
	if (!id)
		return api_fail(PTXPOSE_ERR_INVALID, "the %s is NULL", what);
	uint64_t gen = (uint64_t)id >> 32;
	slot *s = (id & 0xf) == TAG ? slot_at(index_of(id)) : NULL;
	uint64_t state = s ? atomic_load_explicit(&s->state, memory_order_acquire) : 0;
	uint64_t now = state >> 2;
	int kind = (int)(state & 3);
	if (!s || !gen || gen > now || (gen == now && kind == FREE))
		return api_fail(PTXPOSE_ERR_INVALID, "not a ptxpose %s (never one)", what);
	if (gen < now || kind == RETIRED)
		return api_fail(PTXPOSE_ERR_STALE, "the %s was destroyed", what);
	if (kind != want)
		return api_fail(PTXPOSE_ERR_INVALID, "not a ptxpose %s (%s)", what, other);
	*obj = atomic_load_explicit(&s->obj, memory_order_relaxed);
	return PTXPOSE_OK;
}

/* *ref (a caller's ptxpose_handle or ptxpose_plan: an id) replaced by the
 * object it names, through lookup; with take, under the mutex and the id
 * dropped when it names a live object (a destroy): one step, so that one of
 * two destroys wins. memcpy: both types are pointers, read and written as
 * such. */
static ptxpose_status get(void *ref, int want, int take)
{
	uintptr_t id;
	void *obj = NULL;
	memcpy(&id, ref, sizeof id);
	if (take)
		pthread_mutex_lock(&live.mu);
	ptxpose_status st = lookup(id, want, &obj);
	if (!st && take)
		drop(index_of(id));
	if (take)
		pthread_mutex_unlock(&live.mu);
	if (!st)
		memcpy(ref, &obj, sizeof obj);
	return st;
}

ptxpose_status api_check_handle(ptxpose_handle *h)
{
	return get(h, HANDLE, 0);
}

ptxpose_status api_check_plan(ptxpose_plan *p)
{
	return get(p, PLAN, 0);
}

ptxpose_status api_take_handle(ptxpose_handle *h)
{
	return get(h, HANDLE, 1);
}

ptxpose_status api_take_plan(ptxpose_plan *p)
{
	return get(p, PLAN, 1);
}

/* ---- ids and arguments ------------------------------------------------------------- */

static ptxpose_status need(const void *arg, const char *name)
{
	return arg ? PTXPOSE_OK : api_fail(PTXPOSE_ERR_INVALID, "%s is NULL", name);
}

ptxpose_status api_check_handle_arg(ptxpose_handle *h, const void *arg, const char *name)
{
	ptxpose_status st = api_check_handle(h);
	return st ? st : need(arg, name);
}

ptxpose_status api_check_plan_arg(ptxpose_plan *p, const void *arg, const char *name)
{
	ptxpose_status st = api_check_plan(p);
	return st ? st : need(arg, name);
}
