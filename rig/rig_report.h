/* rig_report: bench.md and bench.csv (rig_report.c), written all or nothing. */
#ifndef RIG_RIG_REPORT_H
#define RIG_RIG_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "common/strbuf.h"
#include "loader/status.h"
#include "rig/drv.h"
#include "rig/rig.h"
#include "rig/shape.h"

typedef enum { RIG_ROW_OK, RIG_ROW_FAIL, RIG_ROW_SKIP, RIG_ROW_ERROR } rig_row_state;

typedef struct {
	char variant[128];
	rig_shape shape;       /* elem_bits set */
	rig_row_state state;
	char note[360];       /* why FAIL, SKIP or ERROR; how it was timed when not the usual way */
	double us, gbps, pct_copy;  /* pct_copy < 0 when there is no copy row */
	char timing[40];      /* rig_time_how_text: "graph K=37", "events" */
} rig_row;

typedef struct {
	char device[256];
	int sm_count;
	char driver[32];
	char date[32];        /* "2026-11-22 10:11:12 UTC" */
	char commit[64];
	rig_time_opts time;
	char extra[256];      /* one more header line, or "" */
} rig_report_head;

/* Device, SM count and driver as the library's handle told drv; the date now (UTC); the commit the
 * binary was built from (ver_commit, common/version.h). */
void rig_report_head_init(rig_report_head *h, drv_ctx *drv, const rig_time_opts *t);

void rig_report_md(strbuf *sb, const rig_report_head *h, const rig_row *rows, size_t n);
void rig_report_csv(strbuf *sb, const rig_report_head *h, const rig_row *rows, size_t n);

/* PX_EINPUT, naming it, when dir (or the nearest of its parents that exists,
 * as dir will be made) cannot take new files. Makes nothing. */
px_status rig_report_writable(const char *dir, char *err, size_t errlen);

/* Make dir (and its parents), then write dir/bench.md and dir/bench.csv,
 * both or neither, across a crash too (common/fstx.h). PX_EINPUT when that
 * cannot be done. */
px_status rig_report_write(const char *dir, const rig_report_head *h, const rig_row *rows, size_t n,
			  char *err, size_t errlen);

#endif
