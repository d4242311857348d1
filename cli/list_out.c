/* list_out: `ptxpose list`'s table, CSV and JSON from the reports (list.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/list.h"

static const char *const list_heads[NCOL] = {
	"name", "elem", "tile", "block", "vec", "smem", "regs", "smem B", "spill/stack",
	"LDG128", "STG128", "bank W/I",
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static void set(list_row *row, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void set(list_row *row, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(row->cell[col], sizeof row->cell[col], fmt, ap);
	va_end(ap);
}

static const char *meta_or(const ins_report *r, const char *key, const char *dflt)
{
	const char *v = r->have_meta ? meta_get(&r->meta, key) : NULL;
	return v ? v : dflt;
}

static void bank_cell(const ins_report *r, list_row *row)
{
	const meta_smem *st = r->have_meta ? ins_smem_worst(&r->meta, 1) : NULL;
	const meta_smem *ld = r->have_meta ? ins_smem_worst(&r->meta, 0) : NULL;
	char a[32] = "", b[32] = "";
	if (st)
		snprintf(a, sizeof a, "st %u/%u", st->wavefronts, st->ideal);
	if (ld)
		snprintf(b, sizeof b, "ld %u/%u", ld->wavefronts, ld->ideal);
	set(row, C_BANK, "%s%s%s", a, *a && *b ? " " : "", (*a || *b) ? b : "-");
}

void list_fill_row(const ins_report *r, list_row *row)
{
	const char *base = strrchr(r->path, '/');
	base = base ? base + 1 : r->path;
	size_t bl = strlen(base);
	if (ends_with(base, ".ptx"))
		bl -= 4;
	set(row, C_NAME, "%.*s", (int)bl, base);
	set(row, C_ELEM, "%s", meta_or(r, "elem", "-"));
	if (!meta_or(r, "tile", NULL) && meta_or(r, "per_block", NULL))
		set(row, C_TILE, "lin:%s", meta_or(r, "per_block", "-"));
	else
		set(row, C_TILE, "%s", meta_or(r, "tile", "-"));
	set(row, C_BLOCK, "%s", meta_or(r, "block", "-"));
	set(row, C_VEC, "%s", meta_or(r, "vec", "-"));
	set(row, C_SMEM, "%s", meta_or(r, "smem", "-"));
	bank_cell(r, row);
	if (r->status != INS_OK) {
		snprintf(row->error, sizeof row->error, "%s", r->err);
		return;
	}
	const ins_res *x = &r->res;
	if (!r->have_res) {  /* --no-ptxas */
		for (int c = C_REGS; c <= C_STG; c++)
			set(row, c, "-");
		return;
	}
	set(row, C_REGS, "%u", x->registers);
	/* static (ptxas) plus the dynamic bytes the launch passes (dyn_smem=) */
	const char *dyn = meta_or(r, "dyn_smem", "0");
	set(row, C_SMEMB, "%llu", (unsigned long long)x->smem_bytes + strtoull(dyn, NULL, 10));
	set(row, C_SPILL, "%u/%u", x->spill_store_bytes + x->spill_load_bytes, x->stack_bytes);
	set(row, C_LDG, "%s", !r->have_sass ? "-" : r->sass.count[INS_C_LDG][INS_W128] ? "yes" : "no");
	set(row, C_STG, "%s", !r->have_sass ? "-" : r->sass.count[INS_C_STG][INS_W128] ? "yes" : "no");
}

void list_print_table(const list_row *rows, int n)
{
	size_t w[NCOL];
	for (int c = 0; c < NCOL; c++) {
		w[c] = strlen(list_heads[c]);
		for (int i = 0; i < n; i++)
			if (!rows[i].error[0] || c < C_REGS || c == C_BANK)
				w[c] = strlen(rows[i].cell[c]) > w[c] ? strlen(rows[i].cell[c]) : w[c];
	}
	for (int c = 0; c < NCOL; c++)
		printf("%-*s%s", c == NCOL - 1 ? 0 : (int)w[c], list_heads[c], c + 1 < NCOL ? "  " : "\n");
	for (int i = 0; i < n; i++) {
		const list_row *r = &rows[i];
		for (int c = 0; c < C_REGS; c++)
			printf("%-*s  ", (int)w[c], r->cell[c]);
		if (r->error[0]) {
			printf("error: %s\n", r->error);
			continue;
		}
		for (int c = C_REGS; c < NCOL; c++)
			printf("%-*s%s", c == NCOL - 1 ? 0 : (int)w[c], r->cell[c], c + 1 < NCOL ? "  " : "\n");
	}
}

static void csv_field(strbuf *out, const char *s, int last)
{
	if (strpbrk(s, ",\"\n")) {
		sb_addc(out, '"');
		for (; *s; s++) {
			if (*s == '"')
				sb_addc(out, '"');
			sb_addc(out, *s);
		}
		sb_addc(out, '"');
	} else {
		sb_add(out, s);
	}
	sb_addc(out, last ? '\n' : ',');
}


void list_csv_row(const ins_report *r, const list_row *row, strbuf *out)
{
	char num[16][24];
	int k = 0;
	const int ok = r->status == INS_OK, res = ok && r->have_res, sass = res && r->have_sass;
	const ins_res *x = &r->res;
	const ins_sass *s = &r->sass;
	const meta_smem *st = r->have_meta ? ins_smem_worst(&r->meta, 1) : NULL;
	const meta_smem *ld = r->have_meta ? ins_smem_worst(&r->meta, 0) : NULL;
	unsigned long long v[] = {x->registers, x->smem_bytes, x->stack_bytes, x->spill_store_bytes,
				  x->spill_load_bytes, s->count[INS_C_LDG][INS_W128],
				  s->count[INS_C_STG][INS_W128], ins_sass_count(s, INS_C_LDL),
				  ins_sass_count(s, INS_C_STL)};
	for (int i = 0; i < 9; i++, k++) {
		int show = i < 5 ? res : sass;
		snprintf(num[k], sizeof num[k], show ? "%llu" : "", v[i]);
	}
	const meta_smem *m[2] = {st, ld};
	for (int i = 0; i < 2; i++, k += 2) {
		snprintf(num[k], sizeof num[k], m[i] ? "%u" : "", m[i] ? m[i]->wavefronts : 0);
		snprintf(num[k + 1], sizeof num[k + 1], m[i] ? "%u" : "", m[i] ? m[i]->ideal : 0);
	}
	csv_field(out, r->path, 0);
	csv_field(out, row->cell[C_NAME], 0);
	csv_field(out, r->have_meta ? r->meta.kernel : x->function, 0);
	csv_field(out, meta_or(r, "elem", ""), 0);
	csv_field(out, meta_or(r, "tile", ""), 0);
	csv_field(out, meta_or(r, "per_block", ""), 0);
	csv_field(out, meta_or(r, "block", ""), 0);
	csv_field(out, meta_or(r, "vec", ""), 0);
	csv_field(out, meta_or(r, "smem", ""), 0);
	for (int i = 0; i < k; i++)
		csv_field(out, num[i], 0);
	csv_field(out, ok ? (r->have_meta ? "ok" : "no-metadata") : "error", 0);
	csv_field(out, ok ? (r->have_meta ? "" : r->meta_err) : r->err, 1);
}

/* ,"k":v -- a metadata value (for a numeric key a number when it is one),
 * or null. */
static void json_meta(strbuf *out, const ins_report *r, const char *k, int numeric)
{
	const char *v = meta_or(r, k, NULL);
	ins_json_key(out, k);
	if (!v)
		sb_add(out, "null");
	else if (numeric)
		ins_json_value(out, v);
	else
		ins_json_string(out, v);
}

static void json_uint(strbuf *out, const char *k, int have, unsigned long long v)
{
	ins_json_key(out, k);
	if (have)
		sb_printf(out, "%llu", v);
	else
		sb_add(out, "null");
}

/* One file as a JSON object: the table's columns, typed. */
void list_json_row(const ins_report *r, const list_row *row, strbuf *out)
{
	const int ok = r->status == INS_OK, sass = ok && r->have_sass;
	const ins_res *x = &r->res;
	sb_addc(out, '{');
	ins_json_key(out, "file");
	ins_json_string(out, r->path);
	ins_json_key(out, "name");
	ins_json_string(out, row->cell[C_NAME]);
	static const struct {
		const char *key;
		int numeric;
	} meta_keys[] = {{"elem", 1}, {"tile", 0}, {"per_block", 1}, {"block", 0}, {"vec", 1}, {"smem", 0}};
	for (size_t i = 0; i < sizeof meta_keys / sizeof meta_keys[0]; i++)
		json_meta(out, r, meta_keys[i].key, meta_keys[i].numeric);
	const int res = ok && r->have_res;
	json_uint(out, "registers", res, x->registers);
	json_uint(out, "smem_bytes", res, x->smem_bytes);
	json_uint(out, "spill_bytes", res, (unsigned long long)x->spill_store_bytes + x->spill_load_bytes);
	json_uint(out, "stack_bytes", res, x->stack_bytes);
	const char *w128[2] = {"ldg128", "stg128"};
	enum ins_class c128[2] = {INS_C_LDG, INS_C_STG};
	for (int i = 0; i < 2; i++) {
		ins_json_key(out, w128[i]);
		sb_add(out, !sass ? "null" : r->sass.count[c128[i]][INS_W128] ? "true" : "false");
	}
	ins_json_key(out, "bank");
	const meta_smem *m[2] = {r->have_meta ? ins_smem_worst(&r->meta, 1) : NULL,
				 r->have_meta ? ins_smem_worst(&r->meta, 0) : NULL};
	const char *names[2][2] = {{"st_wavefronts", "st_ideal"}, {"ld_wavefronts", "ld_ideal"}};
	sb_addc(out, '{');
	for (int i = 0; i < 2; i++) {
		json_uint(out, names[i][0], m[i] != NULL, m[i] ? m[i]->wavefronts : 0);
		json_uint(out, names[i][1], m[i] != NULL, m[i] ? m[i]->ideal : 0);
	}
	sb_addc(out, '}');
	ins_json_key(out, "error");
	if (!ok || !r->have_meta)
		ins_json_string(out, !ok ? r->err : r->meta_err);
	else
		sb_add(out, "null");
	sb_addc(out, '}');
}
