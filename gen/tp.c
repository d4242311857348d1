/* tp: the driver: parameter defaults and setting, the common checks, and
 * generation through the family table (gen/tp_family.h). */
#include "gen/tp.h"

#include <stdio.h>
#include <string.h>

#include "common/elem.h"
#include "common/fsio.h"
#include "gen/tp_family.h"

void tp_defaults(tp_params *p)
{
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "transpose");
	const tp_param *q;
	const tp_family *owner;
	for (int i = 0; (q = tp_param_at(i, &owner)) && !owner; i++)
		tp_set2(p, q->key, q->def, q->def2);
	tp_use(p, tp_family_default());
}

void tp_use(tp_params *p, const tp_family *f)
{
	p->family = f;
	memset(&p->own, 0, sizeof p->own);
	p->foreign = NULL, p->foreign_owner = NULL;
	for (const tp_param *q = f->params; q && q->key; q++)
		tp_set2(p, q->key, q->def, q->def2);
}

static int ignored(const tp_family *f, const char *key)
{
	for (const char *const *k = f->ignores; k && *k; k++)
		if (!strcmp(*k, key))
			return 1;
	return 0;
}

/* The family's own parameter named key, or NULL. Two families may both
 * have one of a name (flat's and pack's slots) if they agree on its
 * default and range: the Lua binding reads it once for each row, and
 * another family sees the first row's. */
static const tp_param *own_param(const tp_family *f, const char *key)
{
	for (const tp_param *q = f ? f->params : NULL; q && q->key; q++)
		if (!strcmp(q->key, key))
			return q;
	return NULL;
}

int tp_set2(tp_params *p, const char *key, long a, long b)
{
	const tp_family *owner = p->family;
	const tp_param *q = own_param(p->family, key);
	if (!q)
		q = tp_param_find(key, &owner);
	if (!q)
		return -1;
	if (owner && owner != p->family) { /* another family's: refused unless at its default */
		if (!p->foreign && (a != q->def || (q->type == TP_P_PAIR && b != q->def2)) && !ignored(p->family, key))
			p->foreign = q->key, p->foreign_owner = owner;
		return 0;
	}
	if (q->off == TP_NOWHERE)
		return 0;
	unsigned char *base = owner ? p->own.bytes : (unsigned char *)p;
	if (q->type == TP_P_BOOL || q->type == TP_P_OPTION) {
		int v = (int)a;
		memcpy(base + q->off, &v, sizeof v);
		return 0;
	}
	unsigned v = (unsigned)a;
	memcpy(base + q->off, &v, sizeof v);
	if (q->type == TP_P_PAIR) {
		v = (unsigned)b;
		memcpy(base + q->off2, &v, sizeof v);
	}
	return 0;
}

int tp_set(tp_params *p, const char *key, long v)
{
	const tp_family *owner;
	const tp_param *q = tp_param_find(key, &owner);
	return tp_set2(p, key, v, q ? q->def2 : 0);
}

static int pow2(unsigned x) { return x && !(x & (x - 1)); }

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static int valid_name(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

int tp_validate(const tp_params *p, char *err, size_t errlen)
{
	if (!valid_name(p->name))
		FAIL("name: '%s' is not a PTX identifier (letters, digits, _; not starting with a digit)", p->name);
	if (!elem_valid_bits(p->elem))
		FAIL("elem: %u is not an element width (" ELEM_BITS_LIST " bits)", p->elem);
	unsigned es = p->elem / 8, nthr = p->tx * p->ty;
	if (!pow2(p->tx) || !pow2(p->ty) || nthr < 32 || nthr > 1024)
		FAIL("threads: %ux%u must be powers of two giving 32 to 1024 threads", p->tx, p->ty);
	if (p->vec != 8 && p->vec != 16 && (p->vec != 1 && p->vec != 2 && p->vec != 4))
		FAIL("vec: %u is not 1, 2, 4, 8 or 16", p->vec);
	if (p->vec * es > 16)
		FAIL("vec: %u x %u-bit elements is a %u-byte access; the widest is 16 bytes",
		     p->vec, p->elem, p->vec * es);
	if (p->abi != 2 && p->abi != 3)
		FAIL("abi: %u is not a kernel ABI the generator writes (2 or 3; the pack family's is 4)", p->abi);
	if (p->max_regs && (p->max_regs < 24 || p->max_regs > 255))
		FAIL("max_regs: %u is not a register budget from 24 to 255", p->max_regs);
	return p->family->validate(p, err, errlen);
}

int tp_generate(const tp_params *p, strbuf *out, char *err, size_t errlen)
{
	if (tp_validate(p, err, errlen))
		return -1;
	strbuf h;
	sb_init(&h);
	sb_printf(&h, "//\n// " FS_GENERATED_MARK " from %s. DO NOT EDIT.\n//\n",
		  p->script[0] ? p->script : "the Lua API");
	p->family->header(p, &h);
	int rc = p->family->emit(p, sb_str(&h), out, err, errlen);
	sb_free(&h);
	return rc;
}
