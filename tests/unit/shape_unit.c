/* Unit tests for shapes and their validation (rig/shape.c), the status
 * table (status.c), PTX file checks (pxfile.c), launch limits (rig/op.c)
 * and the bench tables (rig/rig_report.c). Prints TAP. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader/pxfile.h"
#include "rig/rig.h"
#include "tests/unit/shape_harness.h"
#include "rig/rig_report.h"
#include "tap.h"

static char err[512];

/* The status of checking shape s, with err holding the reason; the
 * checked shape in *out. */
static px_status chk_shape(rig_shape s, rig_shape *out)
{
	err[0] = '\0';
	px_status st = rig_shape_check(&s, err, sizeof err);
	if (out)
		*out = s;
	return st;
}

static px_status chk(uint64_t rows, uint64_t cols, uint64_t ld_in, uint64_t ld_out, unsigned bits, rig_shape *out)
{
	return chk_shape((rig_shape)shape_of(rows, cols, ld_in, ld_out, bits, 0, 1, 0, 0), out);
}

static void test_check(void)
{
	rig_shape s;
	ok(chk(67, 129, 0, 0, 32, &s) == PX_OK && s.p.ld_in == 129 && s.p.ld_out == 67, "default leading dimensions: cols, rows");
	ok(rig_shape_in_bytes(&s) == 67 * 129 * 4 && rig_shape_out_bytes(&s) == 129 * 67 * 4 &&
	   rig_shape_moved_bytes(&s) == 2 * 67 * 129 * 4, "bytes: in, out, moved (read + written)");
	chk(67, 129, 132, 72, 16, &s);
	ok(rig_shape_in_bytes(&s) == (66 * 132 + 129) * 2 && rig_shape_out_bytes(&s) == (128 * 72 + 67) * 2,
	   "bytes with padding: up to the last element (the last row's padding is no part of the buffer)");
	ok(chk(0, 5, 0, 0, 32, NULL) == PX_EUSAGE, "rows 0 refused");
	is_str(err, "rows 0 is out of range (1 to 2147483647)", "... the reason");
	ok(chk(5, 2147483648ull, 0, 0, 32, NULL) == PX_EUSAGE, "cols 2^31 refused");
	ok(chk(5, 2147483647ull, 0, 0, 8, NULL) == PX_OK, "cols 2^31-1 accepted");
	ok(chk(4, 40, 39, 0, 32, NULL) == PX_EUSAGE, "ld_in < cols refused");
	is_str(err, "ld_in 39 is less than cols 40 (an input row holds cols elements)", "... naming ld-in");
	ok(chk(40, 4, 0, 39, 32, NULL) == PX_EUSAGE, "ld_out < rows refused");
	has_str(err, "ld_out 39 is less than rows 40", "... naming ld-out");
	ok(chk(4, 4, 0, 0, 24, NULL) == PX_EUSAGE, "elem 24 refused");
	ok(chk(2147483647, 2147483647, 0, 0, 128, NULL) == PX_EUSAGE, "2^31-1 squared of 16 bytes refused");
	is_str(err, "too large: the input needs 2147483647 x 2147483647 x 16 bytes, more than a buffer can hold",
	       "... as too large, never wrapped around");
	ok(chk(2147483647, 1, 0, 0, 128, NULL) == PX_OK, "a tall 2^31-1 x 1 fits the arithmetic");
	ok(chk(1, 1, 2147483647, 2147483647, 128, NULL) == PX_OK, "... so does a wide leading dimension");
	ok(rig_host_fits(1 << 20, "x", err, sizeof err) == PX_OK, "1 MiB of host memory can be had");
	ok(rig_host_fits(UINT64_C(1) << 62, "the buffers", err, sizeof err) == PX_EUSAGE, "4 EiB cannot");
	has_str(err, "too large: the buffers: 4.00 EiB of host memory needed, more than half of the ", "... and says so");
}

/* A batch: the count, strides that hold their matrix, byte sizes. */
static px_status chk_batch(uint64_t rows, uint64_t cols, uint64_t batch, uint64_t sin, uint64_t sout, unsigned bits,
			   rig_shape *out)
{
	return chk_shape((rig_shape)shape_of(rows, cols, 0, 0, bits, 0, batch, sin, sout), out);
}

static void test_batch(void)
{
	rig_shape s;
	ok(chk_batch(33, 31, 3, 0, 0, 32, &s) == PX_OK && s.p.stride_in == 33 * 31 && s.p.stride_out == 31 * 33,
	   "a batch without strides: packed matrices");
	ok(rig_shape_in_bytes(&s) == 3 * 33 * 31 * 4 && rig_shape_moved_bytes(&s) == 2 * 3 * 33 * 31 * 4,
	   "... in bytes and moved bytes count every matrix");
	ok(chk_batch(33, 31, 3, 1100, 1200, 16, &s) == PX_OK &&
	   rig_shape_in_bytes(&s) == (2 * 1100 + 33 * 31) * 2 && rig_shape_out_bytes(&s) == (2 * 1200 + 31 * 33) * 2,
	   "strides larger than the matrix: two strides and the last matrix");
	ok(chk_batch(33, 31, 3, 32 * 31 + 31, 30 * 33 + 33, 32, &s) == PX_OK,
	   "the smallest strides: the last row's padding overlaps the next matrix");
	ok(chk_batch(33, 31, 0, 0, 0, 32, NULL) == PX_EUSAGE, "batch 0 refused");
	is_str(err, "batch 0 is out of range (1 to 2147483647)", "... naming it");
	ok(chk_batch(3, 3, 2147483648ull, 0, 0, 32, NULL) == PX_EUSAGE, "batch 2^31 refused");
	ok(chk_batch(33, 31, 3, 1022, 0, 32, NULL) == PX_EUSAGE, "stride-in one short of the matrix refused");
	is_str(err, "stride_in 1022 is less than the input matrix it must hold ((rows-1)*ld_in + cols = 1023 elements)",
	       "... naming the stride and what it must hold");
	ok(chk_batch(33, 31, 3, 0, 30 * 33 + 32, 32, NULL) == PX_EUSAGE, "stride-out one short refused");
	has_str(err, "stride_out 1022 is less than the output matrix it must hold", "... naming it");
	ok(chk_batch(33, 31, 1, 5, 5, 32, &s) == PX_OK && rig_shape_in_bytes(&s) == 33 * 31 * 4,
	   "a batch of one ignores its strides");
	ok(chk_batch(3, 3, 3, UINT64_C(1) << 62, 0, 128, NULL) == PX_EUSAGE, "strides whose bytes overflow refused");
	is_str(err, "too large: stride_in 4611686018427387904: the input's 3 matrices need more than a buffer can hold"
		    " (2^63 bytes)", "... naming the stride");
	ok(chk_batch(3, 3, 2, 0, UINT64_C(1) << 59, 128, NULL) == PX_EUSAGE, "... the output's too (2^63 bytes and more)");
	has_str(err, "too large: stride_out 576460752303423488: the output's 2 matrices", "... naming it");
	ok(chk_batch(3, 3, 2, 0, (UINT64_C(1) << 59) - 32, 128, NULL) == PX_OK, "... just under 2^63 bytes fits");
	ok(chk_batch(2147483647, 1, 2147483647, 0, 0, 8, NULL) == PX_OK, "2^31-1 matrices of 2^31-1 x 1 bytes: 2^62 bytes");
}

static void test_names(void)
{
	char b[96];
	rig_shape s = shape_of(67, 129, 0, 0, 32, 0, 1, 0, 0);
	is_str(rig_shape_name(&s, b, sizeof b), "67x129", "name without padding");
	s.p.ld_in = 129, s.p.ld_out = 72;
	is_str(rig_shape_name(&s, b, sizeof b), "67x129 ld_out=72", "a default ld is not shown");
	s.p.ld_in = 132;
	is_str(rig_shape_name(&s, b, sizeof b), "67x129 ld_in=132 ld_out=72", "both shown");
	s.p.stride_in = 5;
	is_str(rig_shape_name(&s, b, sizeof b), "67x129 ld_in=132 ld_out=72", "a stride is not shown for a batch of one");
	s.p.batch = 3, s.p.stride_in = 67 * 132, s.p.stride_out = 9300;
	is_str(rig_shape_name(&s, b, sizeof b), "67x129 ld_in=132 ld_out=72 batch=3 stride_out=9300",
	       "a batch, and the stride that is not packed");
	is_str(px_bytes_str(1023, b, sizeof b), "1023 B", "bytes");
	is_str(px_bytes_str(4096, b, sizeof b), "4.00 KiB", "KiB");
	is_str(px_bytes_str(UINT64_C(80) << 30, b, sizeof b), "80.0 GiB", "GiB");
}

static void test_parse(void)
{
	rig_shape s;
	ok(rig_shape_parse("67x129:ld_in=132:ld_out=72:elem=64", &s, err, sizeof err) == PX_OK && s.p.rows == 67 &&
	   s.p.cols == 129 && s.p.ld_in == 132 && s.p.ld_out == 72 && rig_shape_elem_bits(&s) == 64, "parse all the keys");
	ok(rig_shape_parse("3x4:ld-in=9", &s, err, sizeof err) == PX_OK && s.p.ld_in == 9 && !s.p.elem_bytes,
	   "ld-in spelt like the flag; no elem means any");
	static const char *const bad[] = {"x4", "3x", "3x4:", "3x4:foo=1", "3x4:elem=24", "0x4", "3x4 ", "3x2147483648",
					  "3x4:ld_in=", "-3x4"};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		ok(rig_shape_parse(bad[k], &s, err, sizeof err) == PX_EUSAGE, "'%s' refused", bad[k]);
		has_str(err, "bad shape '", "... quoting it");
	}
	ok(rig_shape_parse("3x8:ld_in=7", &s, err, sizeof err) == PX_EUSAGE, "ld_in < cols in a list entry");
	is_str(err, "shape '3x8:ld_in=7': ld_in 7 is less than cols 8 (an input row holds cols elements)", "... named");
	rig_shape *v;
	size_t n;
	ok(rig_shape_list("1x1,2x3:elem=8,4x5", &v, &n, err, sizeof err) == PX_OK && n == 3 && v[1].p.cols == 3 &&
	   rig_shape_elem_bits(&v[1]) == 8 && v[2].p.rows == 4, "a list of three");
	free(v);
	/* elem= as bits, bytes with a unit or a type name (common/elem.h) */
	static const struct {
		const char *text;
		unsigned bits;
	} widths[] = {
		{"3x4:elem=4B:ld_in=5", 32}, {"3x4:elem=f32", 32}, {"3x4:elem=BF16:ld_in=5", 16}, {"3x4:elem=c128", 128},
		{"3x4:elem=1B", 8}, {"3x4:elem=e4m3", 8}, {"3x4:elem=c64", 64}, {"3x4:elem=032", 32},
	};
	for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++)
		ok(rig_shape_parse(widths[k].text, &s, err, sizeof err) == PX_OK && rig_shape_elem_bits(&s) == widths[k].bits &&
		   s.p.rows == 3 && s.p.cols == 4, "'%s' is %u bits", widths[k].text, widths[k].bits);
	static const char *const nonwidths[] = {"3x4:elem=3B", "3x4:elem=32B", "3x4:elem=4b", "3x4:elem=f24",
						"3x4:elem=", "3x4:elem=B", "3x4:elem=f32x"};
	for (size_t k = 0; k < sizeof nonwidths / sizeof nonwidths[0]; k++) {
		ok(rig_shape_parse(nonwidths[k], &s, err, sizeof err) == PX_EUSAGE, "'%s' refused", nonwidths[k]);
		has_str(err, "is not an element width: give bits (8, 16, 32, 64, 128), bytes", "... saying what is");
	}
	ok(rig_shape_list("1x1,2y3", &v, &n, err, sizeof err) == PX_EUSAGE && !v, "one bad entry spoils the list");
	ok(rig_shape_list("", &v, &n, err, sizeof err) == PX_EUSAGE, "an empty list is refused");
	ok(rig_shape_parse("33x31:batch=3:stride_in=1100:stride-out=1200", &s, err, sizeof err) == PX_OK && s.p.batch == 3 &&
	   s.p.stride_in == 1100 && s.p.stride_out == 1200, "batch and strides, both spellings");
	ok(rig_shape_parse("3x4", &s, err, sizeof err) == PX_OK && s.p.batch == 1 && !s.p.stride_in,
	   "no batch= means one matrix");
	ok(rig_shape_parse("3x3:batch=0", &s, err, sizeof err) == PX_EUSAGE, "batch=0 in a list entry refused");
	is_str(err, "bad shape '3x3:batch=0': batch 0 is out of range (1 to 2147483647)", "... naming it");
	ok(rig_shape_parse("33x31:batch=2:stride_in=1000", &s, err, sizeof err) == PX_EUSAGE,
	   "a stride shorter than its matrix refused while parsing");
	has_str(err, "shape '33x31:batch=2:stride_in=1000': stride_in 1000 is less than", "... naming it");
	ok(rig_shape_parse("3x3:batch=2:stride_in=9223372036854775808", &s, err, sizeof err) == PX_EUSAGE,
	   "a stride past 2^63-1 refused");
	rig_shape one = shape_of(33, 31, 0, 0, 0, 0, 2, 0, 5);
	ok(rig_shape_select("1x1", &one, &v, &n, err, sizeof err) == PX_EUSAGE && !v,
	   "--rows/--cols with a short --stride-out: refused before any shape runs");
	has_str(err, "stride_out 5 is less than", "... naming it");
}

/* Entries without an x, keys given twice, numbers past 2^32 and 2^64,
 * empty entries. Lists are copied to the heap first, so
 * the ASan build sees a read past an entry's end. */
static void test_parse_bad(void)
{
	rig_shape *v = NULL;
	size_t n = 0;
	ok(rig_shape_list("5", &v, &n, err, sizeof err) == PX_EUSAGE && !v, "'5' (no x) is refused, never read past");
	has_str(err, "bad shape '5': expected ROWSxCOLS", "... naming the entry");
	ok(rig_shape_list("5,6", &v, &n, err, sizeof err) == PX_EUSAGE && !v, "'5,6' is refused, not read as 5x6");
	has_str(err, "bad shape '5': ", "... naming the first entry");
	ok(rig_shape_list("7x8,5", &v, &n, err, sizeof err) == PX_EUSAGE, "'5' at the end of a list too");
	static const struct {
		const char *text, *why;
	} dup[] = {
		{"3x3:ld_in=5:ld_in=6", "bad shape '3x3:ld_in=5:ld_in=6': ld_in given twice"},
		{"3x3:ld_in=5:ld-in=6", "bad shape '3x3:ld_in=5:ld-in=6': ld-in given twice"},
		{"3x3:ld_out=5:ld_out=5", "ld_out given twice"},
		{"3x3:elem=8:elem=16", "elem given twice"},
		{"3x3:offset=1:offset=1", "offset given twice"},
		{"3x3:elem=4294967328", "bad shape '3x3:elem=4294967328': elem '4294967328' is not an element width"},
		{"3x3:elem=18446744073709551648", "elem '18446744073709551648' is not an element width"},
		{"4294967299x3", "rows 4294967299 is out of range (1 to 2147483647)"},
		{"3x3:ld_in=4294967299", "ld_in 4294967299 is out of range (1 to 2147483647)"},
		{"3x3:offset=16", "offset 16 is out of range (0 to 15)"},
		{"3x3:nope=1", "unknown key 'nope'"},
	};
	for (size_t k = 0; k < sizeof dup / sizeof dup[0]; k++) {
		ok(rig_shape_list(dup[k].text, &v, &n, err, sizeof err) == PX_EUSAGE && !v, "'%s' refused", dup[k].text);
		has_str(err, dup[k].why, "... saying why");
	}
	static const char *const empty[] = {"1x1,,2x2", "1x1,", ",1x1"};
	for (size_t k = 0; k < sizeof empty / sizeof empty[0]; k++)
		ok(rig_shape_list(empty[k], &v, &n, err, sizeof err) == PX_EUSAGE && strstr(err, "is empty"),
		   "an empty entry in '%s' is refused", empty[k]);
	rig_shape one = shape_of(5, 10, 4, 0, 0, 0, 1, 0, 0);
	ok(rig_shape_select("1x1", &one, &v, &n, err, sizeof err) == PX_EUSAGE && !v,
	   "one shape (--rows 5 --cols 10 --ld-in 4) is checked when selected");
	is_str(err, "ld_in 4 is less than cols 10 (an input row holds cols elements)", "... naming ld-in");
}

static void test_status(void)
{
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

/* A file of head then body: px_file_load refuses it, saying why. */
static void refused(const char *path, const char *head, const char *body, const char *what, const char *why)
{
	char text[512];
	px_file f;
	snprintf(text, sizeof text, "%s%s", head, body);
	write_file(path, text);
	ok(px_file_load(&f, path, err, sizeof err) == PX_EINPUT, "%s: PX_EINPUT", what);
	has_str(err, why, "... said so");
}

static void test_file(void)
{
	char dir[] = "/tmp/shape_unit.XXXXXX", path[64];
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/k.ptx", dir);
	const char *head = "// ptxpose kernel=k abi=2 elem=16 grid=tile tile=32x64 block=32x8\n// a comment: .entry nope\n";
	char text[512];
	px_file f;
	snprintf(text, sizeof text, "%s.visible .entry k(\n\t.param .u64 a\n)\n.reqntid 32, 8\n{\n}\n", head);
	write_file(path, text);
	ok(px_file_load(&f, path, err, sizeof err) == PX_OK && f.meta.elem_bits == 16, "a consistent file loads");
	px_file_free(&f);
	refused(path, head, ".visible .entry kk(\n)\n{\n}\n", "kernel= without its .entry",
		"k.ptx: metadata says kernel=k but the .entry is kk");
	refused(path, head, ".entry k(\n)\n.reqntid 32, 4, 1\n{\n}\n", ".reqntid that is not block=",
		"block=32x8x1 but the PTX has .reqntid 32, 4, 1");
	const char *h32 = "// ptxpose kernel=k abi=2 elem=32 grid=tile tile=32x32 block=32\n.entry k(\n)\n";
	refused(path, h32, ".reqntid 4294967328\n{\n}\n", ".reqntid 4294967328 is no 32 (block=32)",
		".reqntid needs one to three counts from 1 to 1024, got '4294967328'");
	refused(path, h32, ".reqntid 32, x\n{\n}\n", ".reqntid 32, x is malformed", ".reqntid needs one to three counts");
	FILE *w = fopen(path, "w");
	if (w) {
		fputs(h32, w);
		fputc('\0', w);
		fputs("{\n}\n", w);
		fclose(w);
	}
	ok(px_file_load(&f, path, err, sizeof err) == PX_EINPUT, "a NUL byte: PX_EINPUT");
	has_str(err, "a NUL byte at offset 76: PTX is text", "... naming the offset");
	write_file(path, "// ptxpose kernel=k\x1b[2J elem=32 grid=tile tile=32x32 block=32\n.entry k()\n");
	ok(px_file_load(&f, path, err, sizeof err) == PX_EINPUT, "a control character in the metadata: PX_EINPUT");
	has_str(err, "line 1: metadata token with a control character (0x1b)", "... said so");
	write_file(path, ".entry k()\n{\n}\n");
	ok(px_file_load(&f, path, err, sizeof err) == PX_EINPUT, "no metadata: PX_EINPUT");
	has_str(err, "no ptxpose metadata", "... said so");
	unlink(path);
	ok(px_file_load(&f, path, err, sizeof err) == PX_EINPUT, "no file: PX_EINPUT");
	has_str(err, "k.ptx: cannot read: No such file or directory", "... naming it");
	rmdir(dir);

	px_meta m;
	static const struct {
		const char *name;
		int ident;
	} kernels[] = {{"9k", 0}, {"a-b", 0}, {"%", 0}, {"k.x", 0}, {"_", 0},
		       {"k", 1}, {"_k", 1}, {"$k1", 1}, {"%k", 1}, {"fast_b32", 1}};
	for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
		snprintf(text, sizeof text, "// ptxpose kernel=%s elem=32 grid=tile tile=8x32 block=32x8\n", kernels[k].name);
		int rc = meta_parse(text, &m, err, sizeof err);
		ok(kernels[k].ident ? rc == 0 : rc == -1 && strstr(err, "kernel must be a PTX identifier"),
		   "kernel=%s %s", kernels[k].name, kernels[k].ident ? "is a PTX identifier: accepted" : "is not: refused");
	}
	static const char *const dims[] = {"32xx8", "x32x8", "32x8x", "32x8x1x1", "32x4294967328"};
	for (size_t k = 0; k < sizeof dims / sizeof dims[0]; k++) {
		snprintf(text, sizeof text, "// ptxpose kernel=k elem=32 grid=tile tile=8x32 block=%s\n", dims[k]);
		ok(meta_parse(text, &m, err, sizeof err) == -1, "block=%s is refused", dims[k]);
	}
	ok(meta_parse("// ptxpose kernel=k elem=4294967328 grid=tile tile=8x32 block=32x8\n", &m, err, sizeof err) == -1,
	   "elem=4294967328 is refused");
	has_str(err, "got '4294967328'", "... quoting it, not as 32");
	meta_parse("// ptxpose kernel=k abi=2 elem=32 grid=tile tile=8x32 block=32x8\n", &m, err, sizeof err);
	rig_shape s = shape_of(524281, 4, 0, 0, 32, 0, 70000, 0, 0);
	ok(rig_launch_check(&m, &s, err, sizeof err) == PX_OK, "65536 tile rows and 70000 matrices: a grid");
	s.p.batch = 0;
	ok(rig_launch_check(&m, &s, err, sizeof err) == PX_EUSAGE, "an unchecked batch of 0: the internal assertion");
	has_str(err, "kernel k: no grid for 524281x4 batch 0", "... said so");
}

static void test_report(void)
{
	rig_report_head h = {.device = "Dev", .sm_count = 8, .driver = "13.0", .date = "2026-01-02 03:04:05 UTC",
			    .commit = "abc1234", .time = {.method = RIG_TIME_EVENTS, .iters = 100, .warmup = 10, .flush_l2 = 1}};
	rig_row rows[4] = {
		{.variant = "copy", .shape = shape_of(64, 32, 0, 0, 32, 0, 0, 0, 0), .us = 2, .gbps = 16.384, .pct_copy = 100, .timing = "events"},
		{.variant = "k", .shape = shape_of(64, 32, 0, 72, 32, 0, 0, 0, 0), .us = 4, .gbps = 8.192, .pct_copy = 50, .timing = "events"},
		{.variant = "bad", .shape = shape_of(64, 32, 0, 0, 32, 0, 0, 0, 0), .state = RIG_ROW_FAIL, .note = "out[j=1][i=2]: a, b"},
		{.variant = "b", .shape = shape_of(64, 32, 0, 0, 32, 0, 3, 2100, 0), .us = 4, .gbps = 8.192, .pct_copy = 50, .timing = "events"},
	};
	strbuf sb;
	sb_init(&sb);
	rig_report_md(&sb, &h, rows, 3);
	has_str(sb_str(&sb), "- device: Dev, 8 SMs\n- driver: 13.0\n- date: 2026-01-02 03:04:05 UTC\n- commit: abc1234\n",
		"bench.md is headed by device, SMs, driver, date, commit");
	has_str(sb_str(&sb), "- timing: per-call events: median of 100 calls after 10 warm-up, CUDA events around each and a "
			     "wait after it (launch overhead included), L2 emptied before each call; ", "... and the timing method");
	has_str(sb_str(&sb), "| copy | 32 | 64x32 | 2.0 | 16.4 | 100.0% | events |  |\n"
			     "| k | 32 | 64x32 ld_out=72 | 4.0 | 8.2 | 50.0% | events |  |\n"
			     "| bad | 32 | 64x32 | FAIL | | | | out[j=1][i=2]: a, b |\n", "... then one row a result");
	sb_reset(&sb);
	rig_report_csv(&sb, &h, rows, 4);
	has_str(sb_str(&sb), "# device: Dev\n# sm_count: 8\n# driver: 13.0\n", "bench.csv is headed the same way");
	has_str(sb_str(&sb), "# timing: per-call events: median of 100 calls", "... the timing method too");
	has_str(sb_str(&sb), "variant,elem,rows,cols,ld_in,ld_out,status,us,gbps,pct_copy,timing,note,batch,stride_in,stride_out,permutation\n"
			     "copy,32,64,32,32,64,ok,2.000,16.38,100.00,events,,1,0,0,\nk,32,64,32,32,72,ok,4.000,8.19,50.00,events,,1,0,0,\n"
			     "bad,32,64,32,32,64,FAIL,,,,,\"out[j=1][i=2]: a, b\",1,0,0,\n"
			     "b,32,64,32,32,64,ok,4.000,8.19,50.00,events,,3,2100,0,\n",
		"... rows with the default ld spelt out, notes quoted, a batch's count and strides last");
	/* a note that echoes a file name cannot break a row of the Markdown table */
	rig_row odd = {.variant = "v|w", .shape = shape_of(1, 1, 0, 0, 8, 0, 1, 0, 0), .state = RIG_ROW_ERROR, .note = "x.ptx|\nok: bad"};
	sb_reset(&sb);
	rig_report_md(&sb, &h, &odd, 1);
	has_str(sb_str(&sb), "| v\\|w | 8 | 1x1 | ERROR | | | | x.ptx\\|\\nok: bad |\n", "bench.md escapes '|' and newlines in a row");
	h.time = (rig_time_opts){.method = RIG_TIME_GRAPH, .iters = 100, .warmup = 10};
	sb_reset(&sb);
	rig_report_md(&sb, &h, rows, 1);
	has_str(sb_str(&sb), "- timing: CUDA graph replay of K back-to-back calls, median of 100 replays after 3 warm-up, "
			     "divided by K", "bench.md with graph timing says so");
	sb_free(&sb);
}

int main(void)
{
	test_check();
	test_batch();
	test_names();
	test_parse();
	test_parse_bad();
	test_status();
	test_file();
	test_report();
	return tap_done();
}
