/* model_params: parsing the cost model's parameter files (lib/model_params*.tsv,
 * embedded at build time: model_choice.c; or a file of the same format). */
#include "lib/model.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const feat_names[MF_N] = {
	"launch", "waves", "vec_dram", "vec_l2", "realign_dram", "realign_l2",
	"elem_dram", "elem_l2", "edge_dram", "edge_l2", "slots", "tail", "smem",
};
static const char *const path_names[MODEL_NPATH] = {"vec", "realign", "elem", "edge"};

const char *model_feat_name(int f)
{
	return f >= 0 && f < MF_N ? feat_names[f] : "?";
}

int model_feat_find(const char *name)
{
	for (int f = 0; f < MF_N; f++)
		if (!strcmp(name, feat_names[f]))
			return f;
	return -1;
}

const char *model_path_name(int p)
{
	return p >= 0 && p < MODEL_NPATH ? path_names[p] : "?";
}

static const struct {
	const char *name;
	size_t off;
} consts[] = {
	{"l2_lo", offsetof(model_params, l2_lo)},
	{"l2_hi", offsetof(model_params, l2_hi)},
	{"inflight_need", offsetof(model_params, inflight_need)},
	{"sm_share_cap", offsetof(model_params, sm_share_cap)},
	{"unsure_margin", offsetof(model_params, unsure_margin)},
};
#define NCONSTS (sizeof consts / sizeof consts[0])

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto fail; } while (0)

static int value(const char *s, double *v)
{
	char *end;
	*v = strtod(s, &end);
	return end != s && !*end && isfinite(*v) && *v >= 0 ? 0 : -1;
}

static struct model_theta *row_for(model_params *p, const char *who)
{
	for (int i = 0; i < p->nrows; i++)
		if (!strcmp(p->rows[i].who, who))
			return &p->rows[i];
	struct model_theta *r = realloc(p->rows, (size_t)(p->nrows + 1) * sizeof *r);
	if (!r)
		return NULL;
	p->rows = r;
	r += p->nrows++;
	memset(r, 0, sizeof *r);
	snprintf(r->who, sizeof r->who, "%s", who);
	return r;
}

static int parse_line(model_params *p, char *line, int ln, unsigned *seen, char *err, size_t errlen)
{
	char *tok[5], *save = NULL;
	int n = 0;
	for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save))
		if (n < 5)
			tok[n++] = t;
		else
			n++;
	if (n == 0)
		return 0;
	double v;
	if (!strcmp(tok[0], "const") && n == 3) {
		for (size_t i = 0; i < NCONSTS; i++)
			if (!strcmp(tok[1], consts[i].name)) {
				if (*seen & 1u << i)
					FAIL("line %d: const %s given twice", ln, tok[1]);
				if (value(tok[2], &v))
					FAIL("line %d: const %s: '%s' is not a non-negative number", ln, tok[1], tok[2]);
				*(double *)((char *)p + consts[i].off) = v;
				*seen |= 1u << i;
				return 0;
			}
		FAIL("line %d: unknown const '%s'", ln, tok[1]);
	}
	if (!strcmp(tok[0], "theta") && n == 4) {
		int f = model_feat_find(tok[2]);
		if (f < 0)
			FAIL("line %d: unknown feature '%s'", ln, tok[2]);
		if (strlen(tok[1]) >= sizeof p->rows[0].who)
			FAIL("line %d: name too long", ln);
		if (value(tok[3], &v))
			FAIL("line %d: theta %s %s: '%s' is not a non-negative number", ln, tok[1], tok[2], tok[3]);
		struct model_theta *r = row_for(p, tok[1]);
		if (!r)
			FAIL("line %d: out of memory", ln);
		if (r->have & 1u << f)
			FAIL("line %d: theta %s %s given twice", ln, tok[1], tok[2]);
		r->v[f] = v;
		r->have |= 1u << f;
		return 0;
	}
	FAIL("line %d: expected 'const NAME VALUE' or 'theta WHO FEATURE VALUE'", ln);
fail:
	return -1;
}

int model_params_parse(const char *text, model_params *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof *p);
	unsigned seen = 0;
	int ln = 0;
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");
		char line[1024];
		ln++;
		if (s[0] == '#') { /* a comment, of any length: only two tags are read */
			const char *tag = "# fitted from: ", *count = "# fitted cases: ";
			size_t t = strlen(tag), c = strlen(count);
			if (n >= t && !strncmp(s, tag, t))
				snprintf(p->source, sizeof p->source, "%.*s",
					 (int)(n - t < sizeof p->source ? n - t : sizeof p->source - 1), s + t);
			else if (n >= c && !strncmp(s, count, c))
				p->cases = atoi(s + c);
			s += n + (s[n] == '\n');
			continue;
		}
		if (n >= sizeof line)
			FAIL("line %d: longer than %zu bytes", ln, sizeof line - 1);
		memcpy(line, s, n);
		line[n] = '\0';
		s += n + (s[n] == '\n');
		if (parse_line(p, line, ln, &seen, err, errlen))
			goto fail;
	}
	for (size_t i = 0; i < NCONSTS; i++)
		if (!(seen & 1u << i))
			FAIL("const %s is missing", consts[i].name);
	if (!(p->l2_lo <= p->l2_hi) || !(p->inflight_need > 0))
		FAIL("const l2_lo must be at most l2_hi, and inflight_need positive");
	struct model_theta *all = NULL;
	for (int i = 0; i < p->nrows; i++)
		if (!strcmp(p->rows[i].who, "*"))
			all = &p->rows[i];
	for (int f = 0; f < MF_N; f++)
		if (!all || !(all->have & 1u << f))
			FAIL("theta * %s is missing (the default row must give every feature)", feat_names[f]);
	return 0;
fail:
	model_params_free(p);
	return -1;
}

void model_params_free(model_params *p)
{
	free(p->rows);
	p->rows = NULL;
	p->nrows = 0;
}

int model_params_fitted(const model_params *p, const char *name)
{
	for (int r = 0; r < p->nrows; r++)
		if (!strcmp(p->rows[r].who, name))
			return 1;
	return 0;
}

double model_theta(const model_params *p, const model_kernel *k, int f, const char **who)
{
	char fam[64];
	snprintf(fam, sizeof fam, "family:%s", k->family);
	const char *keys[3] = {k->name, k->family[0] ? fam : NULL, "*"};
	for (int i = 0; i < 3; i++)
		for (int r = 0; keys[i] && r < p->nrows; r++)
			if (!strcmp(p->rows[r].who, keys[i]) && (p->rows[r].have & 1u << f)) {
				if (who)
					*who = p->rows[r].who;
				return p->rows[r].v[f];
			}
	if (who)
		*who = "none";
	return 0;
}
