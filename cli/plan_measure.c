/* plan_measure: `ptxpose plan --measure`: the library's measured plan
 * (PTXPOSE_PLAN_MEASURE) on the GPU present, and every candidate it timed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/plan.h"
#include "inspect/inspect.h"
#include "include/ptxpose_tools.h"

#define CMD "plan"

static void on_note(void *user, unsigned kind, const char *text)
{
	cli_log_stderr(user, text);
}

/* The model's rank of the kernel among the candidates (1 is its choice). */
static void why_text(FILE *f, const ptxpose_tool_report *r)
{
	const ptxpose_tool_timed *w = &r->c[r->best];
	int second = -1;
	for (int i = 0; i < r->n; i++)
		if (i != r->best && r->c[i].measured_us >= 0 &&
		    (second < 0 || r->c[i].measured_us < r->c[second].measured_us))
			second = i;
	fprintf(f, "why: the fastest measured");
	if (second >= 0)
		fprintf(f, ", ahead of %s (%.2f us) by %.1f%%", r->c[second].kernel, r->c[second].measured_us,
			100 * (r->c[second].measured_us / w->measured_us - 1));
	else
		fprintf(f, ", the only one timed");
	if (r->best && r->c[0].measured_us >= 0)
		fprintf(f, "; the model ranked it %d, after %s (%.2f us measured)", r->best + 1, r->c[0].kernel,
			r->c[0].measured_us);
	else if (r->best)
		fprintf(f, "; the model ranked it %d, after %s (not timed: %s)", r->best + 1, r->c[0].kernel,
			r->c[0].skipped[0] ? r->c[0].skipped : "unknown");
	else
		fprintf(f, "; the model's choice too");
	fputc('\n', f);
}

static void print_text(FILE *f, const ptxpose_tool_problem *p, const char *elem_read, const ptxpose_device_info *dev,
		       const ptxpose_plan_info *in, const ptxpose_tool_report *r)
{
	plan_print_problem(f, p, elem_read);
	fprintf(f, "device: %s (sm_%d%d, %d SMs, driver %d.%d)\n", dev->name, dev->cc_major, dev->cc_minor,
		dev->sm_count, dev->driver_version / 1000, dev->driver_version % 1000 / 10);
	const char *label; /* the library's choice for this device (lib/model_choice.c) */
	ptxpose_tool_params_for(dev->name, (unsigned)dev->cc_major, (unsigned)dev->cc_minor, (unsigned)dev->sm_count, NULL,
				&label);
	fprintf(f, "model: %s\n", label);
	if (!r) {
		fprintf(f, "choice: %s  %.2f us predicted  (%s)\n", in->kernel, in->predicted_us,
			in->kernel_index < 0 ? "the transpose is the identity on memory: one cuMemcpyDtoDAsync, not measured"
					     : "the cost model's: nothing was timed");
		return;
	}
	if (r->from_cache)
		fprintf(f, "measured: from the cache, as measured before (%d of %d candidates timed in %.1f ms, "
			   "budget %.0f ms); no GPU time now\n", in->timed, r->n, r->spent_ms, r->budget_ms);
	else
		fprintf(f, "measured: %d of %d candidates timed in %.1f ms (budget %.0f ms): %s\n", in->timed, r->n,
			r->spent_ms, r->budget_ms, r->method);
	fprintf(f, "choice: %s  %.2f us measured  (%.2f us predicted)  grid %ux%ux%u  block %ux%ux%u\n", in->kernel,
		in->measured_us, in->predicted_us, in->grid[0], in->grid[1], in->grid[2], in->block[0], in->block[1],
		in->block[2]);
	why_text(f, r);
	fprintf(f, "\n%4s  %-24s %12s %12s %8s  %s\n", "rank", "kernel", "predicted_us", "measured_us", "vs best",
		"launches");
	for (int i = 0; i < r->n; i++) {
		const ptxpose_tool_timed *c = &r->c[i];
		if (c->measured_us >= 0)
			fprintf(f, "%4d  %-24s %12.2f %12.2f %8.3f  %dx%d\n", i + 1, c->kernel, c->predicted_us, c->measured_us,
				c->measured_us / r->c[r->best].measured_us, c->runs, c->k);
		else
			fprintf(f, "%4d  %-24s %12.2f %12s %8s  (%s)\n", i + 1, c->kernel, c->predicted_us, "-", "-",
				c->skipped[0] ? c->skipped : "not timed");
	}
}

static void jnum(strbuf *o, const char *k, double v, int comma)
{
	sb_printf(o, "\"%s\":%.10g%s", k, v, comma ? "," : "");
}

static void print_json(FILE *f, const ptxpose_tool_problem *p, const char *elem_read, const ptxpose_device_info *dev,
		       const ptxpose_plan_info *in, const ptxpose_tool_report *r)
{
	strbuf o;
	sb_init(&o);
	sb_add(&o, "{\"format\":\"ptxpose-plan-measure 1\",\"device\":{\"name\":");
	ins_json_string(&o, dev->name);
	sb_printf(&o, ",\"cc\":\"%d.%d\",\"sms\":%d,\"driver\":%d},", dev->cc_major, dev->cc_minor, dev->sm_count,
		  dev->driver_version);
	const char *id, *label; /* the library's choice for this device (lib/model_choice.c) */
	ptxpose_tool_params_for(dev->name, (unsigned)dev->cc_major, (unsigned)dev->cc_minor, (unsigned)dev->sm_count, &id,
				&label);
	sb_add(&o, "\"model\":{\"name\":");
	ins_json_string(&o, id);
	sb_add(&o, ",\"params\":");
	ins_json_string(&o, label);
	sb_add(&o, "},");
	plan_json_problem(&o, p, elem_read);
	sb_addc(&o, ',');
	sb_add(&o, "\"choice\":");
	ins_json_string(&o, in->kernel);
	sb_printf(&o, ",\"copy\":%s,\"from_cache\":%s,", in->kernel_index < 0 ? "true" : "false",
		  in->from_cache ? "true" : "false");
	jnum(&o, "predicted_us", in->predicted_us, 1);
	jnum(&o, "measured_us", in->measured_us, 1);
	jnum(&o, "measure_ms", in->measure_ms, 1);
	sb_printf(&o, "\"timed\":%d,", in->timed);
	if (r) {
		jnum(&o, "spent_ms", r->spent_ms, 1);
		jnum(&o, "budget_ms", r->budget_ms, 1);
		sb_add(&o, "\"method\":");
		ins_json_string(&o, r->method);
		sb_addc(&o, ',');
	}
	sb_add(&o, "\"candidates\":[");
	for (int i = 0; r && i < r->n; i++) {
		const ptxpose_tool_timed *c = &r->c[i];
		sb_add(&o, i ? ",{\"kernel\":" : "{\"kernel\":");
		ins_json_string(&o, c->kernel);
		sb_addc(&o, ',');
		jnum(&o, "predicted_us", c->predicted_us, 1);
		if (c->measured_us >= 0)
			jnum(&o, "measured_us", c->measured_us, 1);
		else
			sb_add(&o, "\"measured_us\":null,");
		sb_printf(&o, "\"runs\":%d,\"k\":%d,\"skipped\":", c->runs, c->k);
		ins_json_string(&o, c->skipped);
		sb_addc(&o, '}');
	}
	sb_add(&o, "]}\n");
	fputs(sb_str(&o), f);
	sb_free(&o);
}

int plan_measure(const ptxpose_desc *desc, const ptxpose_tool_problem *p, const plan_measure_opts *o)
{
	ptxpose_handle h = NULL;
	ptxpose_plan plan = NULL;
	ptxpose_status st = ptxpose_create(&h, o->no_cache ? PTXPOSE_NO_CACHE : 0);
	if (!st && o->verbose)
		st = ptxpose_set_log(h, on_note, NULL, PTXPOSE_LOG_NOTE);
	ptxpose_desc d = *desc;
	d.mode = PTXPOSE_PLAN_MEASURE;
	d.measure_budget_ms = (double)o->budget_ms;
	if (!st)
		st = ptxpose_plan_create(h, &plan, &d);
	if (st) {
		cli_err(CMD, "--measure: %s", ptxpose_last_error());
		if (h)
			ptxpose_destroy(h);
		return cli_exit(rig_from_ptxpose(st));
	}
	ptxpose_plan_info info;
	ptxpose_device_info dev;
	ptxpose_plan_get(plan, &info);
	ptxpose_device_get(h, &dev);
	const ptxpose_tool_report *r = ptxpose_tool_plan_report(plan);
	if (o->json)
		print_json(stdout, p, o->elem_read, &dev, &info, r);
	else
		print_text(stdout, p, o->elem_read, &dev, &info, r);
	ptxpose_plan_destroy(plan);
	ptxpose_destroy(h);
	return EXIT_OK;
}
