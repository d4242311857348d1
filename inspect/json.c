/* json: a report as one JSON object, written by hand, and the small writer
 * that `list --json` shares. */
#include "inspect/inspect.h"

#include <stdio.h>
#include <string.h>

void ins_json_string(strbuf *out, const char *s)
{
	sb_addc(out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': sb_add(out, "\\\""); break;
		case '\\': sb_add(out, "\\\\"); break;
		case '\n': sb_add(out, "\\n"); break;
		case '\r': sb_add(out, "\\r"); break;
		case '\t': sb_add(out, "\\t"); break;
		default:
			if (*p < 0x20)
				sb_printf(out, "\\u%04x", *p);
			else
				sb_addc(out, (char)*p);
		}
	}
	sb_addc(out, '"');
}

void ins_json_key(strbuf *out, const char *k)
{
	if (out->len && out->data[out->len - 1] != '{' && out->data[out->len - 1] != '[')
		sb_addc(out, ',');
	ins_json_string(out, k);
	sb_addc(out, ':');
}

static void kstr(strbuf *out, const char *k, const char *v)
{
	ins_json_key(out, k);
	ins_json_string(out, v);
}

static void kuint(strbuf *out, const char *k, unsigned long long v)
{
	ins_json_key(out, k);
	sb_printf(out, "%llu", v);
}

void ins_json_value(strbuf *out, const char *v)
{
	size_t n = strlen(v);
	/* a JSON number as written, and one a double holds exactly (< 2^53) */
	int number = n > 0 && n <= 15 && strspn(v, "0123456789") == n && (v[0] != '0' || n == 1);
	if (number)
		sb_add(out, v);
	else
		ins_json_string(out, v);
}

/* {"8":0,"16":0,"32":1,"64":0,"128":4} */
static void widths(strbuf *out, const char *k, const ins_sass *s, enum ins_class c)
{
	ins_json_key(out, k);
	sb_addc(out, '{');
	for (int w = 0; w < INS_NWIDTH; w++)
		kuint(out, ins_width_name((enum ins_width)w), s->count[c][w]);
	sb_addc(out, '}');
}

static void meta_json(strbuf *out, const ins_report *r)
{
	ins_json_key(out, "meta");
	if (!r->have_meta) {
		sb_add(out, "null");
		kstr(out, "meta_error", r->meta_err);
		return;
	}
	sb_addc(out, '{');
	for (int i = 0; i < r->meta.nkv; i++) {
		ins_json_key(out, r->meta.key[i]);
		ins_json_value(out, r->meta.val[i]);
	}
	sb_addc(out, '}');
	ins_json_key(out, "bank_model");
	sb_addc(out, '[');
	for (int i = 0; i < r->meta.nsmem; i++) {
		const meta_smem *a = &r->meta.smem[i];
		if (i)
			sb_addc(out, ',');
		sb_addc(out, '{');
		kstr(out, "id", a->id);
		kstr(out, "op", a->op_store ? "st" : "ld");
		kuint(out, "bytes", a->bytes);
		kuint(out, "wavefronts", a->wavefronts);
		kuint(out, "ideal", a->ideal);
		sb_addc(out, '}');
	}
	sb_addc(out, ']');
}

static void res_json(strbuf *out, const ins_res *x)
{
	kstr(out, "function", x->function);
	kuint(out, "registers", x->registers);
	kuint(out, "barriers_used", x->barriers);
	kuint(out, "smem_bytes", x->smem_bytes);
	if (x->have_cmem)
		kuint(out, "cmem_bytes", x->cmem_bytes);
	else {
		ins_json_key(out, "cmem_bytes");
		sb_add(out, "null");
	}
	kuint(out, "stack_bytes", x->stack_bytes);
	kuint(out, "spill_store_bytes", x->spill_store_bytes);
	kuint(out, "spill_load_bytes", x->spill_load_bytes);
}

static void sass_json(strbuf *out, const ins_sass *s)
{
	ins_json_key(out, "sass");
	sb_addc(out, '{');
	widths(out, "ldg", s, INS_C_LDG);
	widths(out, "stg", s, INS_C_STG);
	widths(out, "lds", s, INS_C_LDS);
	widths(out, "sts", s, INS_C_STS);
	kuint(out, "ldl", ins_sass_count(s, INS_C_LDL));
	kuint(out, "stl", ins_sass_count(s, INS_C_STL));
	kuint(out, "ld_generic", ins_sass_count(s, INS_C_LD));
	kuint(out, "st_generic", ins_sass_count(s, INS_C_ST));
	kuint(out, "bar", ins_sass_count(s, INS_C_BAR));
	kuint(out, "mem_instructions", s->mem);
	kuint(out, "mem_predicated", s->mem_pred);
	kuint(out, "instructions", s->total);
	kuint(out, "non_mem_instructions", s->total - s->mem);
	sb_addc(out, '}');
}

/* {"static":true,"value":0.23,"instructions":942,"warps":8,"bytes":32768,
 *  "tile":"128x64","elem":16,"threads":256,"source":"..."}, or with
 * "value":null and the "reason". */
static void ipb_json(strbuf *out, const ins_ipb *x)
{
	ins_json_key(out, "instructions_per_byte");
	sb_addc(out, '{');
	ins_json_key(out, "static");
	sb_add(out, "true");
	ins_json_key(out, "value");
	if (!x->have) {
		sb_add(out, "null");
		kstr(out, "reason", x->why);
		sb_addc(out, '}');
		return;
	}
	sb_printf(out, "%.6g", x->value);
	kuint(out, "instructions", x->instructions);
	kuint(out, "warps", x->warps);
	kuint(out, "bytes", x->bytes);
	ins_json_key(out, "tile");
	sb_printf(out, "\"%ux%u\"", x->tile.rows, x->tile.cols);
	kuint(out, "elem", x->tile.elem_bits);
	kuint(out, "threads", x->tile.threads);
	kstr(out, "source", x->source);
	sb_addc(out, '}');
}

void ins_json_report(const ins_report *r, strbuf *out)
{
	sb_addc(out, '{');
	kstr(out, "file", r->path);
	kstr(out, "arch", r->arch);
	ins_json_key(out, "ok");
	sb_add(out, r->status == INS_OK ? "true" : "false");
	if (r->status != INS_OK) {
		kstr(out, "error", r->err);
		kstr(out, "log", sb_str(&r->log));
	}
	meta_json(out, r);
	ins_json_key(out, "ptxas");
	if (r->have_res) {
		sb_addc(out, '{');
		res_json(out, &r->res);
		sb_addc(out, '}');
	} else {
		sb_add(out, "null");
	}
	if (r->have_sass) {
		sass_json(out, &r->sass);
		ipb_json(out, &r->ipb);
	} else {
		ins_json_key(out, "sass");
		sb_add(out, "null");
		ins_json_key(out, "instructions_per_byte");
		sb_add(out, "null");
	}
	sb_addc(out, '}');
}
