/* meta: the metadata of a ptxpose PTX file, and the launch grid it implies. */
#include "loader/meta.h"

#include "common/elem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG "// ptxpose "
#define SMEM_TAG "// ptxpose-smem "

static int parse_uint(const char *s, uint64_t max, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

/* "AxB" or "AxBxC" (each 1 to 2^20) into dims (missing ones are 1).
 * Returns the count, or -1. */
static int parse_dims(const char *s, unsigned *dims, int maxd)
{
	char buf[64];
	if (snprintf(buf, sizeof buf, "%s", s) >= (int)sizeof buf)
		return -1;
	int n = 0;
	for (char *t = buf, *x; t; t = x) {
		uint64_t v;
		if ((x = strchr(t, 'x')))
			*x++ = '\0';
		if (n == maxd || parse_uint(t, 1u << 20, &v) || v == 0)
			return -1;
		dims[n++] = (unsigned)v;
	}
	for (int i = n; i < maxd; i++)
		dims[i] = 1;
	return n;
}

/* 1 if s is a PTX identifier: [A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]+. */
static int is_ident(const char *s)
{
	static const char follow[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$";
	size_t n = strlen(s);
	int letter = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z');
	if (!letter && !(n > 1 && strchr("_$%", *s)))
		return 0;
	return strspn(s + 1, follow) == n - 1;
}

const char *meta_get(const px_meta *m, const char *key)
{
	for (int i = 0; i < m->nkv; i++)
		if (!strcmp(m->key[i], key))
			return m->val[i];
	return NULL;
}

static int add_kv(px_meta *m, const char *tok, int line, char *err, size_t errlen)
{
	for (const unsigned char *c = (const unsigned char *)tok; *c; c++)
		if (*c < 0x20 || *c == 0x7f) {
			snprintf(err, errlen, "line %d: metadata token with a control character (0x%02x)", line, *c);
			return -1;
		}
	const char *eq = strchr(tok, '=');
	if (!eq || eq == tok) {
		snprintf(err, errlen, "line %d: metadata token '%s' is not key=value", line, tok);
		return -1;
	}
	size_t kl = (size_t)(eq - tok);
	if (kl >= sizeof m->key[0] || strlen(eq + 1) >= sizeof m->val[0]) {
		snprintf(err, errlen, "line %d: metadata token '%.40s' is too long", line, tok);
		return -1;
	}
	if (m->nkv == META_MAX_KV) {
		snprintf(err, errlen, "line %d: more than %d metadata keys", line, META_MAX_KV);
		return -1;
	}
	memcpy(m->key[m->nkv], tok, kl);
	m->key[m->nkv][kl] = '\0';
	if (meta_get(m, m->key[m->nkv])) {
		snprintf(err, errlen, "line %d: metadata key '%s' given twice", line, m->key[m->nkv]);
		return -1;
	}
	strcpy(m->val[m->nkv], eq + 1);
	m->nkv++;
	return 0;
}

static int add_smem(px_meta *m, char *rest, int line, char *err, size_t errlen)
{
	if (m->nsmem == META_MAX_SMEM) {
		snprintf(err, errlen, "line %d: more than %d shared-memory access lines", line, META_MAX_SMEM);
		return -1;
	}
	meta_smem *a = &m->smem[m->nsmem];
	memset(a, 0, sizeof *a);
	int have = 0;
	char *save = NULL;
	for (char *t = strtok_r(rest, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
		char *eq = strchr(t, '=');
		uint64_t v = 0;
		if (!eq)
			goto bad;
		*eq++ = '\0';
		if (!strcmp(t, "id")) {
			snprintf(a->id, sizeof a->id, "%s", eq);
			have |= 1;
		} else if (!strcmp(t, "op")) {
			if (strcmp(eq, "ld") && strcmp(eq, "st"))
				goto bad;
			a->op_store = !strcmp(eq, "st");
			have |= 2;
		} else if (!strcmp(t, "bytes") || !strcmp(t, "wavefronts") || !strcmp(t, "ideal")) {
			if (parse_uint(eq, 1u << 20, &v))
				goto bad;
			if (t[0] == 'b')
				a->bytes = (unsigned)v, have |= 4;
			else if (t[0] == 'w')
				a->wavefronts = (unsigned)v, have |= 8;
			else
				a->ideal = (unsigned)v, have |= 16;
		}
	}
	if (have != 31)
		goto bad;
	m->nsmem++;
	return 0;
bad:
	snprintf(err, errlen, "line %d: shared-memory access line needs id= op=ld|st bytes= wavefronts= ideal=", line);
	return -1;
}

int meta_parse(const char *ptx, px_meta *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof *m);
	int line = 0;
	for (const char *p = ptx; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		line++;
		int smem = !strncmp(p, SMEM_TAG, strlen(SMEM_TAG));
		if (smem || !strncmp(p, TAG, strlen(TAG))) {
			char buf[1024];
			if (n >= sizeof buf) {
				snprintf(err, errlen, "line %d: metadata line too long", line);
				return -1;
			}
			memcpy(buf, p, n);
			buf[n] = '\0';
			char *rest = buf + strlen(smem ? SMEM_TAG : TAG);
			if (smem) {
				if (add_smem(m, rest, line, err, errlen))
					return -1;
			} else {
				char *save = NULL;
				for (char *t = strtok_r(rest, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save))
					if (add_kv(m, t, line, err, errlen))
						return -1;
			}
		}
		p += n + (nl ? 1 : 0);
	}
	const char *v;
	uint64_t u;
	if (!(v = meta_get(m, "kernel"))) {
		snprintf(err, errlen, "no ptxpose metadata (no '// ptxpose kernel=...' line): not a ptxpose-generated file?");
		return -1;
	}
	if (strlen(v) >= sizeof m->kernel || !is_ident(v)) {
		snprintf(err, errlen, "metadata: kernel must be a PTX identifier of at most %d characters, got '%s'",
			 META_VAL_MAX, v);
		return -1;
	}
	memmove(m->kernel, v, strlen(v) + 1);
	if (!(v = meta_get(m, "elem")) || parse_uint(v, 128, &u) || !elem_valid_bits(u)) {
		snprintf(err, errlen, "metadata: elem must be " ELEM_BITS_LIST ", got '%s'", v ? v : "(missing)");
		return -1;
	}
	m->elem_bits = (unsigned)u;
	if ((v = meta_get(m, "op")) && strcmp(v, "transpose") && strcmp(v, "copy")) {
		snprintf(err, errlen, "metadata: op must be transpose or copy, got '%s'", v);
		return -1;
	}
	m->op = v && !strcmp(v, "copy") ? META_OP_COPY : META_OP_TRANSPOSE;
	if (!(v = meta_get(m, "block")) || parse_dims(v, m->block, 3) < 1 ||
	    (uint64_t)m->block[0] * m->block[1] * m->block[2] > 1024) {
		snprintf(err, errlen, "metadata: block must be XxY[xZ] with at most 1024 threads, got '%s'", v ? v : "(missing)");
		return -1;
	}
	if (!(v = meta_get(m, "grid"))) {
		snprintf(err, errlen, "metadata: grid is missing (tile or linear)");
		return -1;
	}
	if (!strcmp(v, "tile")) {
		unsigned d[2];
		m->grid = META_GRID_TILE;
		if (!(v = meta_get(m, "tile")) || parse_dims(v, d, 2) != 2) {
			snprintf(err, errlen, "metadata: grid=tile needs tile=TMxTN, got '%s'", v ? v : "(missing)");
			return -1;
		}
		m->tile_rows = d[0];
		m->tile_cols = d[1];
		m->row_step = d[0];
		if ((v = meta_get(m, "row_step"))) {
			if (parse_uint(v, m->tile_rows, &u) || u == 0) {
				snprintf(err, errlen, "metadata: row_step must be 1 to the tile's %u rows, got '%s'",
					 m->tile_rows, v);
				return -1;
			}
			m->row_step = (unsigned)u;
		}
	} else if (!strcmp(v, "linear") || !strcmp(v, "flat") || !strcmp(v, "pack")) {
		m->grid = !strcmp(v, "flat") ? META_GRID_FLAT : !strcmp(v, "pack") ? META_GRID_PACK : META_GRID_LINEAR;
		if (!(v = meta_get(m, "per_block")) || parse_uint(v, 1u << 30, &u) || u == 0) {
			snprintf(err, errlen, "metadata: grid=%s needs per_block=N, got '%s'", meta_get(m, "grid"),
				 v ? v : "(missing)");
			return -1;
		}
		m->per_block = u;
	} else {
		snprintf(err, errlen, "metadata: grid must be tile, linear, flat or pack, got '%s'", v);
		return -1;
	}
	if ((v = meta_get(m, "dyn_smem"))) {
		if (parse_uint(v, 1u << 20, &u)) {
			snprintf(err, errlen, "metadata: dyn_smem must be a byte count, got '%s'", v);
			return -1;
		}
		m->dyn_smem = (unsigned)u;
	}
	return 0;
}

unsigned meta_threads(const px_meta *m)
{
	return m->block[0] * m->block[1] * m->block[2];
}

/* PTXPOSE_GRID_MAX=XxYxZ (a test knob): caps on the grid, so that tests
 * make blocks walk several tiles. 0 when unset, -1 when malformed. */
static int grid_max(uint64_t cap[3], char *err, size_t errlen)
{
	const char *v = getenv("PTXPOSE_GRID_MAX");
	cap[0] = 0x7fffffffu, cap[1] = cap[2] = 65535;
	if (!v || !*v)
		return 0;
	const char *p = v;
	for (int k = 0; k < 3; k++) {
		char *end;
		errno = 0;
		unsigned long long n = (*p >= '0' && *p <= '9') ? strtoull(p, &end, 10) : 0;
		if (!n || errno || n > cap[k] || *end != (k < 2 ? 'x' : '\0')) {
			snprintf(err, errlen, "PTXPOSE_GRID_MAX='%.40s' is not XxYxZ with X in 1..2^31-1, Y and Z in 1..65535", v);
			return -1;
		}
		cap[k] = n;
		p = end + 1;
	}
	return 0;
}

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

uint64_t meta_pack_blocks(uint64_t tiles, unsigned threads)
{
	uint64_t resident = META_PACK_THREADS / (threads ? threads : 1), half = tiles / 2 + tiles % 2;
	return min64(min64(tiles, 1024), resident > half ? resident : half);
}

int meta_grid_dims(const px_meta *m, uint64_t rows, uint64_t cols, uint64_t batch,
		   unsigned grid[3], char *err, size_t errlen)
{
	uint64_t cap[3], g[3];
	if (grid_max(cap, err, errlen))
		return -1;
	if (!rows || !cols || !batch || rows > 0x7fffffffu || cols > 0x7fffffffu || batch > 0x7fffffffu) {
		snprintf(err, errlen, "kernel %s: no grid for %llux%llu batch %llu (each must be 1 to 2^31-1)", m->kernel,
			 (unsigned long long)rows, (unsigned long long)cols, (unsigned long long)batch);
		return -1;
	}
	g[2] = batch;
	if (m->grid == META_GRID_TILE) {
		g[0] = (cols + m->tile_cols - 1) / m->tile_cols;
		g[1] = (rows + m->row_step - 1) / m->row_step;
	} else if (m->grid == META_GRID_FLAT) { /* chunks of whole matrices, a block each */
		uint64_t per = rows * cols > m->per_block ? 1 : m->per_block / (rows * cols);
		g[0] = (batch + per - 1) / per;
		g[1] = g[2] = 1;
	} else if (m->grid == META_GRID_PACK) { /* the blocks walk the tiles: meta.h */
		g[0] = meta_pack_blocks(batch, meta_threads(m));
		g[1] = g[2] = 1;
	} else {
		g[0] = (rows * cols + m->per_block - 1) / m->per_block; /* rows*cols < 2^62 */
		g[1] = 1;
	}
	for (int k = 0; k < 3; k++)
		grid[k] = (unsigned)min64(g[k], cap[k]);
	return 0;
}

const char *meta_takes(const px_meta *m, int copy, unsigned nbd, uint64_t tile_vol, char *buf, size_t len)
{
	const char *abi = meta_get(m, "abi");
	buf[0] = '\0';
	if (m->grid == META_GRID_PACK) {
		if (!tile_vol)
			snprintf(buf, len, "%s takes a pack tile (abi=4), and the problem has none: a pack tile needs an N-d "
					   "permutation (a 2-D one as RxC with perm 1,0; `ptxpose plan` says why)", m->kernel);
		else if (tile_vol > m->per_block)
			snprintf(buf, len, "the problem's pack tile holds %llu elements, %s at most %llu",
				 (unsigned long long)tile_vol, m->kernel, (unsigned long long)m->per_block);
	} else if (m->op != (copy ? META_OP_COPY : META_OP_TRANSPOSE)) {
		snprintf(buf, len, "the problem reduces to %s, %s %s", copy ? "a tiled copy" : "a transpose", m->kernel,
			 m->op == META_OP_COPY ? "copies rows (op=copy)" : "transposes");
	} else if (nbd > 1 && (!abi || strcmp(abi, "3"))) {
		snprintf(buf, len, "the problem reduces to a batch of %u dims, which takes a kernel of ABI v3 (abi=3); "
				   "%s has abi=%s", nbd, m->kernel, abi ? abi : "?");
	}
	return buf;
}
