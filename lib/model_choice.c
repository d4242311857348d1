/* model_choice: which fitted parameter table a device gets. One table of
 * the fits built in (each embedded at build time by configure.py's EMBED),
 * matched by a word of the device's name and its compute capability; the
 * first row is the fallback for a device no row matches. */
#include "lib/model.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* build/embed/lib/model_params*_tsv.c, written by configure.py's embed rule */
extern const char model_params_tsv[], model_params_h200_tsv[];

static const struct {
	const char *id;             /* the model's name, as plan prints it */
	const char *file;           /* the table in the repository */
	const char *word;           /* a word of the device's name (case-insensitive) */
	unsigned cc_major, cc_minor;
	unsigned sms;               /* the SM count of the device it was fitted on (said, not matched) */
	const char *text;
} fits[] = {
	{"H100", "lib/model_params.tsv", "H100", 9, 0, 132, model_params_tsv}, /* first: the fallback */
	{"H200", "lib/model_params_h200.tsv", "H200", 9, 0, 132, model_params_h200_tsv},
};
#define NFITS (sizeof fits / sizeof fits[0])

static model_params parsed[NFITS];
static pthread_once_t parsed_once = PTHREAD_ONCE_INIT;

static void parse_all(void)
{
	for (size_t i = 0; i < NFITS; i++) {
		model_params *p = &parsed[i];
		char err[256];
		if (model_params_parse(fits[i].text, p, err, sizeof err)) {
			/* tests/unit/model_unit checks every embedded table; should
			 * one be broken anyway, bandwidth-only constants keep plans working */
			memset(p, 0, sizeof *p);
			p->l2_hi = 1;
			p->inflight_need = 32768;
			p->sm_share_cap = 1;
			snprintf(p->source, sizeof p->source, "(%s broken: %.200s)", fits[i].file, err);
			static struct model_theta one = {.who = "*", .have = (1u << MF_N) - 1};
			for (int f = MF_VEC_DRAM; f <= MF_EDGE_L2; f++)
				one.v[f] = 1;
			p->rows = &one;
			p->nrows = 1;
		}
		snprintf(p->name, sizeof p->name, "%s", fits[i].id);
	}
}

/* Whether `word` is one of the words of name (split at anything but
 * letters and digits): "H200" is in "NVIDIA H200 NVL", not in "NVIDIA GH200". */
static int has_word(const char *name, const char *word)
{
	size_t n = strlen(word);
	for (const char *s = name; *s;) {
		while (*s && !isalnum((unsigned char)*s))
			s++;
		const char *e = s;
		while (*e && isalnum((unsigned char)*e))
			e++;
		if ((size_t)(e - s) == n && !strncasecmp(s, word, n))
			return 1;
		s = e;
	}
	return 0;
}

void model_params_choose(const char *name, unsigned cc_major, unsigned cc_minor, unsigned sm_count,
			 model_choice *c)
{
	pthread_once(&parsed_once, parse_all);
	size_t i = 0;
	while (i < NFITS && !(has_word(name, fits[i].word) && cc_major == fits[i].cc_major &&
			      cc_minor == fits[i].cc_minor))
		i++;
	c->fallback = i == NFITS;
	i = c->fallback ? 0 : i;
	c->params = &parsed[i];
	c->id = fits[i].id;
	c->file = fits[i].file;
	char sms[64];
	if (sm_count == fits[i].sms)
		snprintf(sms, sizeof sms, "%u SMs as fitted", sm_count);
	else
		snprintf(sms, sizeof sms, "%u SMs, fitted on %u", sm_count, fits[i].sms);
	if (c->fallback)
		snprintf(c->why, sizeof c->why, "no model fitted for '%.96s' (cc %u.%u): the %s model, the fallback",
			 name, cc_major, cc_minor, fits[i].id);
	else
		snprintf(c->why, sizeof c->why, "the device's name has %s, cc %u.%u, %s", fits[i].word, cc_major,
			 cc_minor, sms);
	snprintf(c->label, sizeof c->label, "%s (%s, built in; fitted from %d cases; %s)", fits[i].id, fits[i].file,
		 c->params->cases, c->why);
}

const model_params *model_params_for(const model_device *d)
{
	model_choice c;
	model_params_choose(d->name, d->cc_major, d->cc_minor, d->sm_count, &c);
	return c.params;
}

const model_params *model_params_builtin(void)
{
	pthread_once(&parsed_once, parse_all);
	return &parsed[0];
}
