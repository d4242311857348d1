/* Unit tests for common/fsio.c (the one reader of input files, the
 * all-or-nothing writer) and the escaping of user-given strings in
 * common/strbuf.c. Prints TAP. An alarm turns a read that blocks into a
 * failure instead of a hang. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fsio.h"
#include "common/strbuf.h"
#include "tap.h"

static char dir[] = "/tmp/fsio_unit.XXXXXX";
static char err[512];

static const char *at(const char *name)
{
	static char path[4][128];
	static int k;
	k = (k + 1) % 4;
	snprintf(path[k], sizeof path[k], "%s/%s", dir, name);
	return path[k];
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The contents of a file, or "(none)". */
static const char *get(const char *name)
{
	static char buf[256];
	FILE *f = fopen(at(name), "r");
	if (!f)
		return "(none)";
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Files in dir whose name holds `part` (temporaries, backups). */
static int leftovers(const char *part)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "ls -a %s | grep -c '%s'", dir, part);
	FILE *p = popen(cmd, "r");
	int n = -1;
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static void test_read(void)
{
	size_t len = 0;
	put("a.txt", "hello\n");
	char *s = fs_read_input(at("a.txt"), FS_INPUT_MAX, &len, err, sizeof err);
	ok(s && len == 6 && !strcmp(s, "hello\n"), "a regular file is read whole");
	free(s);
	ok(!fs_read_input(at("missing"), FS_INPUT_MAX, NULL, err, sizeof err) && errno == ENOENT, "a missing file");
	has_str(err, "missing: cannot read: No such file or directory", "... named, with the reason");
	ok(mkfifo(at("fifo"), 0600) == 0, "mkfifo");
	alarm(5);
	ok(!fs_read_input(at("fifo"), FS_INPUT_MAX, NULL, err, sizeof err), "a FIFO without a writer is refused, not waited on");
	alarm(0);
	has_str(err, "fifo: not a regular file (a FIFO)", "... saying what it is");
	alarm(5);
	ok(!fs_read_input("/dev/zero", FS_INPUT_MAX, NULL, err, sizeof err), "/dev/zero is refused, not read forever");
	alarm(0);
	has_str(err, "/dev/zero: not a regular file (a character device)", "... saying what it is");
	ok(!fs_read_input(dir, FS_INPUT_MAX, NULL, err, sizeof err) && errno == EISDIR, "a directory is refused");
	has_str(err, ": not a regular file (a directory)", "... saying what it is");
	ok(truncate(at("a.txt"), (off_t)FS_INPUT_MAX + 1) == 0, "a sparse file of 64 MiB and a byte");
	ok(!fs_read_input(at("a.txt"), FS_INPUT_MAX, NULL, err, sizeof err) && errno == EFBIG, "more than the limit is refused");
	has_str(err, "a.txt: larger than 64 MiB, the most an input file may hold", "... naming the limit");
	ok(truncate(at("a.txt"), 100) == 0 && !fs_read_input(at("a.txt"), 99, NULL, err, sizeof err), "a limit of 99 bytes");
	has_str(err, "larger than 99 bytes", "... in bytes");
	s = fs_read_input(at("a.txt"), 100, &len, err, sizeof err);
	ok(s && len == 100, "exactly the limit is fine");
	free(s);
	alarm(5);
	ok(!fs_read(at("fifo"), NULL) && errno == EINVAL, "fs_read refuses a FIFO too (EINVAL)");
	alarm(0);
	ok(!fs_is_generated(at("fifo")), "fs_is_generated: a FIFO is not generated, and does not block");
	unlink(at("fifo"));
	unlink(at("a.txt"));
}

static void test_write(void)
{
	put("md", "old md\n");
	put("csv", "old csv\n");
	fs_file two[2] = {{at("md"), "new md\n", 7}, {at("csv"), "new csv\n", 8}};
	ok(fs_write_all(two, 2, NULL) == 0 && !strcmp(get("md"), "new md\n") && !strcmp(get("csv"), "new csv\n"),
	   "both written");
	ok(leftovers(".tmp.") == 0, "... no temporaries left");
	/* the second target cannot be replaced (it is a folder): the first keeps its old contents */
	put("md", "old md\n");
	ok(mkdir(at("csvdir"), 0700) == 0, "a folder where the second file goes");
	size_t bad = 9;
	fs_file clash[2] = {{at("md"), "new md\n", 7}, {at("csvdir"), "new csv\n", 8}};
	ok(fs_write_all(clash, 2, &bad) == -1 && bad == 1, "a rename that fails: -1, naming the second file");
	is_str(get("md"), "old md\n", "... the first file has its old contents back");
	ok(leftovers(".tmp.") == 0, "... no temporaries or backups left");
	/* a first target that did not exist is removed again */
	fs_file fresh[2] = {{at("new"), "x", 1}, {at("csvdir"), "y", 1}};
	ok(fs_write_all(fresh, 2, &bad) == -1 && !strcmp(get("new"), "(none)"), "a file that was not there is not left there");
	/* a second file in a folder that does not exist: nothing is renamed at all */
	fs_file nodir[2] = {{at("md"), "new md\n", 7}, {at("no/such/dir/csv"), "y", 1}};
	ok(fs_write_all(nodir, 2, &bad) == -1 && errno == ENOENT && bad == 1, "a temporary that cannot be made: -1");
	is_str(get("md"), "old md\n", "... the first file untouched");
	ok(leftovers(".tmp.") == 0, "... no temporaries left");
	ok(fs_write_atomic(at("md"), "one\n", 4) == 0 && !strcmp(get("md"), "one\n"), "fs_write_atomic: one file");
	rmdir(at("csvdir"));
	unlink(at("md"));
	unlink(at("csv"));
}

static void test_esc(void)
{
	strbuf sb;
	sb_init(&sb);
	const char *tap = "a\nok 2 - b\r\t\x1b[0m # c|d", *cell = "x # SKIP|y\x7f";
	sb_add_esc(&sb, tap, strlen(tap), NULL);
	is_str(sb_str(&sb), "a\\nok 2 - b\\r\\t\\x1b[0m # c|d", "control characters escaped, one line");
	sb_reset(&sb);
	sb_add_esc(&sb, cell, strlen(cell), "#|");
	is_str(sb_str(&sb), "x \\# SKIP\\|y\\x7f", "... and the characters asked for");
	sb_reset(&sb);
	sb_add_esc(&sb, "a\0b\x01", 4, NULL);
	is_str(sb_str(&sb), "a\\0b\\x01", "... a NUL byte within the length as \\0");
	sb_free(&sb);
}

int main(void)
{
	signal(SIGALRM, SIG_DFL);
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return tap_done();
	}
	test_read();
	test_write();
	test_esc();
	rmdir(dir);
	return tap_done();
}
