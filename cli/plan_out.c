/* plan_out: `ptxpose plan`'s report, as text and as JSON. */
#include "cli/plan.h"

#include <math.h>
#include <string.h>

#include "include/ptxpose.h"
#include "inspect/inspect.h"

#define MB (1024.0 * 1024.0)

/* Why a candidate is ranked last whatever its estimate (ptxpose_tool_cand). */
static const char *after_note(int beyond)
{
	if (beyond == PTXPOSE_TOOL_AFTER_RANGE)
		return " (K past its range: last)";
	if (beyond == PTXPOSE_TOOL_AFTER_UNFITTED)
		return " (no thetas of its own, a sibling's fitted: last)";
	return "";
}

/* The three biggest costs of a candidate, "realign_dram 30.1, launch 2.0". */
static void top_costs(const ptxpose_tool_estimate *e, char *buf, size_t n)
{
	int used[PTXPOSE_TOOL_NFEAT] = {0};
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < 3; k++) {
		int best = -1;
		for (int i = 0; i < PTXPOSE_TOOL_NFEAT; i++)
			if (!used[i] && e->contrib[i] > 0 && (best < 0 || e->contrib[i] > e->contrib[best]))
				best = i;
		if (best < 0)
			break;
		used[best] = 1;
		len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s %.2f", k ? ", " : "",
					ptxpose_tool_feature_name(best), e->contrib[best]);
	}
}

/* Why the winner beat the runner-up: the features that differ most. */
static void why(FILE *f, const plan_result *r)
{
	const plan_cand *a = &r->c[0], *b = &r->c[1];
	fprintf(f, "why: ahead of %s (%.2f us) by %.2f us:", b->k.name, b->e.us, b->e.us - a->e.us);
	int used[PTXPOSE_TOOL_NFEAT] = {0};
	for (int k = 0; k < 3; k++) {
		int best = -1;
		for (int i = 0; i < PTXPOSE_TOOL_NFEAT; i++) {
			double d = fabs(a->e.contrib[i] - b->e.contrib[i]);
			if (!used[i] && d > 0.005 && (best < 0 || d > fabs(a->e.contrib[best] - b->e.contrib[best])))
				best = i;
		}
		if (best < 0)
			break;
		used[best] = 1;
		fprintf(f, "%s %s %+.2f", k ? "," : "", ptxpose_tool_feature_name(best),
			a->e.contrib[best] - b->e.contrib[best]);
	}
	fputc('\n', f);
}

static void features_text(FILE *f, const plan_cand *c)
{
	const ptxpose_tool_features *x = &c->f;
	fprintf(f, "%s: tiles %.0f (%.0f interior, %.0f edge), vector share %.2f, MB vec %.1f realign %.1f "
		   "elem %.1f edge %.1f (useful %.1f), edge slots %.3g, footprint %.1f MB, L2 holds %.2f, "
		   "occupancy %u blocks/SM (%s), waves %.2f, in flight %.0f KB/SM, phi %.3f, regs %u%s\n",
		c->k.name, x->tiles, x->interior, x->edge, x->fast_share, x->path_bytes[PTXPOSE_TOOL_PATH_VEC] / MB,
		x->path_bytes[PTXPOSE_TOOL_PATH_REALIGN] / MB, x->path_bytes[PTXPOSE_TOOL_PATH_ELEM] / MB,
		x->path_bytes[PTXPOSE_TOOL_PATH_EDGE] / MB,
		x->useful / MB, x->slots, x->footprint / MB, x->l2_hit, x->occ, x->occ_by, x->waves,
		x->inflight_sm / 1024, x->phi, c->k.regs, c->k.regs_known ? "" : " (estimated)");
	fprintf(f, "  x:");
	for (int i = 0; i < PTXPOSE_TOOL_NFEAT; i++)
		fprintf(f, " %s %.4g", ptxpose_tool_feature_name(i), x->x[i]);
	fputc('\n', f);
}

void plan_print_problem(FILE *f, const ptxpose_tool_problem *p, const char *elem_read)
{
	fprintf(f, "problem: %llux%llu, %u-byte elements (--elem %s), ld_in %llu, ld_out %llu, batch %llu",
		(unsigned long long)p->rows, (unsigned long long)p->cols, p->es, elem_read,
		(unsigned long long)p->ld_in, (unsigned long long)p->ld_out, (unsigned long long)p->batch);
	if (p->batch > 1)
		fprintf(f, " (strides %llu, %llu)", (unsigned long long)p->stride_in,
			(unsigned long long)p->stride_out);
	fprintf(f, ", pointers aligned to %u and %u bytes\n", p->align_in, p->align_out);
}

void plan_print_text(FILE *f, const plan_ctx *x, const plan_result *r)
{
	const ptxpose_tool_problem *p = &r->p;
	if (r->nd_spec[0])
		fprintf(f, "permutation: %s, %u-byte elements: %s\n", r->nd_spec, r->nd_es, r->nd_why);
	plan_print_problem(f, p, r->elem_read);
	fprintf(f, "device: %s (%s): %u SMs, %.1f MiB L2, %.0f GB/s\n", x->dev.name, x->dev_note,
		x->dev.sm_count, (double)x->dev.l2_bytes / MB, x->dev.bw_gbps);
	fprintf(f, "model: %s, fitted from: %s\n", x->params_from, ptxpose_tool_params_source(x->params));
	const plan_cand *w = &r->c[0];
	if (r->copy) {
		fprintf(f, "choice: " PTXPOSE_COPY "  %.2f us predicted  cuMemcpyDtoDAsync of %llu bytes, no kernel\n",
			r->copy_us, (unsigned long long)(p->copy_elems ? p->copy_elems * p->es : p->rows * p->cols * p->batch * p->es));
		fprintf(f, "why: the transpose is the identity on memory (%s); the kernels below are what a kernel "
			   "named by desc->kernel would cost\n", r->copy_why);
	} else {
		fprintf(f, "choice: %s  %.2f us predicted  grid %ux%ux%u  block %ux%ux%u  (%s)\n", w->k.name,
			w->e.us, w->f.grid[0], w->f.grid[1], w->f.grid[2], w->k.block[0], w->k.block[1],
			w->k.block[2], w->k.source);
	}
	if (r->n > 1 && !r->copy) {
		why(f, r);
		double gap = r->c[1].e.us / w->e.us - 1;
		if (r->unsure)
			fprintf(f, "unsure: %s is predicted within %.1f%%, under the model's margin of %.1f%%; "
				   "`ptxpose plan --measure` settles it on a GPU\n",
				r->c[1].k.name, 100 * gap, 100 * ptxpose_tool_params_margin(x->params));
		else
			fprintf(f, "sure: the runner-up is predicted %.1f%% slower, over the model's margin of %.1f%%\n",
				100 * gap, 100 * ptxpose_tool_params_margin(x->params));
	}
	fprintf(f, "\n%4s  %-24s %10s %8s %5s %8s %5s  %-18s %s\n", "rank", "kernel", "us", "vs best", "occ",
		"waves", "L2", "vec/re/elem/edge", "biggest costs (us)");
	for (int i = 0; i < r->n; i++) {
		const plan_cand *c = &r->c[i];
		double tot = c->f.requests > 0 ? c->f.requests : 1;
		char paths[40], costs[160];
		snprintf(paths, sizeof paths, "%.0f/%.0f/%.0f/%.0f%%", 100 * c->f.path_bytes[0] / tot,
			 100 * c->f.path_bytes[1] / tot, 100 * c->f.path_bytes[2] / tot, 100 * c->f.path_bytes[3] / tot);
		top_costs(&c->e, costs, sizeof costs);
		fprintf(f, "%4d  %-24s %10.2f %8.3f %5u %8.2f %4.0f%%  %-18s %s%s\n", i + 1, c->k.name, c->e.us,
			c->e.us / w->e.us, c->f.occ, c->f.waves, 100 * c->f.l2_hit, paths, costs,
			after_note(c->beyond));
	}
	if (x->features) {
		fputc('\n', f);
		for (int i = 0; i < r->n; i++)
			features_text(f, &r->c[i]);
	}
}

/* ---- JSON ----------------------------------------------------------------- */

static void jnum(strbuf *o, const char *k, double v)
{
	sb_printf(o, "\"%s\":", k);
	if (isfinite(v))
		sb_printf(o, "%.10g", v);
	else
		sb_add(o, "null");
}

static void jstr(strbuf *o, const char *k, const char *v)
{
	sb_printf(o, "\"%s\":", k);
	ins_json_string(o, v);
}

static void jfeatures(strbuf *o, const plan_cand *c)
{
	const ptxpose_tool_features *x = &c->f;
	sb_add(o, ",\"features\":{");
	jnum(o, "tiles", x->tiles), sb_addc(o, ',');
	jnum(o, "interior", x->interior), sb_addc(o, ',');
	jnum(o, "edge", x->edge), sb_addc(o, ',');
	jnum(o, "fast_share", x->fast_share), sb_addc(o, ',');
	jnum(o, "useful_bytes", x->useful), sb_addc(o, ',');
	for (int i = 0; i < PTXPOSE_TOOL_NPATH; i++) {
		char k[32];
		snprintf(k, sizeof k, "%s_bytes", ptxpose_tool_path_name(i));
		jnum(o, k, x->path_bytes[i]), sb_addc(o, ',');
	}
	jnum(o, "request_bytes", x->requests), sb_addc(o, ',');
	jnum(o, "slots", x->slots), sb_addc(o, ',');
	jnum(o, "footprint", x->footprint), sb_addc(o, ',');
	jnum(o, "l2_hit", x->l2_hit), sb_addc(o, ',');
	jnum(o, "occupancy", x->occ), sb_addc(o, ',');
	jstr(o, "occupancy_by", x->occ_by), sb_addc(o, ',');
	jnum(o, "waves", x->waves), sb_addc(o, ',');
	jnum(o, "inflight_sm", x->inflight_sm), sb_addc(o, ',');
	jnum(o, "phi", x->phi), sb_addc(o, ',');
	jnum(o, "regs", c->k.regs), sb_addc(o, ',');
	sb_printf(o, "\"regs_known\":%s,\"x\":{", c->k.regs_known ? "true" : "false");
	for (int i = 0; i < PTXPOSE_TOOL_NFEAT; i++) {
		if (i)
			sb_addc(o, ',');
		jnum(o, ptxpose_tool_feature_name(i), x->x[i]);
	}
	sb_add(o, "}}");
}

void plan_json_begin(strbuf *o, const plan_ctx *x)
{
	sb_add(o, "{\"format\":\"ptxpose-plan 1\",\"device\":{");
	jstr(o, "name", x->dev.name), sb_addc(o, ',');
	jstr(o, "source", x->dev_note), sb_addc(o, ',');
	sb_printf(o, "\"cc\":\"%u.%u\",", x->dev.cc_major, x->dev.cc_minor);
	jnum(o, "sms", x->dev.sm_count), sb_addc(o, ',');
	jnum(o, "l2_bytes", (double)x->dev.l2_bytes), sb_addc(o, ',');
	jnum(o, "bw_gbps", x->dev.bw_gbps);
	sb_add(o, "},\"model\":{");
	const char *name = ptxpose_tool_params_name(x->params);
	jstr(o, "name", name[0] ? name : "file"), sb_addc(o, ',');
	jstr(o, "params", x->params_from), sb_addc(o, ',');
	jstr(o, "fitted_from", ptxpose_tool_params_source(x->params)), sb_addc(o, ',');
	jnum(o, "unsure_margin", ptxpose_tool_params_margin(x->params));
	sb_add(o, "},\"cases\":[");
}

void plan_json_end(strbuf *o)
{
	sb_add(o, "]}\n");
}

void plan_json_problem(strbuf *o, const ptxpose_tool_problem *p, const char *elem_read)
{
	sb_printf(o, "\"problem\":{\"elem_bytes\":%u,\"rows\":%llu,\"cols\":%llu,\"ld_in\":%llu,\"ld_out\":%llu,"
		     "\"batch\":%llu,\"stride_in\":%llu,\"stride_out\":%llu,\"align_in\":%u,\"align_out\":%u,",
		  p->es, (unsigned long long)p->rows, (unsigned long long)p->cols, (unsigned long long)p->ld_in,
		  (unsigned long long)p->ld_out, (unsigned long long)p->batch, (unsigned long long)p->stride_in,
		  (unsigned long long)p->stride_out, p->align_in, p->align_out);
	jstr(o, "elem_read", elem_read);
	sb_addc(o, '}');
}

void plan_json_case(strbuf *o, const plan_ctx *x, const plan_result *r)
{
	const ptxpose_tool_problem *p = &r->p;
	if (o->len && o->data[o->len - 1] == '}')
		sb_addc(o, ',');
	sb_addc(o, '{');
	plan_json_problem(o, p, r->elem_read);
	sb_addc(o, ',');
	if (r->nd_spec[0]) {
		jstr(o, "permutation", r->nd_spec), sb_addc(o, ',');
		jstr(o, "reduction", r->nd_why), sb_addc(o, ',');
		sb_printf(o, "\"permutation_elem_bytes\":%u,", r->nd_es);
	}
	jstr(o, "choice", r->copy ? PTXPOSE_COPY : r->n ? r->c[0].k.name : ""), sb_addc(o, ',');
	if (r->copy) {
		sb_add(o, "\"copy\":{");
		jstr(o, "why", r->copy_why), sb_addc(o, ',');
		jnum(o, "us", r->copy_us);
		sb_add(o, "},");
	}
	sb_printf(o, "\"unsure\":%s,\"candidates\":[", r->unsure ? "true" : "false");
	for (int i = 0; i < r->n; i++) {
		const plan_cand *c = &r->c[i];
		sb_add(o, i ? ",{" : "{");
		jstr(o, "kernel", c->k.name), sb_addc(o, ',');
		jstr(o, "file", c->k.source), sb_addc(o, ',');
		jnum(o, "us", c->e.us), sb_addc(o, ',');
		if (c->beyond == PTXPOSE_TOOL_AFTER_RANGE)
			sb_add(o, "\"beyond_range\":true,");
		if (c->beyond == PTXPOSE_TOOL_AFTER_UNFITTED)
			sb_add(o, "\"unfitted\":true,");
		sb_printf(o, "\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"contrib\":{", c->f.grid[0], c->f.grid[1],
			  c->f.grid[2], c->k.block[0], c->k.block[1], c->k.block[2]);
		for (int k = 0; k < PTXPOSE_TOOL_NFEAT; k++) {
			if (k)
				sb_addc(o, ',');
			jnum(o, ptxpose_tool_feature_name(k), c->e.contrib[k]);
		}
		sb_addc(o, '}');
		if (x->features)
			jfeatures(o, c);
		sb_addc(o, '}');
	}
	sb_add(o, "]}");
}
