/* Unit tests for the transactional writer (common/fstx.c): name checks,
 * all-or-nothing commits when the k-th write or rename fails (simulated
 * through the fault hook), and a process killed at each step of a commit:
 * the next commit finds the folder all old or all new. Prints TAP. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/fsio.h"
#include "common/fstx.h"
#include "tests/unit/tap.h"

static char root[64];
static strbuf err;

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* "name=bytes,..." for the files of dir in name order, hidden ones too. */
static const char *listing(const char *dir)
{
	static strbuf out;
	char *names[32];
	int n = 0;
	sb_reset(&out);
	DIR *d = opendir(dir);
	if (!d)
		return "(no folder)";
	for (struct dirent *e; (e = readdir(d)) && n < 32;)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], by_name);
	for (int i = 0; i < n; i++) {
		strbuf path;
		sb_init(&path);
		sb_printf(&path, "%s/%s", dir, names[i]);
		char *text = fs_read(sb_str(&path), NULL);
		sb_printf(&out, "%s%s=%s", i ? "," : "", names[i], text ? text : "?");
		free(text);
		free(names[i]);
		sb_free(&path);
	}
	return sb_str(&out);
}

static void put(const char *dir, const char *name, const char *text)
{
	strbuf path;
	sb_init(&path);
	sb_printf(&path, "%s/%s", dir, name);
	fs_write_atomic(sb_str(&path), text, strlen(text));
	sb_free(&path);
}

static void names(void)
{
	struct {
		const char *name;
		size_t len;
		int want;
		const char *msg;
	} cases[] = {
		{"a.ptx", 5, 0, ""},
		{"./a.ptx", 7, 2, ""},
		{"", 0, -1, "'' is not a plain file name: it is empty"},
		{".", 1, -1, "'.' is not a plain file name: it names a folder"},
		{"./..", 4, -1, "'./..' is not a plain file name: it names a folder"},
		{"sub/a.ptx", 9, -1, "'sub/a.ptx' is not a plain file name: it has a '/' (files go in the output folder itself)"},
		{"/tmp/a.ptx", 10, -1, "'/tmp/a.ptx' is not a plain file name: it has a '/' (files go in the output folder itself)"},
		{"././a.ptx", 9, -1, "'././a.ptx' is not a plain file name: it has a '/' (files go in the output folder itself)"},
		{"a\0b.ptx", 7, -1, "'a\\0b.ptx' is not a plain file name: it has a NUL byte"},
		{"a\nb.ptx", 7, -1, "'a\\nb.ptx' is not a plain file name: it has a control character"},
		{"a\x1b[2Jb", 6, -1, "'a\\x1b[2Jb' is not a plain file name: it has a control character"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		sb_reset(&err);
		int got = fstx_name(cases[k].name, cases[k].len, &err);
		ok(got == cases[k].want && !strcmp(sb_str(&err), cases[k].msg), "name %zu: %s", k,
		   *cases[k].msg ? cases[k].msg : "accepted");
		if (got != cases[k].want || strcmp(sb_str(&err), cases[k].msg))
			printf("#   got %d '%s'\n", got, sb_str(&err));
	}
	char longname[FSTX_NAME_MAX + 2];
	memset(longname, 'x', sizeof longname);
	sb_reset(&err);
	ok(fstx_name(longname, FSTX_NAME_MAX, &err) == 0, "a name of %d bytes is accepted", FSTX_NAME_MAX);
	ok(fstx_name(longname, FSTX_NAME_MAX + 1, &err) < 0 && strstr(sb_str(&err), "it is longer than 200 bytes"),
	   "a name of %d bytes is refused", FSTX_NAME_MAX + 1);

	fstx *t = fstx_new("out");
	sb_reset(&err);
	ok(fstx_add(t, "a.ptx", 5, "A", 1, &err) == 0 && fstx_add(t, "b.ptx", 5, "B", 1, &err) == 0,
	   "two files queued");
	ok(fstx_add(t, "./a.ptx", 7, "A2", 2, &err) < 0, "./a.ptx after a.ptx is refused");
	is_str(sb_str(&err), "out/a.ptx is written twice", "... as the same file written twice");
	sb_reset(&err);
	ok(fstx_add(t, "a\nb", 3, "x", 1, &err) < 0 && fstx_count(t) == 2, "a refused name is not queued");
	fstx_free(t);

	t = fstx_new("out");
	int n = 0;
	for (; n <= FSTX_MAX_FILES; n++) {
		char name[32];
		snprintf(name, sizeof name, "f%d", n);
		sb_reset(&err);
		if (fstx_add(t, name, strlen(name), "", 0, &err))
			break;
	}
	ok(n == FSTX_MAX_FILES && !strcmp(sb_str(&err), "more than 4096 files"), "file %d is refused: %s", n + 1,
	   sb_str(&err));
	fstx_free(t);
}

/* Fail the k-th occurrence of `step` with ENOSPC. */
typedef struct {
	const char *step;
	int k, seen;
} fault_at;

static int fault(void *ud, const char *step, const char *path)
{
	fault_at *f = ud;
	(void)path;
	return !strcmp(step, f->step) && ++f->seen == f->k ? ENOSPC : 0;
}

/* A transaction of a.ptx, b.ptx, c.ptx (new bytes) into dir. */
static int commit3(const char *dir, fault_at *f)
{
	fstx *t = fstx_new(dir);
	sb_reset(&err);
	fstx_add(t, "c.ptx", 5, "C2", 2, &err);
	fstx_add(t, "./a.ptx", 7, "A2", 2, &err);
	fstx_add(t, "b.ptx", 5, "B2", 2, &err);
	if (f)
		fstx_set_fault(t, fault, f);
	int rc = fstx_commit(t, &err);
	fstx_free(t);
	return rc;
}

static void commits(void)
{
	char dir[128], want[256];
	snprintf(dir, sizeof dir, "%s/new", root);
	ok(commit3(dir, NULL) == 0, "a commit into a folder that is not there yet (%s)", sb_str(&err));
	is_str(listing(dir), "a.ptx=A2,b.ptx=B2,c.ptx=C2", "... creates it and writes every file, nothing else");

	fstx *t = fstx_new(dir);
	fstx_add(t, "b.ptx", 5, "B2", 2, &err);
	fstx_add(t, "a.ptx", 5, "A3", 2, &err);
	snprintf(want, sizeof want, "%s/a.ptx", dir);
	ok(fstx_commit(t, &err) == 0 && fstx_count(t) == 2 && !strcmp(fstx_path(t, 0), want) && fstx_changed(t, 0) &&
	   !fstx_changed(t, 1), "a second commit: a.ptx changed, b.ptx left alone, in name order");
	fstx_free(t);
	is_str(listing(dir), "a.ptx=A3,b.ptx=B2,c.ptx=C2", "... and the folder holds the new bytes");

	/* the k-th write of a temporary fails, or the k-th rename after all
	 * were written: files renamed before it must get their old bytes back */
	static const char *const steps[] = {"write", "rename"};
	for (int st = 0; st < 2; st++)
		for (int k = 1; k <= 3; k++) {
			snprintf(dir, sizeof dir, "%s/%s%d", root, steps[st], k);
			mkdir(dir, 0755);
			put(dir, "a.ptx", "A1");
			put(dir, "c.ptx", "C1");
			fault_at f = {steps[st], k, 0};
			int rc = commit3(dir, &f);
			snprintf(want, sizeof want, "cannot write %s/%c.ptx: No space left on device", dir, 'a' + k - 1);
			ok(rc < 0 && !strcmp(sb_str(&err), want), "%s %d of 3 fails: %s", steps[st], k, sb_str(&err));
			is_str(listing(dir), "a.ptx=A1,c.ptx=C1",
			       "... and the folder is as it was: the old bytes, no new file, no temporary or copy left");
		}
	snprintf(dir, sizeof dir, "%s/gone", root);
	fault_at f = {"write", 2, 0};
	ok(commit3(dir, &f) < 0 && access(dir, F_OK) != 0 && errno == ENOENT,
	   "a failed commit removes the folder it created");

	snprintf(dir, sizeof dir, "%s/dirs", root);
	mkdir(dir, 0755);
	put(dir, "a.ptx", "A1");
	snprintf(want, sizeof want, "%s/b.ptx", dir);
	mkdir(want, 0755);
	ok(commit3(dir, NULL) < 0, "a folder where a file goes: %s", sb_str(&err));
	snprintf(want, sizeof want, "cannot write %s/b.ptx: it is there and is not a regular file", dir);
	is_str(sb_str(&err), want, "... is named in the error");
	snprintf(want, sizeof want, "%s/b.ptx", dir);
	rmdir(want);
	is_str(listing(dir), "a.ptx=A1", "... and nothing was written");

	snprintf(dir, sizeof dir, "%s/afile", root);
	put(root, "afile", "x");
	ok(commit3(dir, NULL) < 0 && strstr(sb_str(&err), "afile: it is there and is not a folder"),
	   "an output folder that is a file: %s", sb_str(&err));

	t = fstx_new(root);
	ok(fstx_commit(t, &err) == 0, "an empty transaction commits");
	fstx_free(t);
}

/* SIGKILL at the k-th step of any kind. */
static int kill_at(void *ud, const char *step, const char *path)
{
	int *k = ud;
	(void)step;
	(void)path;
	if (!--*k)
		raise(SIGKILL);
	return 0;
}

/* A commit killed at each of its steps (3 writes, the journal, 3 renames,
 * the journal's removal), then the next commit (of a.ptx): the folder
 * holds the old files before the journal was written, the new ones once it
 * was, and nothing else. */
static void crashes(void)
{
	char dir[128], want[320];
	for (int k = 1; k <= 9; k++) {
		snprintf(dir, sizeof dir, "%s/kill%d", root, k);
		mkdir(dir, 0755);
		put(dir, "a.ptx", "A1");
		put(dir, "c.ptx", "C1");
		put(dir, ".a.ptx.tmp.Ab12Cd", "fsio's leftover");
		put(dir, ".c.ptx.old.Ab12Cd", "fsio's leftover");
		put(dir, ".keep.tmp.Ab12Cd", "the user's");
		pid_t pid = fork();
		if (!pid) {
			fstx *t = fstx_new(dir);
			fstx_add(t, "c.ptx", 5, "C2", 2, &err);
			fstx_add(t, "a.ptx", 5, "A2", 2, &err);
			fstx_add(t, "b.ptx", 5, "B2", 2, &err);
			int left = k;
			fstx_set_fault(t, kill_at, &left);
			_exit(fstx_commit(t, &err) ? 1 : 0);
		}
		int status = 0;
		waitpid(pid, &status, 0);
		int killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
		fstx *t = fstx_new(dir);
		sb_reset(&err);
		fstx_add(t, "a.ptx", 5, "A3", 2, &err); /* b.ptx and c.ptx tell which way it went */
		int rc = fstx_commit(t, &err);
		fstx_free(t);
		const char *got = listing(dir);
		snprintf(want, sizeof want, ".keep.tmp.Ab12Cd=the user's,%s", k <= 4 ? "a.ptx=A3,c.ptx=C1" : "a.ptx=A3,b.ptx=B2,c.ptx=C2");
		if (!ok((killed || k == 9) && rc == 0 && !strcmp(got, want), "killed at step %d of 8%s: the next commit finds "
			"the folder all %s, no leftover", k, k == 9 ? " (no step 9: it ends)" : "", k <= 4 ? "old" : "new"))
			printf("#   killed %d, rc %d (%s)\n#   got  %s\n#   want %s\n", killed, rc, sb_str(&err), got, want);
	}
	snprintf(dir, sizeof dir, "%s/kill2", root);
	put(dir, ".ptxpose-journal", "ptxpose fstx journal 1 commit\n1 a.ptx\n");
	fstx *t = fstx_new(dir);
	sb_reset(&err);
	snprintf(want, sizeof want, "cannot read %s/.ptxpose-journal: it is damaged (an unfinished commit; remove it to "
		 "give up on it)", dir);
	ok(fstx_commit(t, &err) < 0 && !strcmp(sb_str(&err), want), "a damaged journal stops the commit: %s", sb_str(&err));
	fstx_free(t);
	sb_reset(&err);
	ok(fstx_name(".ptxpose-journal", 16, &err) < 0 && fstx_name(".a.ptxpose-new", 14, &err) < 0,
	   "the journal's names are not names a caller may write: %s", sb_str(&err));
}

int main(void)
{
	snprintf(root, sizeof root, "%s/fstx.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(root)) {
		printf("not ok 1 - cannot make a temporary folder\n1..1\n");
		return 1;
	}
	sb_init(&err);
	names();
	commits();
	crashes();
	sb_free(&err);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd))
		printf("# could not remove %s\n", root);
	return tap_done();
}
