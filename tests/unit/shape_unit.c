/* Unit tests for shapes and their validation (loader/shape.c), the status
 * table (status.c), PTX file checks (pxfile.c), launch limits (launch.c)
 * and the bench tables (report.c). Prints TAP. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/loader.h"
#include "tap.h"

static char err[512];

/* The status of checking a shape, with err holding the reason. */
static px_status chk(uint64_t rows, uint64_t cols, uint64_t ld_in, uint64_t ld_out, unsigned bits, px_shape *out)
{
	px_shape s = {rows, cols, ld_in, ld_out, bits, 0};
	err[0] = '\0';
	px_status st = px_shape_check(&s, err, sizeof err);
	if (out)
		*out = s;
	return st;
}

static void test_check(void)
{
	px_shape s;
	ok(chk(67, 129, 0, 0, 32, &s) == PX_OK && s.ld_in == 129 && s.ld_out == 67, "default leading dimensions: cols, rows");
	ok(px_shape_in_bytes(&s) == 67 * 129 * 4 && px_shape_out_bytes(&s) == 129 * 67 * 4 &&
	   px_shape_moved_bytes(&s) == 2 * 67 * 129 * 4, "bytes: in, out, moved (read + written)");
	chk(67, 129, 132, 72, 16, &s);
	ok(px_shape_in_bytes(&s) == 67 * 132 * 2 && px_shape_out_bytes(&s) == 129 * 72 * 2, "bytes with padding");
	ok(chk(0, 5, 0, 0, 32, NULL) == PX_EUSAGE, "rows 0 refused");
	is_str(err, "rows 0 is out of range (1 to 2147483647)", "... the reason");
	ok(chk(5, 2147483648ull, 0, 0, 32, NULL) == PX_EUSAGE, "cols 2^31 refused");
	ok(chk(5, 2147483647ull, 0, 0, 8, NULL) == PX_OK, "cols 2^31-1 accepted");
	ok(chk(4, 40, 39, 0, 32, NULL) == PX_EUSAGE, "ld_in < cols refused");
	is_str(err, "ld-in 39 is less than cols 40 (an input row holds cols elements)", "... naming ld-in");
	ok(chk(40, 4, 0, 39, 32, NULL) == PX_EUSAGE, "ld_out < rows refused");
	has_str(err, "ld-out 39 is less than rows 40", "... naming ld-out");
	ok(chk(4, 4, 0, 0, 24, NULL) == PX_EUSAGE, "elem 24 refused");
	ok(chk(2147483647, 2147483647, 0, 0, 128, NULL) == PX_EUSAGE, "2^31-1 squared of 16 bytes refused");
	is_str(err, "too large: the input needs 2147483647 x 2147483647 x 16 bytes, more than a buffer can hold",
	       "... as too large, never wrapped around");
	ok(chk(2147483647, 1, 0, 0, 128, NULL) == PX_OK, "a tall 2^31-1 x 1 fits the arithmetic");
	ok(chk(1, 1, 2147483647, 2147483647, 128, NULL) == PX_OK, "... so does a wide leading dimension");
	ok(px_host_fits(1 << 20, "x", err, sizeof err) == PX_OK, "1 MiB of host memory can be had");
	ok(px_host_fits(UINT64_C(1) << 62, "the buffers", err, sizeof err) == PX_EUSAGE, "4 EiB cannot");
	has_str(err, "too large: the buffers: 4.00 EiB of host memory needed, this machine has", "... and says so");
}

static void test_names(void)
{
	char b[96];
	px_shape s = {67, 129, 0, 0, 32, 0};
	is_str(px_shape_name(&s, b, sizeof b), "67x129", "name without padding");
	s.ld_in = 129, s.ld_out = 72;
	is_str(px_shape_name(&s, b, sizeof b), "67x129 ld_out=72", "a default ld is not shown");
	s.ld_in = 132;
	is_str(px_shape_name(&s, b, sizeof b), "67x129 ld_in=132 ld_out=72", "both shown");
	is_str(px_bytes_str(1023, b, sizeof b), "1023 B", "bytes");
	is_str(px_bytes_str(4096, b, sizeof b), "4.00 KiB", "KiB");
	is_str(px_bytes_str(UINT64_C(80) << 30, b, sizeof b), "80.0 GiB", "GiB");
}

static void test_parse(void)
{
	px_shape s;
	ok(px_shape_parse("67x129:ld_in=132:ld_out=72:elem=64", &s, err, sizeof err) == PX_OK && s.rows == 67 &&
	   s.cols == 129 && s.ld_in == 132 && s.ld_out == 72 && s.elem_bits == 64, "parse all the keys");
	ok(px_shape_parse("3x4:ld-in=9", &s, err, sizeof err) == PX_OK && s.ld_in == 9 && !s.elem_bits,
	   "ld-in spelt like the flag; no elem means any");
	static const char *const bad[] = {"x4", "3x", "3x4:", "3x4:foo=1", "3x4:elem=24", "0x4", "3x4 ", "3x2147483648",
					  "3x4:ld_in=", "-3x4"};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		ok(px_shape_parse(bad[k], &s, err, sizeof err) == PX_EUSAGE, "'%s' refused", bad[k]);
		has_str(err, "bad shape '", "... quoting it");
	}
	ok(px_shape_parse("3x8:ld_in=7", &s, err, sizeof err) == PX_EUSAGE, "ld_in < cols in a list entry");
	is_str(err, "shape '3x8:ld_in=7': ld-in 7 is less than cols 8 (an input row holds cols elements)", "... named");
	px_shape *v;
	size_t n;
	ok(px_shape_list("1x1,2x3:elem=8,4x5", &v, &n, err, sizeof err) == PX_OK && n == 3 && v[1].cols == 3 &&
	   v[1].elem_bits == 8 && v[2].rows == 4, "a list of three");
	free(v);
	ok(px_shape_list("1x1,2y3", &v, &n, err, sizeof err) == PX_EUSAGE && !v, "one bad entry spoils the list");
	ok(px_shape_list("", &v, &n, err, sizeof err) == PX_EUSAGE, "an empty list is refused");
}

static void test_status(void)
{
	ok(px_status_exit(PX_OK) == 0 && px_status_exit(PX_WRONG) == 1 && px_status_exit(PX_EUSAGE) == 2 &&
	   px_status_exit(PX_EINPUT) == 3 && px_status_exit(PX_ENODRIVER) == 4 && px_status_exit(PX_ENODEVICE) == 4 &&
	   px_status_exit(PX_ECUDA) == 5 && px_status_exit(PX_EJIT) == 5 && px_status_exit(PX_ENOMEM) == 5,
	   "statuses map to docs/DESIGN.md's exit codes");
	is_str(px_status_name(PX_EJIT), "PX_EJIT", "status names");
	is_str(px_status_name((px_status)99), "PX_?", "... even for nonsense");
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_file(void)
{
	char dir[] = "/tmp/shape_unit.XXXXXX", path[64];
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/k.ptx", dir);
	const char *head = "// ptxpose kernel=k elem=16 grid=tile tile=32x64 block=32x8\n// a comment: .entry nope\n";
	char text[512];
	px_file f;
	snprintf(text, sizeof text, "%s.visible .entry k(\n\t.param .u64 a\n)\n.reqntid 32, 8\n{\n}\n", head);
	write_file(path, text);
	ok(px_file_load(&f, path, err, sizeof err) == PX_OK && f.meta.elem_bits == 16, "a consistent file loads");
	px_file_free(&f);
	snprintf(text, sizeof text, "%s.visible .entry kk(\n)\n{\n}\n", head);
	write_file(path, text);
	ok(px_file_load(&f, path, err, sizeof err) == PX_EINPUT, "kernel= without its .entry: PX_EINPUT");
	has_str(err, "k.ptx: metadata says kernel=k but the .entry is kk", "... naming both");
	snprintf(text, sizeof text, "%s.entry k(\n)\n.reqntid 32, 4, 1\n{\n}\n", head);
	write_file(path, text);
	ok(px_file_load(&f, path, err, sizeof err) == PX_EINPUT, ".reqntid that is not block=: PX_EINPUT");
	has_str(err, "block=32x8x1 but the PTX has .reqntid 32, 4, 1", "... naming both");
	write_file(path, ".entry k()\n{\n}\n");
	ok(px_file_load(&f, path, err, sizeof err) == PX_EINPUT, "no metadata: PX_EINPUT");
	has_str(err, "no ptxpose metadata", "... said so");
	unlink(path);
	ok(px_file_load(&f, path, err, sizeof err) == PX_EINPUT, "no file: PX_EINPUT");
	has_str(err, "k.ptx: cannot read: No such file or directory", "... naming it");
	rmdir(dir);

	px_meta m;
	meta_parse("// ptxpose kernel=k elem=32 grid=tile tile=8x32 block=32x8\n", &m, err, sizeof err);
	px_shape s = {524280, 4, 0, 0, 32, 0};
	ok(px_launch_check(&m, &s, err, sizeof err) == PX_OK, "65535 tile rows fit the grid");
	s.rows = 524281;
	ok(px_launch_check(&m, &s, err, sizeof err) == PX_EUSAGE, "65536 do not");
	has_str(err, "exceeds the launch limit", "... said so");
}

static void test_report(void)
{
	px_report_head h = {.device = "Dev", .sm_count = 8, .driver = "13.0", .date = "2026-01-02 03:04:05 UTC",
			    .commit = "abc1234", .time = {.method = PX_TIME_EVENTS, .iters = 100, .warmup = 10, .flush_l2 = 1}};
	px_row rows[3] = {
		{.variant = "copy", .shape = {64, 32, 0, 0, 32}, .us = 2, .gbps = 16.384, .pct_copy = 100, .timing = "events"},
		{.variant = "k", .shape = {64, 32, 0, 72, 32}, .us = 4, .gbps = 8.192, .pct_copy = 50, .timing = "events"},
		{.variant = "bad", .shape = {64, 32, 0, 0, 32}, .state = PX_ROW_FAIL, .note = "out[j=1][i=2]: a, b"},
	};
	strbuf sb;
	sb_init(&sb);
	px_report_md(&sb, &h, rows, 3);
	has_str(sb_str(&sb), "- device: Dev, 8 SMs\n- driver: 13.0\n- date: 2026-01-02 03:04:05 UTC\n- commit: abc1234\n",
		"bench.md is headed by device, SMs, driver, date, commit");
	has_str(sb_str(&sb), "- timing: per-call events: median of 100 calls after 10 warm-up, CUDA events around each and a "
			     "wait after it (launch overhead included), L2 emptied before each call; ", "... and the timing method");
	has_str(sb_str(&sb), "| copy | 32 | 64x32 | 2.0 | 16.4 | 100.0% | events |  |\n"
			     "| k | 32 | 64x32 ld_out=72 | 4.0 | 8.2 | 50.0% | events |  |\n"
			     "| bad | 32 | 64x32 | FAIL | | | | out[j=1][i=2]: a, b |\n", "... then one row a result");
	sb_reset(&sb);
	px_report_csv(&sb, &h, rows, 3);
	has_str(sb_str(&sb), "# device: Dev\n# sm_count: 8\n# driver: 13.0\n", "bench.csv is headed the same way");
	has_str(sb_str(&sb), "# timing: per-call events: median of 100 calls", "... the timing method too");
	has_str(sb_str(&sb), "variant,elem,rows,cols,ld_in,ld_out,status,us,gbps,pct_copy,timing,note\n"
			     "copy,32,64,32,32,64,ok,2.000,16.38,100.00,events,\nk,32,64,32,32,72,ok,4.000,8.19,50.00,events,\n"
			     "bad,32,64,32,32,64,FAIL,,,,,\"out[j=1][i=2]: a, b\"\n", "... rows with the default ld spelt out, notes quoted");
	h.time = (px_time_opts){.method = PX_TIME_GRAPH, .iters = 100, .warmup = 10};
	sb_reset(&sb);
	px_report_md(&sb, &h, rows, 1);
	has_str(sb_str(&sb), "- timing: CUDA graph replay of K back-to-back calls, median of 100 replays after 3 warm-up, "
			     "divided by K", "bench.md with graph timing says so");
	sb_free(&sb);
}

int main(void)
{
	test_check();
	test_names();
	test_parse();
	test_status();
	test_file();
	test_report();
	return tap_done();
}
