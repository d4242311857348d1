/* rig_report: bench results as a Markdown table and as CSV, each headed by
 * the device, driver, date, commit and timing method they were measured with. */
#include "rig/rig_report.h"
#include "rig/rig.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/fstx.h"
#include "common/version.h"

static const char *const state_names[] = {
	[RIG_ROW_OK] = "ok", [RIG_ROW_FAIL] = "FAIL", [RIG_ROW_SKIP] = "SKIP", [RIG_ROW_ERROR] = "ERROR",
};

static void timing_line(strbuf *sb, const rig_report_head *h)
{
	char how[768];
	sb_printf(sb, "%s; GB/s counts bytes read + written; %% of copy is against a device-to-device copy of the "
		      "same bytes timed the same way in this run",
		  rig_time_method_text(&h->time, how, sizeof how));
}

void rig_report_md(strbuf *sb, const rig_report_head *h, const rig_row *rows, size_t n)
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
		const rig_row *r = &rows[k];
		char shape[96];
		rig_shape_name(&r->shape, shape, sizeof shape);
		sb_add(sb, "| ");
		sb_add_esc(sb, r->variant, strlen(r->variant), "|");
		sb_printf(sb, " | %u | %s | ", rig_shape_elem_bits(&r->shape), shape);
		if (r->state == RIG_ROW_OK) {
			sb_printf(sb, "%.1f | %.1f | ", r->us, r->gbps);
			if (r->pct_copy >= 0)
				sb_printf(sb, "%.1f%%", r->pct_copy);
			sb_add(sb, " | ");
			sb_add_esc(sb, r->timing, strlen(r->timing), "|");
			sb_add(sb, " | ");
		} else {
			sb_printf(sb, "%s | | | | ", state_names[r->state]);
		}
		sb_add_esc(sb, r->note, strlen(r->note), "|");
		sb_add(sb, " |\n");
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

void rig_report_csv(strbuf *sb, const rig_report_head *h, const rig_row *rows, size_t n)
{
	sb_printf(sb, "# device: %s\n# sm_count: %d\n# driver: %s\n# date: %s\n# commit: %s\n# timing: ",
		  h->device, h->sm_count, h->driver, h->date, h->commit);
	timing_line(sb, h);
	sb_addc(sb, '\n');
	if (h->extra[0])
		sb_printf(sb, "# %s\n", h->extra);
	sb_add(sb, "variant,elem,rows,cols,ld_in,ld_out,status,us,gbps,pct_copy,timing,note,batch,stride_in,stride_out,permutation\n");
	for (size_t k = 0; k < n; k++) {
		const rig_row *r = &rows[k];
		const rig_shape *s = &r->shape;
		csv_field(sb, r->variant);
		sb_printf(sb, ",%u,%llu,%llu,%llu,%llu,%s,", rig_shape_elem_bits(s), (unsigned long long)s->p.rows,
			  (unsigned long long)s->p.cols, (unsigned long long)(s->p.ld_in ? s->p.ld_in : s->p.cols),
			  (unsigned long long)(s->p.ld_out ? s->p.ld_out : s->p.rows), state_names[r->state]);
		if (r->state == RIG_ROW_OK) {
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
		uint64_t b = s->p.batch ? s->p.batch : 1; /* a batch's columns last: readers of the older columns keep working */
		sb_printf(sb, ",%llu,%llu,%llu,", (unsigned long long)b,
			  (unsigned long long)(b > 1 && s->p.stride_in ? s->p.stride_in : 0),
			  (unsigned long long)(b > 1 && s->p.stride_out ? s->p.stride_out : 0));
		char spec[256] = ""; /* an N-d case's spec, last (rows and cols are 0 then) */
		if (s->p.rank)
			csv_field(sb, rig_shape_name(s, spec, sizeof spec));
		sb_addc(sb, '\n');
	}
}

void rig_report_head_init(rig_report_head *h, drv_ctx *drv, const rig_time_opts *t)
{
	memset(h, 0, sizeof *h);
	const ptxpose_device_info *d = drv_device(drv);
	snprintf(h->device, sizeof h->device, "%s", d->name);
	h->sm_count = d->sm_count;
	drv_driver_str(drv, h->driver, sizeof h->driver);
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
	if (!dir[0] || snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
		errno = dir[0] ? ENAMETOOLONG : ENOENT;
		return -1;
	}
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

px_status rig_report_writable(const char *dir, char *err, size_t errlen)
{
	char path[4096];
	if (!dir[0] || snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
		snprintf(err, errlen, "cannot write bench.md and bench.csv into '%.200s': %s", dir,
			 dir[0] ? "the name is too long" : "the folder's name is empty");
		return PX_EINPUT;
	}
	/* the folder, or the nearest of its parents that exists, must take new files */
	struct stat st;
	while (stat(path, &st) != 0) {
		char *slash = strrchr(path, '/');
		if (!slash) {
			snprintf(path, sizeof path, ".");
			break;
		}
		*slash = '\0';
		if (slash == path)
			snprintf(path, sizeof path, "/");
	}
	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode) || access(path, W_OK | X_OK) != 0) {
		snprintf(err, errlen, "cannot write bench.md and bench.csv into %s: %s is %s", dir, path,
			 stat(path, &st) == 0 && !S_ISDIR(st.st_mode) ? "not a folder" : "not writable");
		return PX_EINPUT;
	}
	return PX_OK;
}

px_status rig_report_write(const char *dir, const rig_report_head *h, const rig_row *rows, size_t n,
			  char *err, size_t errlen)
{
	if (make_dirs(dir)) {
		snprintf(err, errlen, "cannot make the folder %s: %s", dir, strerror(errno));
		return PX_EINPUT;
	}
	strbuf text[2];
	static const char *const names[] = {"bench.md", "bench.csv"};
	fstx *tx = fstx_new(dir);
	strbuf why;
	sb_init(&why);
	for (size_t k = 0; k < 2; k++) {
		sb_init(&text[k]);
		(k ? rig_report_csv : rig_report_md)(&text[k], h, rows, n);
		if (tx && !text[k].oom)
			fstx_add(tx, names[k], strlen(names[k]), sb_str(&text[k]), text[k].len, &why);
	}
	px_status st = PX_OK;
	if (!tx || text[0].oom || text[1].oom || fstx_count(tx) != 2) {
		snprintf(err, errlen, "cannot write %s/bench.md and bench.csv: out of memory", dir);
		st = PX_ENOMEM;
	} else if (fstx_commit(tx, &why)) { /* both or neither, across a crash too */
		snprintf(err, errlen, "%s (neither file changed)", sb_str(&why));
		st = PX_EINPUT;
	}
	fstx_free(tx);
	sb_free(&why);
	sb_free(&text[0]);
	sb_free(&text[1]);
	return st;
}
