/* tp_pack: the pack family (cuTT's packed method), kernel ABI v4
 * (loader/abi.h). A block moves one small sub-tensor, the tile, of an N-d
 * permutation through shared memory: the tile is several whole or split
 * dims of the reduced problem (param_tdims: its extents and strides, in the
 * input's order and in the output's), and the batch records (param_bdims)
 * walk the tiles. Loads follow the input's fastest dims, stores the
 * output's, so both global sides are as coalesced as the tile's dims allow,
 * whatever the permutation.
 *
 * Positions. Thread t takes the tile's linear positions p = t + k*T for
 * k < K (`slots`): C = K*T elements a tile at most (per_block=C). Once per
 * block, each slot decodes p over the in-list (the input's order, fastest
 * first: d = p % ext, p /= ext) into its input byte offset and its shared
 * byte offset (the tile's shared copy is in the output's order), and over
 * the out-list into its output byte offset; the shared offset of a store
 * slot is p * elem bytes. The divisions are by magic numbers (as
 * gen/tp_flat.c's: m = ceil(2^31 / ext) with one div.u32 a record, then
 * x / ext = mul.hi.u32(2x, m), exact for x * ext < 2^31: abi_tdims_fill
 * keeps the vol, so positions and extents, at most 2^15), over the first n
 * records only (a uniform branch skips the neutral rest), for the slots
 * below vol only (slot k is past vol in every thread when k*T >= vol: a
 * uniform branch ends the record's slots there). Shared memory
 * is touched by positions below vol only (a slot past it costs no shared
 * bandwidth): the load slots store every one of them (the positions below
 * vol map one to one onto the copy's first vol elements; a partial tile's
 * invalid slots store places that no valid store slot reads), the store
 * slots load the valid ones.
 *
 * Validity. A slot is inside the tile iff p < vol and, in a partial tile
 * (the end of a split dim: a split's limit min(t, E - digit*t) under its
 * tile extent t), the digit of each split so cut (p / its place value in
 * the phase's order, mod t; magics computed once a block) is below the
 * limit. Whole tiles, and whole splits of a partial one (uniform
 * branches), test p < vol only: one setp a slot.
 *
 * Tiles, pipelined. For tile j = ctaid.x, ctaid.x + nctaid.x, ... below
 * batch: the bases from j decoded over the batch records (tp_walk.c's
 * decode, on the uniform datapath), split k's tile index the digit of
 * batch record k. The first tile's K global loads are issued before the
 * loop; then, for each tile: its K shared stores, a barrier, the next
 * tile's K global loads (into the same registers, now free; none past the
 * last tile), this tile's K shared loads and K global stores, a barrier.
 * The next tile's loads are in flight during this tile's stores. The loop
 * is written for K slots and for each power of 2 below K (WALK1, WALK2,
 * ...); the block takes the smallest that covers vol (a uniform branch),
 * so a tile far below the capacity costs no work for its empty slots.
 *
 * Elements move one at a time (any element-aligned pointer); 16-byte
 * elements as .v2.b64 (pointers are element-aligned: docs/DESIGN.md).
 * Offsets in a tile fit in 31 bits (abi_tdims_fill refuses larger spans).
 * Registers: at most 64 at 256 threads (4 blocks an SM; the variants set
 * max_regs=64, under which ptxas spills nothing). The grid (grid=pack, loader/meta.c's
 * meta_pack_blocks): a block a tile up to 512 tiles, then each block walks
 * at least 2 (at most 1024 blocks). */
#include <stdio.h>
#include <string.h>

#include "gen/tp_lib.h"
#include "loader/abi.h"

#define PK_SMEM_MAX 49152 /* static shared memory */
#define PK_SLOTS_MAX 16

typedef struct {
	unsigned slots; /* positions a thread takes, each phase */
} tp_pack;

static const tp_param params[] = {
	TP_INT("slots", 4, 1, PK_SLOTS_MAX, tp_pack, slots), /* flat's default and range too: gen/tp.c own_param */
	TP_END,
};

static const tp_pack *pack_of(const tp_params *p) { return (const tp_pack *)p->own.bytes; }

static unsigned es_of(const tp_params *p) { return p->elem / 8 ? p->elem / 8 : 1; }

/* Elements a tile holds at most, and shared bytes. */
static unsigned capacity(const tp_params *p) { return pack_of(p)->slots * p->tx; }
static unsigned smem_bytes(const tp_params *p) { return capacity(p) * es_of(p); }

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int validate(const tp_params *p, char *err, size_t errlen)
{
	if (p->foreign)
		return tp_check_foreign(p, err, errlen);
	if (p->ty != 1)
		FAIL("threads: a pack kernel takes threads={T, 1}, not %ux%u", p->tx, p->ty);
	if (p->vec != 1)
		FAIL("vec: a pack kernel moves one element at a time (leave vec out)");
	if (p->abi != 2)
		FAIL("abi: a pack kernel is kernel ABI v4 (the tile's dims); leave abi out");
	if (p->tm != 32 || p->tn != 32)
		FAIL("tile: a pack kernel's tile is given at run time (tdims); leave tile out");
	if (smem_bytes(p) > PK_SMEM_MAX)
		FAIL("slots: %u x %u threads x %u bytes is %u bytes of shared memory, over the %u-byte static limit",
		     pack_of(p)->slots, p->tx, es_of(p), smem_bytes(p), PK_SMEM_MAX);
	return 0;
}

static void header(const tp_params *p, strbuf *h)
{
	sb_printf(h, "// out = a permutation of in, for %u-bit elements. The pack family\n"
		     "// (gen/tp_pack.c, cuTT's packed method): a block moves a tile of at most %u\n"
		     "// elements, several whole or split dims (param_tdims), through shared memory,\n"
		     "// loading in the input's order and storing in the output's. Kernel ABI v4\n"
		     "// (docs/DESIGN.md): the batch records walk the tiles; a block steps by\n"
		     "// nctaid.x tiles, so any grid covers any batch.\n//\n",
		  p->elem, capacity(p));
	sb_printf(h, "// ptxpose kernel=%s abi=4 elem=%u grid=pack block=%ux1 per_block=%u\n", p->name, p->elem, p->tx,
		  capacity(p));
	sb_printf(h, "// ptxpose vec=1 smem=pack smem_bytes=%u slots=%u", smem_bytes(p), pack_of(p)->slots);
	if (p->max_regs)
		sb_printf(h, " max_regs=%u", p->max_regs);
	sb_addc(h, '\n');
	sb_printf(h, "// ptxpose family=pack\n");
}

/* The kernel's registers and sizes, shared by the emitting steps. */
typedef struct {
	ptxb *b;
	unsigned es, T, K, w;                   /* w: b64 words an element (16 bytes: 2), else 1 */
	const char *ut;                         /* the data registers' type */
	const char *t, *n, *vol, *has0, *rest[PK_SLOTS_MAX];
	const char *ext, *stride, *smem, *split, *magic, *prod, *d, *q, *tmp, *x2, *pr;
	const char *vrem;                       /* vol - thread: slot s is below vol iff vrem > s*T (s32) */
	const char *sext[2], *mt[2];            /* the splits' tile extents (at least 1) and their magics */
	const char *mp[2][2];                   /* [list][k]: the magic of split k's place value in the list */
	const char *ok[PK_SLOTS_MAX];           /* a slot's validity (load, then store) */
	const char *off[PK_SLOTS_MAX];          /* load: input byte offset in the tile */
	const char *sm[PK_SLOTS_MAX];           /* load: shared address */
	const char *goff[PK_SLOTS_MAX];         /* store: output byte offset in the tile */
	const char *x[PK_SLOTS_MAX][2];         /* load: a slot's element (16 bytes: two b64) */
	const char *z[PK_SLOTS_MAX][2];         /* store: a slot's element */
} pk;

/* q = x / d through d's magic m (exact for x * d < 2^31: abi_tdims_fill
 * keeps the tile's vol, so every position and extent, at most 2^15). */
static void magic_div(pk *f, const char *q, const char *x, const char *m)
{
	ptxb_op(f->b, NULL, "shl.b32", "%s, %s, 1", f->x2, x);
	ptxb_op(f->b, NULL, "mul.hi.u32", "%s, %s, %s", q, f->x2, m);
}

/* m = ceil(2^31 / d) for d >= 1: 0x7fffffff / d + 1. */
static void magic_of(pk *f, const char *m, const char *d)
{
	ptxb_op(f->b, NULL, "div.u32", "%s, 0x7fffffff, %s", m, d);
	ptxb_op(f->b, NULL, "add.u32", "%s, %s, 1", m, m);
}

/* Decode every slot's position over list (ABI_TD_IN or ABI_TD_OUT), its
 * first n records only (the rest are neutral), into off[] and (in-list)
 * sm[]; mp[] gets the magics of the splits' place values in the list (the
 * product of the extents of the records before the split's). */
static void decode_list(pk *f, unsigned list, const char *const *off, const char *const *sm)
{
	ptxb *b = f->b;
	unsigned li = list == ABI_TD_OUT;
	char done[16];
	snprintf(done, sizeof done, "%s_DONE", li ? "OUT" : "IN");
	for (unsigned s = 0; s < f->K; s++) {
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->rest[s], f->t, s * f->T);
		ptxb_op(b, NULL, "mov.u32", "%s, 0", off[s]);
		if (sm)
			ptxb_op(b, NULL, "mov.u32", "%s, 0", sm[s]);
	}
	ptxb_op(b, NULL, "mov.u32", "%s, 1", f->prod);
	ptxb_op(b, NULL, "mov.u32", "%s, 1", f->mp[li][0]);
	ptxb_op(b, NULL, "mov.u32", "%s, 1", f->mp[li][1]);
	for (unsigned k = 0; k < ABI_TDIMS; k++) {
		unsigned r = list + k * ABI_TD_REC;
		if (k) {
			ptxb_note(b, "records past n are neutral: skipped (a uniform branch)");
			ptxb_op(b, NULL, "setp.le.u32", "%s, %s, %u", f->pr, f->n, k);
			ptxb_op(b, f->pr, "bra.uni", "%s", done);
		}
		ptxb_note(b, "record %u: d = p %% ext, p /= ext (by ext's magic); the offsets", k);
		ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->ext, r + ABI_TR_EXT);
		ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->stride, r + ABI_TR_STRIDE);
		if (sm)
			ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->smem, r + ABI_TR_SMEM);
		ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->split, r + ABI_TR_SPLIT);
		for (unsigned j = 0; j < 2; j++) {
			ptxb_op(b, NULL, "setp.eq.u32", "%s, %s, %u", f->pr, f->split, j + 1);
			ptxb_op(b, NULL, "selp.b32", "%s, %s, %s, %s", f->mp[li][j], f->prod, f->mp[li][j], f->pr);
		}
		ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", f->prod, f->prod, f->ext);
		magic_of(f, f->magic, f->ext);
		char rdone[24];
		snprintf(rdone, sizeof rdone, "%s_R%u", li ? "OUT" : "IN", k);
		for (unsigned s = 0; s < f->K; s++) {
			if (s) {
				ptxb_note(b, "slot %u and the later ones past vol in every thread: done (uniform)", s);
				ptxb_op(b, NULL, "setp.le.u32", "%s, %s, %u", f->pr, f->vol, s * f->T);
				ptxb_op(b, f->pr, "bra.uni", "%s", rdone);
			}
			magic_div(f, f->q, f->rest[s], f->magic);
			ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", f->tmp, f->q, f->ext);
			ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->d, f->rest[s], f->tmp);
			ptxb_op(b, NULL, "mov.u32", "%s, %s", f->rest[s], f->q);
			ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", off[s], f->d, f->stride, off[s]);
			if (sm)
				ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", sm[s], f->d, f->smem, sm[s]);
		}
		ptxb_label(b, rdone);
	}
	ptxb_label(b, done);
	char nosplit[24], np[40];
	snprintf(nosplit, sizeof nosplit, "%s_NOSPLIT", li ? "OUT" : "IN");
	snprintf(np, sizeof np, "!%s", f->has0);
	ptxb_note(b, "the splits' place values (1 where there is none) to magics, where the tile has a split");
	ptxb_op(b, np, "bra.uni", "%s", nosplit);
	for (unsigned j = 0; j < 2; j++)
		magic_of(f, f->mp[li][j], f->mp[li][j]);
	ptxb_label(b, nosplit);
}

/* ok[s] = slot s is inside the tile, for a phase over list li (0: the
 * input's order, 1: the output's) of a tile whose splits' limits are lim:
 * below vol, and, in a partial tile only (a uniform branch), its split
 * digits (p / place value mod the split's tile extent) below the limits. */
static void validity(pk *f, unsigned li, const char *const lim[2], const char *label)
{
	ptxb *b = f->b;
	char skip[24];
	snprintf(skip, sizeof skip, "%s_FULL", label);
	for (unsigned s = 0; s < f->K; s++)
		ptxb_op(b, NULL, "setp.gt.s32", "%s, %s, %u", f->ok[s], f->vrem, s * f->T);
	ptxb_note(b, "a whole tile (each split's limit its tile extent): below vol is enough");
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", f->pr, lim[0], f->sext[0]);
	ptxb_op(b, NULL, "setp.lt.or.u32", "%s, %s, %s, %s", f->pr, lim[1], f->sext[1], f->pr);
	char np[40];
	snprintf(np, sizeof np, "!%s", f->pr);
	ptxb_op(b, np, "bra.uni", "%s", skip);
	ptxb_note(b, "a partial tile (a split dim's end): each cut split's digit below its limit");
	for (unsigned k = 0; k < 2; k++) {
		char whole[32];
		snprintf(whole, sizeof whole, "%s_WHOLE%u", label, k);
		ptxb_note(b, "split %u: none, or its limit its tile extent: no test (uniform)", k);
		ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", f->pr, lim[k], f->sext[k]);
		ptxb_op(b, f->pr, "bra.uni", "%s", whole);
		for (unsigned s = 0; s < f->K; s++) {
			ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->rest[0], f->t, s * f->T);
			magic_div(f, f->q, f->rest[0], f->mp[li][k]);
			magic_div(f, f->d, f->q, f->mt[k]);
			ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", f->tmp, f->d, f->sext[k]);
			ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->d, f->q, f->tmp);
			ptxb_op(b, NULL, "setp.lt.and.u32", "%s, %s, %s, %s", f->ok[s], f->d, lim[k], f->ok[s]);
		}
		ptxb_label(b, whole);
	}
	ptxb_label(b, skip);
}

/* ld or st of element reg v (x or z) of slot s at addr in space, guarded
 * by guard (NULL: always). */
static void access(pk *f, const char *const v2[2], const char *guard, int store, const char *space, const char *addr)
{
	char op[40], v[80];
	if (f->es == 16) {
		snprintf(op, sizeof op, "%s.%s.v2.b64", store ? "st" : "ld", space);
		snprintf(v, sizeof v, "{%s, %s}", v2[0], v2[1]);
	} else {
		snprintf(op, sizeof op, "%s.%s.b%u", store ? "st" : "ld", space, 8 * f->es);
		snprintf(v, sizeof v, "%s", v2[0]);
	}
	if (store)
		ptxb_op(f->b, guard, op, "%s, %s", addr, v);
	else
		ptxb_op(f->b, guard, op, "%s, %s", v, addr);
}

/* The split's limit: min(ext, full - digit*ext), or 0xffff when the tile
 * has no split k. */
static void split_limit(pk *f, unsigned k, const char *lim, const char *digit, const char *has)
{
	ptxb *b = f->b;
	const char *full = ptxb_find(b, k ? "split1_full" : "split0_full");
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", f->tmp, digit, f->sext[k]);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", lim, full, f->tmp);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %s", lim, lim, f->sext[k]);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, 0xffff, %s", lim, lim, has);
}

static void declare(pk *f)
{
	ptxb *b = f->b;
	f->n = ptxb_reg(b, "b32", "the tile's dims (records past n are neutral)", "ndims");
	for (unsigned s = 0; s < f->K; s++)
		f->rest[s] = ptxb_reg(b, "b32", s ? NULL : "slot s's position left to decode", "rest%u", s);
	f->ext = ptxb_reg(b, "b32", "a record's tile extent", "rec_ext");
	f->stride = ptxb_reg(b, "b32", "... its global stride (bytes)", "rec_stride");
	f->smem = ptxb_reg(b, "b32", "... its shared stride (bytes)", "rec_smem");
	f->split = ptxb_reg(b, "b32", "... its split (0, or 1 + which)", "rec_split");
	f->magic = ptxb_reg(b, "b32", "... its extent's magic: x / ext = mul.hi(2x, magic)", "rec_magic");
	f->prod = ptxb_reg(b, "b32", "the product of the extents of the records before", "rec_prod");
	f->pr = ptxb_reg(b, "pred", "scratch", "pscratch");
	f->d = ptxb_reg(b, "b32", "the position's digit along the record", "digit");
	f->q = ptxb_reg(b, "b32", "the position divided by the extent", "quot");
	f->tmp = ptxb_reg(b, "b32", "scratch", "tmp");
	f->x2 = ptxb_reg(b, "b32", "2x, for mul.hi", "x2");
	f->vrem = ptxb_reg(b, "b32", "vol - thread: slot s is below vol iff this exceeds s*threads", "vol_rem");
	for (unsigned k = 0; k < 2; k++) {
		f->sext[k] = ptxb_reg(b, "b32", k ? "split 1's" : "split 0's tile extent (at least 1)", "split%u_ext", k);
		f->mt[k] = ptxb_reg(b, "b32", k ? NULL : "its magic", "split%u_magic", k);
		for (unsigned li = 0; li < 2; li++)
			f->mp[li][k] = ptxb_reg(b, "b32", k + li ? NULL : "the magic of split k's place value, each order",
						"split%u_%s_magic", k, li ? "out" : "in");
	}
	for (unsigned s = 0; s < f->K; s++) {
		f->off[s] = ptxb_reg(b, "b32", s ? NULL : "load slot s: input byte offset in the tile", "gin%u", s);
		f->sm[s] = ptxb_reg(b, "b32", s ? NULL : "load slot s: shared address", "sin%u", s);
		f->goff[s] = ptxb_reg(b, "b32", s ? NULL : "store slot s: output byte offset in the tile", "gout%u", s);
		f->ok[s] = ptxb_reg(b, "pred", s ? NULL : "slot s is inside the tile", "ok%u", s);
		for (unsigned u = 0; u < f->w; u++) {
			f->x[s][u] = ptxb_reg(b, f->ut, s + u ? NULL : "load slot s's element (the next tile's)", "x%u_%u",
					      s, u);
			f->z[s][u] = ptxb_reg(b, f->ut, s + u ? NULL : "store slot s's element", "z%u_%u", s, u);
		}
	}
}

/* The tile's bases (tin, tout) and the splits' limits from its index. */
static void tile_of(pk *f, const char *tile, const char *in0, const char *out0, const char *tin, const char *tout,
		    const char *const lim[2])
{
	ptxb *b = f->b;
	const char *r[2] = {ptxb_find(b, "tile_r0"), ptxb_find(b, "tile_r1")};
	const char *has[2] = {ptxb_find(b, "has_split0"), ptxb_find(b, "has_split1")};
	tp_bdims_decode(b, tile, f->es, in0, out0, tin, tout, r);
	for (unsigned k = 0; k < 2; k++)
		split_limit(f, k, lim[k], r[k], has[k]);
}

/* The K global loads of the tile at tin into x[] (the load slots' validity
 * from lim). */
static void load_tile(pk *f, const char *tin, const char *const lim[2], const char *label)
{
	ptxb *b = f->b;
	const char *off64 = ptxb_find(b, "off64"), *addr = ptxb_find(b, "addr");
	validity(f, 0, lim, label);
	for (unsigned s = 0; s < f->K; s++) {
		char a[48];
		ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", off64, f->off[s]);
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", addr, tin, off64);
		access(f, f->x[s], f->ok[s], 0, "global", tp_addr(a, sizeof a, addr, 0));
	}
}

/* The tiles, pipelined, with the first kv slots (the slots past them are
 * past vol in every thread: the caller branches here by vol). */
static void walk(pk *f, unsigned kv)
{
	ptxb *b = f->b;
	unsigned K = f->K;
	const char *tile = ptxb_find(b, "tile"), *in0 = ptxb_find(b, "in"), *out0 = ptxb_find(b, "out");
	const char *tin = ptxb_find(b, "tile_in"), *tout = ptxb_find(b, "tile_out"), *nout = ptxb_find(b, "next_out");
	const char *lim[2] = {ptxb_find(b, "lim0"), ptxb_find(b, "lim1")};
	const char *nlim[2] = {ptxb_find(b, "next_lim0"), ptxb_find(b, "next_lim1")};
	const char *next = ptxb_find(b, "next"), *more = ptxb_find(b, "more"), *batch = ptxb_find(b, "batch");
	const char *gx = ptxb_find(b, "grid_x"), *sst = ptxb_find(b, "sst");
	const char *off64 = ptxb_find(b, "off64"), *addr = ptxb_find(b, "addr");
	static const char *const names[] = {"WALK", "FIRST", "TILE", "NEXT", "STORES", "STORE"};
	char labels[6][24];
	for (unsigned i = 0; i < 6; i++)
		snprintf(labels[i], sizeof labels[i], "%s%u", names[i], kv); /* this walk's labels */
	const char *l_walk = labels[0], *l_first = labels[1], *l_tile = labels[2], *l_next = labels[3];
	const char *l_stores = labels[4], *l_store = labels[5];
	f->K = kv;
	ptxb_label(b, l_walk);
	ptxb_group(b, "The first tile's loads (the pipeline's prologue).");
	tile_of(f, tile, in0, out0, tin, tout, lim);
	load_tile(f, tin, lim, l_first);

	ptxb_label(b, l_tile);
	ptxb_group(b, "The tile's loaded elements to shared memory, in the output's order: every position below vol");
	ptxb_note(b, "(those of a partial tile's invalid slots too: their places are read by no valid store slot)");
	for (unsigned s = 0; s < f->K; s++) {
		char a[48];
		ptxb_op(b, NULL, "setp.gt.s32", "%s, %s, %u", f->ok[s], f->vrem, s * f->T);
		access(f, f->x[s], f->ok[s], 1, "shared", tp_addr(a, sizeof a, f->sm[s], 0));
	}
	ptxb_op(b, NULL, "bar.sync", "0");
	ptxb_group(b, "The next tile's loads, in flight during this tile's stores (a uniform branch: none past the last).");
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", next, tile, gx);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", more, next, batch);
	char nm[40];
	snprintf(nm, sizeof nm, "!%s", more);
	ptxb_op(b, nm, "bra.uni", "%s", l_stores);
	tile_of(f, next, in0, out0, tin, nout, nlim);
	load_tile(f, tin, nlim, l_next);
	ptxb_label(b, l_stores);
	ptxb_group(b, "Store phase: every valid slot's shared load, then its global store.");
	validity(f, 1, lim, l_store);
	ptxb_note(b, "(z defined first: then no guarded-off load keeps z live from tile to tile)");
	for (unsigned s = 0; s < f->K; s++) {
		char a[48];
		for (unsigned u = 0; u < f->w; u++)
			ptxb_op(b, NULL, f->es >= 8 ? "mov.b64" : "mov.b32", "%s, 0", f->z[s][u]);
		access(f, f->z[s], f->ok[s], 0, "shared", tp_addr(a, sizeof a, sst, s * f->T * f->es));
	}
	for (unsigned s = 0; s < f->K; s++) {
		char a[48];
		ptxb_op(b, NULL, "cvt.u64.u32", "%s, %s", off64, f->goff[s]);
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", addr, tout, off64);
		access(f, f->z[s], f->ok[s], 1, "global", tp_addr(a, sizeof a, addr, 0));
	}
	ptxb_group(b, "Before the next tile's shared stores reuse the copy; then that tile.");
	ptxb_op(b, NULL, "bar.sync", "0");
	ptxb_op(b, nm, "bra.uni", "DONE");
	ptxb_op(b, NULL, "mov.u32", "%s, %s", tile, next);
	ptxb_op(b, NULL, "mov.u64", "%s, %s", tout, nout);
	ptxb_op(b, NULL, "mov.u32", "%s, %s", lim[0], nlim[0]);
	ptxb_op(b, NULL, "mov.u32", "%s, %s", lim[1], nlim[1]);
	ptxb_op(b, NULL, "bra.uni", "%s", l_tile);
	f->K = K;
}

static int emit(const tp_params *p, const char *header, strbuf *out, char *err, size_t errlen)
{
	ptxb *b = ptxb_new();
	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pk F, *f = &F;
	memset(f, 0, sizeof F);
	f->b = b;
	f->es = es_of(p), f->T = p->tx, f->K = pack_of(p)->slots;
	f->w = f->es == 16 ? 2 : 1;
	f->ut = f->es >= 8 ? "b64" : "b32";
	ptxb_group(b, "Parameters and the thread's id.");
	const char *in0 = ptxb_reg(b, "b64", "input base (global)", "in");
	const char *out0 = ptxb_reg(b, "b64", "output base (global)", "out");
	f->t = ptxb_reg(b, "b32", "thread id in the block", "thread");
	const char *batch = ptxb_reg(b, "b32", "tiles", "batch");
	const char *tile = ptxb_reg(b, "b32", "the tile", "tile");
	ptxb_reg(b, "b32", "the tile after it (tile + nctaid.x)", "next");
	const char *gx = ptxb_reg(b, "b32", "blocks: the step in tiles", "grid_x");
	const char *nsplit = ptxb_reg(b, "b32", "split dims of the tile (0 to 2)", "nsplit");
	const char *vol = f->vol = ptxb_reg(b, "b32", "elements of a whole tile", "vol");
	ptxb_reg(b, "pred", "there is a next tile", "more");
	ptxb_reg(b, "pred", "the tile has a split 0", "has_split0");
	ptxb_reg(b, "pred", "... a split 1", "has_split1");
	ptxb_reg(b, "b32", "split 0's whole extent", "split0_full");
	ptxb_reg(b, "b32", "split 1's", "split1_full");
	ptxb_reg(b, "b32", "the tile's split 0's digits below this are inside it", "lim0");
	ptxb_reg(b, "b32", "split 1's", "lim1");
	ptxb_reg(b, "b32", "the next tile's", "next_lim0");
	ptxb_reg(b, "b32", NULL, "next_lim1");
	ptxb_reg(b, "b32", "a tile's index along split 0 (batch record 0's digit)", "tile_r0");
	ptxb_reg(b, "b32", "... along split 1 (record 1's)", "tile_r1");
	ptxb_reg(b, "b64", "the next tile's input (global)", "tile_in");
	ptxb_reg(b, "b64", "the tile's output (global)", "tile_out");
	ptxb_reg(b, "b64", "the next tile's output", "next_out");
	const char *sbase = ptxb_reg(b, "b32", "shared copy", "smem");
	const char *sst = ptxb_reg(b, "b32", "store slot 0's shared address: smem + thread x elem bytes", "sst");
	ptxb_reg(b, "b64", "a slot's offset, 64-bit", "off64");
	ptxb_reg(b, "b64", "a slot's global address", "addr");
	declare(f);
	tp_bdims_declare(b);
	ptxb_global(b, ".shared .align 16 .b8 pack_smem[%u];", smem_bytes(p));
	const char *has0 = f->has0 = ptxb_find(b, "has_split0"), *has1 = ptxb_find(b, "has_split1");

	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_in]", in0);
	ptxb_op(b, NULL, "ld.param.u64", "%s, [param_out]", out0);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", in0, in0);
	ptxb_op(b, NULL, "cvta.to.global.u64", "%s, %s", out0, out0);
	ptxb_op(b, NULL, "mov.u32", "%s, %%tid.x", f->t);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_batch]", batch);
	ptxb_op(b, NULL, "mov.u32", "%s, %%ctaid.x", tile);
	ptxb_op(b, NULL, "mov.u32", "%s, %%nctaid.x", gx);
	ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", has0, tile, batch);
	ptxb_op(b, has0, "bra.uni", "DONE");
	ptxb_group(b, "The tile's header (param_tdims).");
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", vol, ABI_TD_VOL);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->n, ABI_TD_N);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", nsplit, ABI_TD_NSPLIT);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", ptxb_find(b, "split0_full"), ABI_TD_SPLIT_FULL);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", ptxb_find(b, "split1_full"), ABI_TD_SPLIT_FULL + 4);
	ptxb_op(b, NULL, "setp.gt.u32", "%s, %s, 0", has0, nsplit);
	ptxb_op(b, NULL, "setp.gt.u32", "%s, %s, 1", has1, nsplit);
	for (unsigned k = 0; k < 2; k++) {
		ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->sext[k], ABI_TD_SPLIT_EXT + 4 * k);
		ptxb_op(b, NULL, "max.u32", "%s, %s, 1", f->sext[k], f->sext[k]);
		ptxb_op(b, NULL, "mov.u32", "%s, 1", f->mt[k]);
	}
	ptxb_note(b, "the splits' tile extents' magics (the partial tiles' validity), where the tile has a split");
	char np[40];
	snprintf(np, sizeof np, "!%s", has0);
	ptxb_op(b, np, "bra.uni", "NOSPLIT");
	for (unsigned k = 0; k < 2; k++)
		magic_of(f, f->mt[k], f->sext[k]);
	ptxb_label(b, "NOSPLIT");
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->vrem, vol, f->t);
	ptxb_op(b, NULL, "mov.u32", "%s, pack_smem", sbase);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", sst, f->t, f->es, sbase);

	ptxb_group(b, "Load slots (once a block): positions t + k*%u decoded over the input's order.", f->T);
	decode_list(f, ABI_TD_IN, f->off, f->sm);
	ptxb_note(b, "the elements start defined: a partial tile's invalid slots store them unloaded");
	for (unsigned s = 0; s < f->K; s++) {
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->sm[s], f->sm[s], sbase);
		for (unsigned u = 0; u < f->w; u++)
			ptxb_op(b, NULL, f->es >= 8 ? "mov.b64" : "mov.b32", "%s, 0", f->x[s][u]);
	}
	ptxb_group(b, "Store slots (once a block): the same positions over the output's order.");
	decode_list(f, ABI_TD_OUT, f->goff, NULL);

	ptxb_group(b, "The tile loop for the slots below vol only: %u slots at most, or a power of 2 below.", f->K);
	unsigned kv[8], nv = 0;
	for (unsigned k = 1; k < f->K; k *= 2)
		kv[nv++] = k;
	kv[nv++] = f->K;
	for (unsigned v = 0; v + 1 < nv; v++) {
		ptxb_op(b, NULL, "setp.le.u32", "%s, %s, %u", f->pr, vol, kv[v] * f->T);
		ptxb_op(b, f->pr, "bra.uni", "WALK%u", kv[v]);
	}
	for (unsigned v = nv; v-- > 0;)
		walk(f, kv[v]);
	ptxb_label(b, "DONE");
	ptxb_op(b, NULL, "ret", " ");
	tp_params v4 = *p; /* the entry's parameters: kernel ABI v4's */
	v4.abi = ABI_VERSION_V4;
	return tp_finish(b, &v4, header, 1, out, err, errlen);
}

const tp_family tp_family_pack = {
	.name = "pack",
	.select_key = "family",
	.select_val = "pack",
	.params = params,
	.target = TP_TARGET,
	.validate = validate,
	.header = header,
	.emit = emit,
};
