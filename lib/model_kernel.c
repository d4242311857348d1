/* model_kernel: what the cost model needs of a kernel, from its metadata.
 *
 * The generated kernels (gen/tp*.c) describe themselves with elem, grid,
 * tile, block, vec, smem, major, smem_bytes and dyn_smem; the access paths
 * follow from those as the generator emits them. A new kernel family can
 * state its paths with the optional keys below instead (lib/README.md). */
#include "lib/model.h"

#include <stdio.h>
#include <string.h>

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

/* A decimal number of at most 9 digits, up to max. */
static int num(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t n = s ? strspn(s, "0123456789") : 0;
	if (!n || n > 9 || s[n])
		return -1;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

/* Set *a / *b for each comma-separated word of v: wa, wb, or "none". */
static int two_flags(const char *v, const char *wa, const char *wb, int *a, int *b)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%s", v);
	*a = *b = 0;
	char *save = NULL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (!strcmp(t, wa))
			*a = 1;
		else if (!strcmp(t, wb))
			*b = 1;
		else if (strcmp(t, "none"))
			return -1;
	}
	return 0;
}

static int opt_key(const px_meta *m, const char *key, uint64_t max, uint64_t dflt, uint64_t *out)
{
	const char *v = meta_get(m, key);
	if (!v) {
		*out = dflt;
		return 0;
	}
	return num(v, max, out);
}

int model_kernel_init(model_kernel *k, const px_meta *m, unsigned regs, char *err, size_t errlen)
{
	memset(k, 0, sizeof *k);
	snprintf(k->name, sizeof k->name, "%s", m->kernel);
	const char *v = meta_get(m, "family");
	if (v && strlen(v) >= sizeof k->family)
		FAIL("%s: family=%s is too long", m->kernel, v);
	snprintf(k->family, sizeof k->family, "%s", v ? v : "");
	k->es = m->elem_bits / 8;
	k->linear = m->grid == META_GRID_LINEAR;
	k->flat = m->grid == META_GRID_FLAT;
	k->pack = m->grid == META_GRID_PACK;
	int no_tile = k->linear || k->flat || k->pack;
	k->tm = no_tile ? 1 : m->tile_rows;
	k->tn = no_tile ? 1 : m->tile_cols;
	k->step = no_tile ? 1 : m->row_step;
	k->per_block = m->per_block;
	k->threads = meta_threads(m);
	uint64_t vec, smem, inflight, align, study;
	if (opt_key(m, "study", 1, 0, &study))
		FAIL("%s: study=%s is not 0 or 1", m->kernel, meta_get(m, "study"));
	k->study = (int)study;
	uint64_t sm = 0;
	if ((v = meta_get(m, "target")) && (strncmp(v, "sm_", 3) || num(v + 3, 1000, &sm) || sm < 10))
		FAIL("%s: target=%s is not sm_NN (the compute capability the PTX needs)", m->kernel, v);
	k->sm = (unsigned)sm;
	if (opt_key(m, "vec", 16, 1, &vec) || !vec)
		FAIL("%s: vec=%s is not 1 to 16", m->kernel, meta_get(m, "vec"));
	if (opt_key(m, "smem_bytes", 1u << 20, 0, &smem))
		FAIL("%s: smem_bytes=%s is not a byte count", m->kernel, meta_get(m, "smem_bytes"));
	k->smem_block = (unsigned)smem + m->dyn_smem;
	const char *kind = meta_get(m, "smem"), *major = meta_get(m, "major");
	int has_smem = kind && strcmp(kind, "none");
	/* the generator: a vector path where vec > 1, needing vec*elem-byte alignment */
	uint64_t dflt_align = vec > 1 && !k->linear ? vec * k->es : 0;
	if (opt_key(m, "fast_align", 1u << 16, dflt_align, &align) || (align & (align - 1)))
		FAIL("%s: fast_align=%s is not a power of two (bytes)", m->kernel, meta_get(m, "fast_align"));
	k->fast_align = (unsigned)align;
	if ((v = meta_get(m, "fast_needs")) &&
	    two_flags(v, "packed_in", "packed_out", &k->fast_packed_in, &k->fast_packed_out))
		FAIL("%s: fast_needs=%s: expected packed_in, packed_out or none", m->kernel, v);
	uint64_t fast_k;
	if (opt_key(m, "fast_k", 16, 0, &fast_k) || (fast_k & (fast_k - 1)))
		FAIL("%s: fast_k=%s is not a power of two to 16 (bytes)", m->kernel, meta_get(m, "fast_k"));
	if (fast_k && strcmp(k->family, "skinny_wide") && strcmp(k->family, "skinny_tall"))
		FAIL("%s: fast_k=%s applies only to family=skinny_wide or skinny_tall", m->kernel, meta_get(m, "fast_k"));
	k->fast_k = (unsigned)fast_k;
	/* gen/tp_packed.c: realigned words on misaligned interior tiles for 1- and
	 * 2-byte elements; stores too where shared rows are output rows */
	k->realign_ld = k->fast_align && k->es < 4;
	k->realign_st = k->realign_ld && has_smem && !(major && !strcmp(major, "in"));
	if ((v = meta_get(m, "realign")) && two_flags(v, "ld", "st", &k->realign_ld, &k->realign_st))
		FAIL("%s: realign=%s: expected ld, st, ld,st or none", m->kernel, v);
	k->edge_rows = k->edge_cols = 1;
	if ((v = meta_get(m, "edge")) && two_flags(v, "rows", "cols", &k->edge_rows, &k->edge_cols))
		FAIL("%s: edge=%s: expected rows, cols, rows,cols or none", m->kernel, v);
	if (opt_key(m, "inflight", 1u << 24, 0, &inflight))
		FAIL("%s: inflight=%s is not a byte count", m->kernel, meta_get(m, "inflight"));
	k->inflight = inflight;
	uint64_t tile_bytes = no_tile ? k->per_block * k->es : (uint64_t)k->tm * k->tn * k->es;
	/* a warp request moves 32 accesses of `bytes`; the line gives the
	 * wavefronts of its worst request */
	for (int i = 0; i < m->nsmem; i++)
		if (m->smem[i].bytes)
			k->smem_wavefronts += (double)tile_bytes / (32.0 * m->smem[i].bytes) * m->smem[i].wavefronts;
	k->regs_known = regs != 0;
	if (regs) {
		k->regs = regs;
	} else {
		/* the data a thread holds in 32-bit words, plus addresses and
		 * indices; packed elements take more for their prmt transposes
		 * (fits ptxas's sm_90 counts of ptx/ within about 20%) */
		uint64_t words = (tile_bytes / k->threads + 3) / 4;
		uint64_t est = words * (k->es < 4 ? 5 : 3) / 2 + 24;
		k->regs = (unsigned)(est > 255 ? 255 : est);
	}
	return 0;
}
