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
 * first: d = p % ext, p /= ext) into its input byte offset, its shared
 * byte offset (the tile's shared copy is in the output's order) and its
 * split digits (split 0's in bits 0-15, split 1's in 16-31), and q = p over
 * the out-list into its output byte offset and split digits; the shared
 * offset of a store slot is q * elem bytes. A position past the tile's vol
 * gets 0xffff digits, never valid. The records past the tile's dims are
 * neutral (ext 1, strides 0), so the decode runs over all six.
 *
 * Tiles. For tile j = ctaid.x, ctaid.x + nctaid.x, ... below batch: the
 * bases from j decoded over the batch records (tp_walk.c's decode), split
 * k's tile index the digit of batch record k, and its limit min(t, E -
 * digit*t) (0xffff when there is no split k); a slot is valid iff both its
 * digits are below the limits (partial tiles at a split dim's end). All K
 * loads are issued, then the K shared stores; a barrier; the K shared
 * loads, then the K global stores; a barrier before the next tile.
 *
 * Elements move one at a time (any element-aligned pointer); 16-byte
 * elements as .v2.b64 (pointers are element-aligned: docs/DESIGN.md).
 * Offsets in a tile fit in 31 bits (abi_tdims_fill refuses larger spans).
 * The grid (grid=pack, loader/meta.c): min(tiles, 1024) blocks. */
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
	unsigned es, T, K;
	const char *ut;                         /* the data registers' type */
	const char *t, *pos, *rest[PK_SLOTS_MAX];
	const char *ext, *stride, *smem, *split, *d, *q, *tmp, *sh, *has_split;
	const char *vol, *ok[PK_SLOTS_MAX];     /* a slot's validity (load, then store) */
	const char *off[PK_SLOTS_MAX];          /* global byte offset in the tile (in, then out) */
	const char *sm[PK_SLOTS_MAX];           /* load: shared address */
	const char *dig[PK_SLOTS_MAX];          /* split digits (in, then out) */
	const char *goff[PK_SLOTS_MAX];         /* store: global byte offset */
	const char *gdig[PK_SLOTS_MAX];         /* store: split digits */
	const char *x[PK_SLOTS_MAX][2];         /* a slot's element (16 bytes: two b64) */
} pk;

/* Decode every slot's position over list (ABI_TD_IN or ABI_TD_OUT) into
 * off[], dig[] and (in-list) sm[]. */
static void decode_list(pk *f, unsigned list, const char *const *off, const char *const *dig, const char *const *sm)
{
	ptxb *b = f->b;
	for (unsigned s = 0; s < f->K; s++) {
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->rest[s], f->t, s * f->T);
		ptxb_op(b, NULL, "mov.u32", "%s, 0", off[s]);
		ptxb_op(b, NULL, "mov.u32", "%s, 0", dig[s]);
		if (sm)
			ptxb_op(b, NULL, "mov.u32", "%s, 0", sm[s]);
	}
	for (unsigned k = 0; k < ABI_TDIMS; k++) {
		unsigned r = list + k * ABI_TD_REC;
		ptxb_note(b, "record %u: d = p %% ext, p /= ext; the offsets and the split digit", k);
		ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->ext, r + ABI_TR_EXT);
		ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->stride, r + ABI_TR_STRIDE);
		if (sm)
			ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->smem, r + ABI_TR_SMEM);
		ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->split, r + ABI_TR_SPLIT);
		ptxb_op(b, NULL, "setp.ne.u32", "%s, %s, 0", f->has_split, f->split);
		ptxb_op(b, NULL, "shl.b32", "%s, %s, 4", f->sh, f->split);
		ptxb_op(b, NULL, "sub.u32", "%s, %s, 16", f->sh, f->sh);
		for (unsigned s = 0; s < f->K; s++) {
			ptxb_op(b, NULL, "div.u32", "%s, %s, %s", f->q, f->rest[s], f->ext);
			ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", f->tmp, f->q, f->ext);
			ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", f->d, f->rest[s], f->tmp);
			ptxb_op(b, NULL, "mov.u32", "%s, %s", f->rest[s], f->q);
			ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", off[s], f->d, f->stride, off[s]);
			if (sm)
				ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %s, %s", sm[s], f->d, f->smem, sm[s]);
			ptxb_op(b, f->has_split, "shl.b32", "%s, %s, %s", f->tmp, f->d, f->sh);
			ptxb_op(b, f->has_split, "or.b32", "%s, %s, %s", dig[s], dig[s], f->tmp);
		}
	}
	ptxb_note(b, "a position past the tile's vol: digits 0xffff, never valid");
	for (unsigned s = 0; s < f->K; s++) {
		ptxb_op(b, NULL, "add.u32", "%s, %s, %u", f->pos, f->t, s * f->T);
		ptxb_op(b, NULL, "setp.ge.u32", "%s, %s, %s", f->ok[s], f->pos, f->vol);
		ptxb_op(b, NULL, "selp.b32", "%s, 0xffffffff, %s, %s", dig[s], dig[s], f->ok[s]);
	}
}

/* ok[s] = slot s's digits (dig) are below the limits. */
static void validity(pk *f, const char *const *dig, const char *lim0, const char *lim1)
{
	ptxb *b = f->b;
	for (unsigned s = 0; s < f->K; s++) {
		ptxb_op(b, NULL, "and.b32", "%s, %s, 0xffff", f->tmp, dig[s]);
		ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", f->ok[s], f->tmp, lim0);
		ptxb_op(b, NULL, "shr.u32", "%s, %s, 16", f->tmp, dig[s]);
		ptxb_op(b, NULL, "setp.lt.and.u32", "%s, %s, %s, %s", f->ok[s], f->tmp, lim1, f->ok[s]);
	}
}

/* ld or st of slot s's element at addr in space, guarded by ok[s]. */
static void access(pk *f, unsigned s, int store, const char *space, const char *addr)
{
	char op[40], v[80];
	if (f->es == 16) {
		snprintf(op, sizeof op, "%s.%s.v2.b64", store ? "st" : "ld", space);
		snprintf(v, sizeof v, "{%s, %s}", f->x[s][0], f->x[s][1]);
	} else {
		snprintf(op, sizeof op, "%s.%s.b%u", store ? "st" : "ld", space, 8 * f->es);
		snprintf(v, sizeof v, "%s", f->x[s][0]);
	}
	if (store)
		ptxb_op(f->b, f->ok[s], op, "%s, %s", addr, v);
	else
		ptxb_op(f->b, f->ok[s], op, "%s, %s", v, addr);
}

/* The split's limit: min(ext, full - digit*ext), or 0xffff when the tile
 * has no split k. */
static void split_limit(pk *f, unsigned k, const char *lim, const char *digit, const char *has)
{
	ptxb *b = f->b;
	const char *full = ptxb_find(b, k ? "split1_full" : "split0_full");
	const char *ext = ptxb_find(b, k ? "split1_ext" : "split0_ext");
	ptxb_op(b, NULL, "mul.lo.u32", "%s, %s, %s", f->tmp, digit, ext);
	ptxb_op(b, NULL, "sub.u32", "%s, %s, %s", lim, full, f->tmp);
	ptxb_op(b, NULL, "min.u32", "%s, %s, %s", lim, lim, ext);
	ptxb_op(b, NULL, "selp.b32", "%s, %s, 0xffff, %s", lim, lim, has);
}

static void declare(pk *f)
{
	ptxb *b = f->b;
	f->pos = ptxb_reg(b, "b32", "a slot's position in the tile", "pos");
	for (unsigned s = 0; s < f->K; s++)
		f->rest[s] = ptxb_reg(b, "b32", s ? NULL : "slot s's position left to decode", "rest%u", s);
	f->ext = ptxb_reg(b, "b32", "a record's tile extent", "rec_ext");
	f->stride = ptxb_reg(b, "b32", "... its global stride (bytes)", "rec_stride");
	f->smem = ptxb_reg(b, "b32", "... its shared stride (bytes)", "rec_smem");
	f->split = ptxb_reg(b, "b32", "... its split (0, or 1 + which)", "rec_split");
	f->has_split = ptxb_reg(b, "pred", "the record is a split dim", "rec_is_split");
	f->sh = ptxb_reg(b, "b32", "the split digit's shift (0 or 16)", "rec_shift");
	f->d = ptxb_reg(b, "b32", "the position's digit along the record", "digit");
	f->q = ptxb_reg(b, "b32", "the position divided by the extent", "quot");
	f->tmp = ptxb_reg(b, "b32", "scratch", "tmp");
	f->vol = ptxb_reg(b, "b32", "elements of a whole tile", "vol");
	for (unsigned s = 0; s < f->K; s++) {
		f->off[s] = ptxb_reg(b, "b32", s ? NULL : "load slot s: input byte offset in the tile", "gin%u", s);
		f->sm[s] = ptxb_reg(b, "b32", s ? NULL : "load slot s: shared address", "sin%u", s);
		f->dig[s] = ptxb_reg(b, "b32", s ? NULL : "load slot s: split digits (0: bits 0-15, 1: 16-31)", "din%u", s);
		f->goff[s] = ptxb_reg(b, "b32", s ? NULL : "store slot s: output byte offset in the tile", "gout%u", s);
		f->gdig[s] = ptxb_reg(b, "b32", s ? NULL : "store slot s: split digits", "dout%u", s);
		f->ok[s] = ptxb_reg(b, "pred", s ? NULL : "slot s is inside the tile", "ok%u", s);
		for (unsigned u = 0; u < (f->es == 16 ? 2u : 1u); u++)
			f->x[s][u] = ptxb_reg(b, f->ut, s + u ? NULL : "slot s's element", "x%u_%u", s, u);
	}
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
	f->ut = f->es >= 8 ? "b64" : "b32";
	ptxb_group(b, "Parameters and the thread's id.");
	const char *in0 = ptxb_reg(b, "b64", "input base (global)", "in");
	const char *out0 = ptxb_reg(b, "b64", "output base (global)", "out");
	f->t = ptxb_reg(b, "b32", "thread id in the block", "thread");
	const char *batch = ptxb_reg(b, "b32", "tiles", "batch");
	const char *tile = ptxb_reg(b, "b32", "the tile", "tile");
	const char *gx = ptxb_reg(b, "b32", "blocks: the step in tiles", "grid_x");
	const char *nsplit = ptxb_reg(b, "b32", "split dims of the tile (0 to 2)", "nsplit");
	const char *has0 = ptxb_reg(b, "pred", "the tile has a split 0", "has_split0");
	const char *has1 = ptxb_reg(b, "pred", "... a split 1", "has_split1");
	const char *full0 = ptxb_reg(b, "b32", "split 0's whole extent", "split0_full");
	const char *full1 = ptxb_reg(b, "b32", "split 1's", "split1_full");
	const char *sext0 = ptxb_reg(b, "b32", "split 0's tile extent", "split0_ext");
	const char *sext1 = ptxb_reg(b, "b32", "split 1's", "split1_ext");
	const char *lim0 = ptxb_reg(b, "b32", "split 0's digits below this are inside the tile", "lim0");
	const char *lim1 = ptxb_reg(b, "b32", "split 1's", "lim1");
	const char *r0 = ptxb_reg(b, "b32", "the tile's index along split 0 (batch record 0's digit)", "tile_r0");
	const char *r1 = ptxb_reg(b, "b32", "... along split 1 (record 1's)", "tile_r1");
	const char *tin = ptxb_reg(b, "b64", "the tile's input (global)", "tile_in");
	const char *tout = ptxb_reg(b, "b64", "the tile's output (global)", "tile_out");
	const char *sbase = ptxb_reg(b, "b32", "shared copy", "smem");
	const char *sst = ptxb_reg(b, "b32", "store slot 0's shared address: smem + thread x elem bytes", "sst");
	const char *off64 = ptxb_reg(b, "b64", "a slot's offset, 64-bit", "off64");
	const char *addr = ptxb_reg(b, "b64", "a slot's global address", "addr");
	declare(f);
	tp_bdims_declare(b);
	ptxb_global(b, ".shared .align 16 .b8 pack_smem[%u];", smem_bytes(p));

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
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", f->vol, ABI_TD_VOL);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", nsplit, ABI_TD_NSPLIT);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", full0, ABI_TD_SPLIT_FULL);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", full1, ABI_TD_SPLIT_FULL + 4);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", sext0, ABI_TD_SPLIT_EXT);
	ptxb_op(b, NULL, "ld.param.u32", "%s, [param_tdims+%u]", sext1, ABI_TD_SPLIT_EXT + 4);
	ptxb_op(b, NULL, "setp.gt.u32", "%s, %s, 0", has0, nsplit);
	ptxb_op(b, NULL, "setp.gt.u32", "%s, %s, 1", has1, nsplit);
	ptxb_op(b, NULL, "mov.u32", "%s, pack_smem", sbase);
	ptxb_op(b, NULL, "mad.lo.u32", "%s, %s, %u, %s", sst, f->t, f->es, sbase);

	ptxb_group(b, "Load slots (once a block): positions t + k*%u decoded over the input's order.", f->T);
	decode_list(f, ABI_TD_IN, f->off, f->dig, f->sm);
	for (unsigned s = 0; s < f->K; s++)
		ptxb_op(b, NULL, "add.u32", "%s, %s, %s", f->sm[s], f->sm[s], sbase);
	ptxb_group(b, "Store slots (once a block): the same positions over the output's order.");
	decode_list(f, ABI_TD_OUT, f->goff, f->gdig, NULL);

	ptxb_label(b, "TILE");
	ptxb_group(b, "The tile's bases and split indices from the batch records; the splits' limits.");
	const char *digits[2] = {r0, r1};
	tp_bdims_decode(b, tile, f->es, in0, out0, tin, tout, digits);
	split_limit(f, 0, lim0, r0, has0);
	split_limit(f, 1, lim1, r1, has1);

	ptxb_group(b, "Load phase: every slot's global load first, then its shared store.");
	validity(f, f->dig, lim0, lim1);
	for (unsigned s = 0; s < f->K; s++) {
		char a[48];
		ptxb_op(b, NULL, "cvt.s64.s32", "%s, %s", off64, f->off[s]);
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", addr, tin, off64);
		access(f, s, 0, "global", tp_addr(a, sizeof a, addr, 0));
	}
	for (unsigned s = 0; s < f->K; s++) {
		char a[48];
		access(f, s, 1, "shared", tp_addr(a, sizeof a, f->sm[s], 0));
	}
	ptxb_group(b, "The tile is in shared memory in the output's order.");
	ptxb_op(b, NULL, "bar.sync", "0");
	ptxb_group(b, "Store phase: every slot's shared load first, then its global store.");
	validity(f, f->gdig, lim0, lim1);
	for (unsigned s = 0; s < f->K; s++) {
		char a[48];
		access(f, s, 0, "shared", tp_addr(a, sizeof a, sst, s * f->T * f->es));
	}
	for (unsigned s = 0; s < f->K; s++) {
		char a[48];
		ptxb_op(b, NULL, "cvt.s64.s32", "%s, %s", off64, f->goff[s]);
		ptxb_op(b, NULL, "add.u64", "%s, %s, %s", addr, tout, off64);
		access(f, s, 1, "global", tp_addr(a, sizeof a, addr, 0));
	}
	ptxb_group(b, "Before the next tile reuses the shared copy; then the tile nctaid.x on.");
	ptxb_op(b, NULL, "bar.sync", "0");
	ptxb_op(b, NULL, "add.u32", "%s, %s, %s", tile, tile, gx);
	ptxb_op(b, NULL, "setp.lt.u32", "%s, %s, %s", f->has_split, tile, batch);
	ptxb_op(b, f->has_split, "bra.uni", "TILE");
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
