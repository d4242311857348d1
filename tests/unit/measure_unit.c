/* Measured plans (PTXPOSE_PLAN_MEASURE) against the fake driver, whose
 * event clock makes timings exact: the model's best kernel made slow
 * ("fakecuda: speed=") loses to a faster candidate; the budget; the
 * on-disk cache of measured plans: a round trip in a second handle, another
 * kernel set missing it, a corrupt, truncated and stale entry noted,
 * measured again and rewritten, the cache switched off two ways, and a
 * folder that cannot be made. Also: the built-in kernels' hashes, written
 * by configure.py, are cache_hash of their texts. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "include/ptxpose.h"
#include "lib/api.h"
#include "common/cache.h"
#include "lib/kreg.h"
#include "tests/unit/api_harness.h"
#include "tests/unit/tap.h"

static char notes[8192];

static void on_log(void *user, unsigned kind, const char *text)
{
	size_t n = strlen(notes);
	snprintf(notes + n, sizeof notes - n, "%s\n", text);
}

static char dir[256], slow_ptx[1 << 17], slow_name[64], slow_entry[512];
static size_t slow_len;

/* A handle with the notes logged, and (slow) the model's best kernel replaced
 * by a slow copy of itself. */
static ptxpose_handle handle(int slow, unsigned flags)
{
	ptxpose_handle h = NULL;
	if (ptxpose_create(&h, flags))
		return NULL;
	ptxpose_set_log(h, on_log, NULL, PTXPOSE_LOG_NOTE);
	if (slow && ptxpose_register_ptx(h, slow_ptx, slow_len, NULL)) {
		ptxpose_destroy(h);
		return NULL;
	}
	return h;
}

static ptxpose_desc problem(void)
{
	ptxpose_desc d = PTXPOSE_DESC_INIT;
	d.elem_bytes = 4;
	d.rows = 300;
	d.cols = 301;
	d.mode = PTXPOSE_PLAN_MEASURE;
	return d;
}

/* A measured plan of the problem in a fresh handle: its info and report. */
static int measured(int slow, unsigned flags, const ptxpose_desc *d, ptxpose_plan_info *info, api_report *rep)
{
	ptxpose_handle h = handle(slow, flags);
	ptxpose_plan p = NULL;
	notes[0] = '\0';
	memset(info, 0, sizeof *info);
	int rc = !h || ptxpose_plan_create(h, &p, d) || ptxpose_plan_get(p, info);
	if (rc)
		printf("# %s\n", ptxpose_last_error());
	const api_report *r = p ? ptxpose_tool_plan_report(p) : NULL;
	if (rep && r) {
		*rep = *r;
		rep->c = malloc((size_t)r->n * sizeof *r->c);
		memcpy(rep->c, r->c, (size_t)r->n * sizeof *r->c);
	}
	info->kernel = info->kernel ? strdup(info->kernel) : NULL; /* outlives the handle */
	if (h)
		ptxpose_destroy(h);
	return rc ? -1 : 0;
}

/* The only plan entry in dir. */
static void entry(char *out, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	out[0] = '\0';
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, "plan-", 5) && !strstr(e->d_name, ".tmp"))
			snprintf(out, n, "%.200s/%.50s", dir, e->d_name);
	if (d)
		closedir(d);
}

static long file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) ? -1 : (long)st.st_size;
}

static void builtin_hashes(void)
{
	size_t bad = 0;
	for (size_t i = 0; i < kreg_nbuiltins; i++)
		bad += kreg_builtins[i].hash != cache_hash(CACHE_HASH_INIT, kreg_builtins[i].ptx, kreg_builtins[i].len);
	ok(kreg_nbuiltins > 10 && !bad, "the %zu built-in kernels' hashes (configure.py) are cache_hash of their texts",
	   kreg_nbuiltins);
}

/* The slow kernel: the heuristic's choice for the problem, at 300 GB/s. */
static int make_slow(void)
{
	ptxpose_handle h = handle(0, PTXPOSE_NO_CACHE);
	ptxpose_desc d = problem();
	d.mode = PTXPOSE_PLAN_HEURISTIC;
	ptxpose_plan p;
	ptxpose_plan_info info;
	ptxpose_kernel_info k;
	int rc = !h || ptxpose_plan_create(h, &p, &d) || ptxpose_plan_get(p, &info) ||
		 ptxpose_kernel_get(h, info.kernel_index, &k);
	if (!rc) {
		snprintf(slow_name, sizeof slow_name, "%s", k.name);
		slow_len = (size_t)snprintf(slow_ptx, sizeof slow_ptx, "%s\n// fakecuda: speed=300\n", k.ptx);
		rc = slow_len >= sizeof slow_ptx;
	}
	if (h)
		ptxpose_destroy(h);
	return rc;
}

static void round_trip(void)
{
	ptxpose_desc d = problem();
	ptxpose_plan_info a, b, c;
	api_report r = {0};
	int got = !measured(1, 0, &d, &a, &r);
	ok(got, "a measured plan");
	ok(a.kernel && strcmp(a.kernel, slow_name) && a.timed >= 2 && a.measured_us > 0 && a.measure_ms > 0 &&
	   !a.from_cache, "... not the model's choice %s made slow, but %s: %.2f us, %d timed in %.2f ms", slow_name,
	   a.kernel, a.measured_us, a.timed, a.measure_ms);
	int least = r.n > 1;
	for (int i = 0; i < r.n; i++)
		least &= r.c[i].measured_us < 0 || r.c[i].measured_us >= r.c[r.best].measured_us;
	ok(least && a.kernel && !strcmp(r.c[r.best].kernel, a.kernel) && !strcmp(r.c[0].kernel, slow_name),
	   "... the report: the model's first was %s, the winner's time the least of %d", r.n ? r.c[0].kernel : "-", r.n);
	free(r.c);
	entry(slow_entry, sizeof slow_entry);
	ok(slow_entry[0] != '\0', "... kept in the cache folder");
	got = !measured(1, 0, &d, &b, NULL);
	ok(got && b.from_cache && !strcmp(b.kernel, a.kernel) && b.measure_ms == 0 && b.measured_us == a.measured_us &&
	   b.timed == a.timed, "a second handle: from the cache (%s), no timing", b.kernel);
	ok(!measured(0, 0, &d, &c, NULL) && !c.from_cache && c.timed > 0,
	   "another kernel set (the model's kernel not slowed): not that entry, measured");
	char path[512];
	DIR *dd = opendir(dir);
	struct dirent *e;
	int n = 0;
	while (dd && (e = readdir(dd))) /* that set's entry goes: the tests below look at the first */
		if (!strncmp(e->d_name, "plan-", 5) && (snprintf(path, sizeof path, "%.200s/%.50s", dir, e->d_name), 1) &&
		    strcmp(path, slow_entry) && !unlink(path))
			n++;
	if (dd)
		closedir(dd);
	ok(n == 1, "... an entry of its own");
	free((void *)a.kernel), free((void *)b.kernel), free((void *)c.kernel);
}

/* The entry rewritten as f says, then a handle notes it, measures, rewrites. */
static void bad_entry(const char *what, const char *note, void (*f)(const char *path))
{
	ptxpose_desc d = problem();
	ptxpose_plan_info a, b;
	ok(!measured(1, 0, &d, &a, NULL) && a.from_cache, "%s: from the cache before", what);
	f(slow_entry);
	free((void *)a.kernel);
	ok(!measured(1, 0, &d, &a, NULL) && !a.from_cache && a.timed > 0, "%s: measured again", what);
	has_str(notes, note, "... with a note through the log callback");
	ok(!measured(1, 0, &d, &b, NULL) && b.from_cache, "... and rewritten: the next plan takes it");
	free((void *)a.kernel), free((void *)b.kernel);
}

static void flip(const char *path)
{
	int fd = open(path, O_RDWR);
	unsigned char c;
	long at = file_size(path) - 3;
	if (fd < 0 || pread(fd, &c, 1, at) != 1)
		return;
	c ^= 0x20;
	if (pwrite(fd, &c, 1, at) != 1)
		perror(path);
	close(fd);
}

static void cut(const char *path)
{
	if (truncate(path, 20))
		perror(path);
}

/* A whole entry, checksum and all, whose winner this handle lacks. */
static void stale(const char *path)
{
	unsigned char buf[4096];
	int fd = open(path, O_RDWR);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf);
	if (n < 32)
		return;
	size_t kl = buf[12] | buf[13] << 8;
	const char blob[] = "ptxpose measured plan 1\nbudget_ms 200\nspent_ms 1\ncand nosuch_b32 1 0.5 5 1\n";
	size_t bl = sizeof blob - 1;
	memcpy(buf + 32 + kl, blob, bl);
	for (int i = 0; i < 8; i++)
		buf[16 + i] = (unsigned char)((uint64_t)bl >> (8 * i));
	uint64_t h = cache_hash(cache_hash(cache_hash(CACHE_HASH_INIT, buf, 24), buf + 32, kl), blob, bl);
	for (int i = 0; i < 8; i++)
		buf[24 + i] = (unsigned char)(h >> (8 * i));
	if (ftruncate(fd, 0) || pwrite(fd, buf, 32 + kl + bl, 0) != (ssize_t)(32 + kl + bl))
		perror(path);
	close(fd);
}

static void budget_and_modes(void)
{
	ptxpose_desc d = problem();
	d.measure_budget_ms = 1e-9;
	ptxpose_plan_info a;
	api_report r = {0};
	int got = !measured(1, PTXPOSE_NO_CACHE, &d, &a, &r);
	ok(got && a.timed == 1 && !strcmp(a.kernel, slow_name) && r.n > 1 && !strcmp(r.c[1].skipped, "the budget was spent"),
	   "a budget spent at once: the model's first alone is timed (%s)", a.kernel ? a.kernel : "-");
	free(r.c), free((void *)a.kernel);
	d = problem();
	d.rows = 1;
	got = !measured(1, 0, &d, &a, NULL);
	ok(got && !strcmp(a.kernel, PTXPOSE_COPY) && !a.timed, "a copy's shape: a copy, not measured");
	free((void *)a.kernel);
	d = problem();
	d.measure_budget_ms = -1;
	ok(measured(1, 0, &d, &a, NULL) && strstr(ptxpose_last_error(), "measure_budget_ms -1"), "a negative budget: refused");
	free((void *)a.kernel);
}

static void off(void)
{
	ptxpose_desc d = problem();
	ptxpose_plan_info a, b;
	char path[512];
	setenv("PTXPOSE_CACHE", "off", 1);
	ok(!measured(1, 0, &d, &a, NULL) && !measured(1, 0, &d, &b, NULL) && !a.from_cache && !b.from_cache,
	   "PTXPOSE_CACHE=off: measured each time");
	free((void *)a.kernel), free((void *)b.kernel);
	setenv("PTXPOSE_CACHE", dir, 1);
	entry(path, sizeof path);
	unlink(path);
	ok(!measured(1, PTXPOSE_NO_CACHE, &d, &a, NULL) && !measured(1, PTXPOSE_NO_CACHE, &d, &b, NULL) &&
	   !a.from_cache && !b.from_cache, "PTXPOSE_NO_CACHE: measured each time");
	entry(path, sizeof path);
	ok(!path[0], "... and nothing written");
	free((void *)a.kernel), free((void *)b.kernel);
	char file[300];
	snprintf(file, sizeof file, "%s/plain", dir);
	close(open(file, O_WRONLY | O_CREAT, 0644));
	snprintf(file, sizeof file, "%s/plain/sub", dir);
	setenv("PTXPOSE_CACHE", file, 1);
	ok(!measured(1, 0, &d, &a, NULL) && !a.from_cache && a.timed > 0, "a cache folder that cannot be made: planned");
	has_str(notes, "cannot make the folder", "... with one note");
	free((void *)a.kernel);
	setenv("PTXPOSE_CACHE", dir, 1);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	setenv("PTXPOSE_LIBCUDA", API_FAKE_DRIVER, 0);
	snprintf(dir, sizeof dir, "%s/ptxpose-measure-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!ok(mkdtemp(dir) != NULL, "a cache folder"))
		return tap_done();
	setenv("PTXPOSE_CACHE", dir, 1);
	builtin_hashes();
	if (!ok(!make_slow(), "the model's choice, made slow: %s", slow_name))
		return tap_done();
	round_trip();
	bad_entry("a corrupt entry", "ignored: corrupt (checksum); the next write replaces it", flip);
	bad_entry("a truncated entry", "ignored: truncated (20 bytes", cut);
	bad_entry("a stale entry", "stale: its kernel nosuch_b32 is not one of this handle's", stale);
	budget_and_modes();
	off();
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
	return tap_done();
}
