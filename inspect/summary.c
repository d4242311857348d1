/* summary: the labelled lines of `ptxpose sass`, alone or side by side. */
#include "inspect/inspect.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define LABEL_W 21  /* "instructions per byte" */

/* "LDG.E" for global and generic accesses (SASS writes the .E), "LDS"
 * for the others; then the width unless it is 32 bits. */
static void op_name(enum ins_class c, enum ins_width w, strbuf *out)
{
	sb_add(out, ins_class_name(c));
	if (c == INS_C_LDG || c == INS_C_STG || c == INS_C_LD || c == INS_C_ST)
		sb_add(out, ".E");
	if (w != INS_W32)
		sb_printf(out, ".%s", ins_width_name(w));
}

void ins_class_counts(const ins_sass *s, enum ins_class c, strbuf *out)
{
	int any = 0;
	for (int w = INS_NWIDTH - 1; w >= 0; w--) {
		if (!s->count[c][w])
			continue;
		if (any++)
			sb_add(out, "  ");
		op_name(c, (enum ins_width)w, out);
		sb_printf(out, " x%u", s->count[c][w]);
	}
	if (!any)
		sb_add(out, "none");
}

typedef struct {
	ins_row *rows;
	int n, max;
} rowset;

static char *row(rowset *rs, const char *label)
{
	static char sink[sizeof ((ins_row *)0)->value];
	if (rs->n >= rs->max)
		return sink;
	ins_row *r = &rs->rows[rs->n++];
	r->label = label;
	r->value[0] = '\0';
	return r->value;
}

static void rowf(rowset *rs, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void rowf(rowset *rs, const char *label, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(row(rs, label), sizeof rs->rows[0].value, fmt, ap);
	va_end(ap);
}

static void sass_row(rowset *rs, const char *label, const ins_report *r, enum ins_class a, enum ins_class b)
{
	strbuf sb;
	sb_init(&sb);
	if (!r->have_sass) {
		sb_add(&sb, "-");
	} else if (ins_sass_count(&r->sass, a) + ins_sass_count(&r->sass, b) == 0) {
		sb_add(&sb, "none");
	} else {
		if (ins_sass_count(&r->sass, a))
			ins_class_counts(&r->sass, a, &sb);
		if (b != a && ins_sass_count(&r->sass, b)) {
			if (sb.len)
				sb_add(&sb, "  ");
			ins_class_counts(&r->sass, b, &sb);
		}
	}
	rowf(rs, label, "%s", sb_str(&sb));
	sb_free(&sb);
}

static void meta_rows(rowset *rs, const ins_report *r)
{
	if (!r->have_meta) {
		rowf(rs, "kernel", "%s", r->have_res ? r->res.function : "-");
		rowf(rs, "metadata", "none: %s", r->meta_err);
		return;
	}
	rowf(rs, "kernel", "%s", r->meta.kernel);
	static const char *const keys[] = {"elem", "tile", "per_block", "block", "vec", "smem", "dyn_smem"};
	strbuf sb;
	sb_init(&sb);
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *v = meta_get(&r->meta, keys[i]);
		if (v)
			sb_printf(&sb, "%s%s=%s", sb.len ? " " : "", keys[i], v);
	}
	rowf(rs, "metadata", "%s", sb_str(&sb));
	sb_free(&sb);
}

static void res_rows(rowset *rs, const ins_report *r)
{
	const ins_res *x = &r->res;
	if (!r->have_res) {
		const char *labels[] = {"registers", "shared memory", "stack", "spills", "constant"};
		for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
			rowf(rs, labels[i], "-");
		return;
	}
	rowf(rs, "registers", "%u", x->registers);
	if (r->have_meta && r->meta.dyn_smem)
		rowf(rs, "shared memory", "%u bytes static + %u bytes dynamic", x->smem_bytes, r->meta.dyn_smem);
	else
		rowf(rs, "shared memory", "%u bytes", x->smem_bytes);
	rowf(rs, "stack", "%u bytes", x->stack_bytes);
	rowf(rs, "spills", "%u bytes stored, %u bytes loaded", x->spill_store_bytes, x->spill_load_bytes);
	if (x->have_cmem)
		rowf(rs, "constant", "%u bytes", x->cmem_bytes);
	else
		rowf(rs, "constant", "not reported by ptxas for %s", r->arch);
}

/* Instructions per byte: the figure and its terms, then where the bytes come from. */
static void ipb_rows(rowset *rs, const ins_ipb *x)
{
	if (!x->have) {
		rowf(rs, "instructions per byte", "n/a (%s)", x->why);
		return;
	}
	rowf(rs, "instructions per byte", "%.3f static, every path counted once: %u instructions x %u warps / %llu bytes",
	     x->value, x->instructions, x->warps, (unsigned long long)x->bytes);
	rowf(rs, "", "%llu = 2 (read + written) x %ux%u x %u-byte elements; from %s", (unsigned long long)x->bytes,
	     x->tile.rows, x->tile.cols, x->tile.elem_bits / 8, x->source);
}

static void sass_rows(rowset *rs, const ins_report *r)
{
	const ins_sass *s = &r->sass;
	sass_row(rs, "global loads", r, INS_C_LDG, INS_C_LDG);
	sass_row(rs, "global stores", r, INS_C_STG, INS_C_STG);
	sass_row(rs, "shared loads", r, INS_C_LDS, INS_C_LDS);
	sass_row(rs, "shared stores", r, INS_C_STS, INS_C_STS);
	sass_row(rs, "local memory", r, INS_C_LDL, INS_C_STL);
	sass_row(rs, "generic memory", r, INS_C_LD, INS_C_ST);
	sass_row(rs, "barriers", r, INS_C_BAR, INS_C_BAR);
	if (!r->have_sass) {
		rowf(rs, "predicated", "-");
		rowf(rs, "instructions", "-");
		rowf(rs, "instructions per byte", "-");
		return;
	}
	rowf(rs, "predicated", "%u of %u memory instructions (%u%%)", s->mem_pred, s->mem,
	     s->mem ? (unsigned)((s->mem_pred * 100ull + s->mem / 2) / s->mem) : 0);
	rowf(rs, "instructions", "%u: %u memory, %u other (ALU, control); NOPs and the closing BRA excluded", s->total,
	     s->mem, s->total - s->mem);
	ipb_rows(rs, &r->ipb);
}

static void bank_rows(rowset *rs, const ins_report *r)
{
	if (!r->have_meta || r->meta.nsmem == 0) {
		rowf(rs, "bank model", "%s", r->have_meta ? "no shared-memory accesses described" : "-");
		return;
	}
	strbuf sb;
	sb_init(&sb);
	for (int i = 0; i < r->meta.nsmem; i++) {
		sb_reset(&sb);
		ins_smem_describe(&r->meta.smem[i], &sb);
		rowf(rs, i ? "" : "bank model", "%s", sb_str(&sb));
	}
	sb_free(&sb);
}

int ins_summary_rows(const ins_report *r, ins_row *rows, int max)
{
	rowset rs = {rows, 0, max};
	rowf(&rs, "file", "%s", r->path);
	meta_rows(&rs, r);
	rowf(&rs, "target", "%s", r->arch);
	res_rows(&rs, r);
	sass_rows(&rs, r);
	bank_rows(&rs, r);
	return rs.n;
}

void ins_summary_text(const ins_report *r, strbuf *out)
{
	ins_row rows[INS_MAX_ROWS];
	int n = ins_summary_rows(r, rows, INS_MAX_ROWS);
	for (int i = 0; i < n; i++)
		sb_printf(out, "%-*s %s\n", LABEL_W, rows[i].label, rows[i].value);
}

/* The rows of one label group: [i, end) where later rows have label "". */
static int group_end(const ins_row *rows, int n, int i)
{
	int e = i + 1;
	while (e < n && !rows[e].label[0])
		e++;
	return e;
}

void ins_summary_diff(const ins_report *a, const ins_report *b, strbuf *out)
{
	ins_row ra[INS_MAX_ROWS], rb[INS_MAX_ROWS];
	int na = ins_summary_rows(a, ra, INS_MAX_ROWS);
	int nb = ins_summary_rows(b, rb, INS_MAX_ROWS);
	size_t wa = 1;
	for (int i = 0; i < na; i++)
		if (strlen(ra[i].value) > wa)
			wa = strlen(ra[i].value);
	/* both lists have the same labels in the same order, by construction */
	for (int i = 0, j = 0; i < na && j < nb;) {
		int ie = group_end(ra, na, i), je = group_end(rb, nb, j);
		int lines = (ie - i) > (je - j) ? (ie - i) : (je - j);
		for (int k = 0; k < lines; k++) {
			const char *va = i + k < ie ? ra[i + k].value : "";
			const char *vb = j + k < je ? rb[j + k].value : "";
			sb_printf(out, "%c %-*s %-*s | %s\n", strcmp(va, vb) ? '*' : ' ',
				  LABEL_W, k ? "" : ra[i].label, (int)wa, va, vb);
		}
		i = ie;
		j = je;
	}
}
