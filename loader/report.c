/* report: bench results as a Markdown table and as CSV, each headed by
 * the device, driver, date, commit and timing method they were measured with. */
#include "loader/loader.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/fsio.h"
#include "common/version.h"

static const char *const state_names[] = {
	[PX_ROW_OK] = "ok", [PX_ROW_FAIL] = "FAIL", [PX_ROW_SKIP] = "SKIP", [PX_ROW_ERROR] = "ERROR",
};

static void timing_line(strbuf *sb, const px_report_head *h)
{
	char how[768];
	sb_printf(sb, "%s; GB/s counts bytes read + written; %% of copy is against a device-to-device copy of the "
		      "same bytes timed the same way in this run",
		  px_time_method_text(&h->time, how, sizeof how));
}

void px_report_md(strbuf *sb, const px_report_head *h, const px_row *rows, size_t n)
{
	sb_printf(sb, "# ptxpose bench\n\n");
	sb_printf(sb, "- device: %s, %d SMs\n- driver: %s\n- date: %s\n- commit: %s\n- timing: ",
		  h->device, h->sm_count, h->driver, h->date, h->commit);
	timing_line(sb, h);
	sb_addc(sb, '\n');
	if (h->extra[0])
		sb_printf(sb, "- %s\n", h->extra);
	sb_printf(sb, "\n| variant | elem | shape | µs | GB/s | %% of copy | timing | note |\n"
		      "| --- | ---: | --- | ---: | ---: | ---: | --- | --- |\n");
	for (size_t k = 0; k < n; k++) {
		const px_row *r = &rows[k];
		char shape[96];
		px_shape_name(&r->shape, shape, sizeof shape);
		sb_printf(sb, "| %s | %u | %s | ", r->variant, r->shape.elem_bits, shape);
		if (r->state == PX_ROW_OK) {
			sb_printf(sb, "%.1f | %.1f | ", r->us, r->gbps);
			if (r->pct_copy >= 0)
				sb_printf(sb, "%.1f%%", r->pct_copy);
			sb_printf(sb, " | %s | %s |\n", r->timing, r->note);
		} else {
			sb_printf(sb, "%s | | | | %s |\n", state_names[r->state], r->note);
		}
	}
}

static void csv_field(strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		sb_add(sb, s);
		return;
	}
	sb_addc(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			sb_addc(sb, '"');
		sb_addc(sb, *s == '\n' ? ' ' : *s);
	}
	sb_addc(sb, '"');
}

void px_report_csv(strbuf *sb, const px_report_head *h, const px_row *rows, size_t n)
{
	sb_printf(sb, "# device: %s\n# sm_count: %d\n# driver: %s\n# date: %s\n# commit: %s\n# timing: ",
		  h->device, h->sm_count, h->driver, h->date, h->commit);
	timing_line(sb, h);
	sb_addc(sb, '\n');
	if (h->extra[0])
		sb_printf(sb, "# %s\n", h->extra);
	sb_add(sb, "variant,elem,rows,cols,ld_in,ld_out,status,us,gbps,pct_copy,timing,note\n");
	for (size_t k = 0; k < n; k++) {
		const px_row *r = &rows[k];
		const px_shape *s = &r->shape;
		csv_field(sb, r->variant);
		sb_printf(sb, ",%u,%llu,%llu,%llu,%llu,%s,", s->elem_bits, (unsigned long long)s->rows,
			  (unsigned long long)s->cols, (unsigned long long)(s->ld_in ? s->ld_in : s->cols),
			  (unsigned long long)(s->ld_out ? s->ld_out : s->rows), state_names[r->state]);
		if (r->state == PX_ROW_OK) {
			sb_printf(sb, "%.3f,%.2f,", r->us, r->gbps);
			if (r->pct_copy >= 0)
				sb_printf(sb, "%.2f", r->pct_copy);
			sb_addc(sb, ',');
			csv_field(sb, r->timing);
			sb_addc(sb, ',');
		} else {
			sb_add(sb, ",,,,");
		}
		csv_field(sb, r->note);
		sb_addc(sb, '\n');
	}
}

void px_report_head_init(px_report_head *h, cu_ctx *cu, const px_time_opts *t)
{
	memset(h, 0, sizeof *h);
	const cu_devinfo *d = cu_info(cu);
	snprintf(h->device, sizeof h->device, "%s", d->name);
	h->sm_count = d->sm_count;
	cu_driver_str(cu, h->driver, sizeof h->driver);
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(h->date, sizeof h->date, "%Y-%m-%d %H:%M:%S UTC", &tm);
	snprintf(h->commit, sizeof h->commit, "%s", ver_commit());
	h->time = *t;
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
	char path[4096];
	if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
		return -1;
	for (char *p = path + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(path, 0777) && errno != EEXIST)
			return -1;
		if (!(*p = c))
			return 0;
	}
}

px_status px_report_write(const char *dir, const px_report_head *h, const px_row *rows, size_t n,
			  char *err, size_t errlen)
{
	if (make_dirs(dir)) {
		snprintf(err, errlen, "cannot make the folder %s: %s", dir, strerror(errno));
		return PX_EINPUT;
	}
	static void (*const writers[])(strbuf *, const px_report_head *, const px_row *, size_t) = {
		px_report_md, px_report_csv,
	};
	static const char *const names[] = {"bench.md", "bench.csv"};
	px_status st = PX_OK;
	for (size_t k = 0; k < 2 && !st; k++) {
		strbuf sb;
		char path[4096];
		sb_init(&sb);
		writers[k](&sb, h, rows, n);
		snprintf(path, sizeof path, "%s/%s", dir, names[k]);
		if (sb.oom || fs_write_atomic(path, sb_str(&sb), sb.len)) {
			snprintf(err, errlen, "cannot write %s: %s", path, sb.oom ? "out of memory" : strerror(errno));
			st = PX_EINPUT;
		}
		sb_free(&sb);
	}
	return st;
}
