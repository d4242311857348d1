/* fstx_log: the journal of a commit, run to its end by whoever finds it
 * (fstx_log.h). */
#include "common/fstx_log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/fstx.h"

#define HEAD "ptxpose fstx journal 1 "

char *fstx_beside(const char *dir, const char *name, const char *suffix)
{
	size_t n = strlen(dir) + strlen(name) + strlen(suffix) + 4;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/.%s.%s", dir, name, suffix);
	return p;
}

static char *log_path(const char *dir)
{
	size_t n = strlen(dir) + sizeof FSTX_LOG + 1;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, FSTX_LOG);
	return p;
}

void fstx_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int fstx_log_put(const char *dir, int commit, char *const *names, const int *had, int n)
{
	strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, HEAD "%s\n", commit ? "commit" : "abort");
	for (int i = 0; i < n; i++)
		sb_printf(&sb, "%d %s\n", had[i] != 0, names[i]);
	sb_add(&sb, "end\n");
	char *path = log_path(dir);
	int rc = -1;
	if (!path || sb.oom)
		errno = ENOMEM;
	else
		rc = fs_write_atomic(path, sb.data, sb.len);
	int e = errno;
	free(path);
	sb_free(&sb);
	errno = e;
	return rc;
}

/* A journal read back: its kind and files. */
typedef struct {
	int commit, n;
	char **names;
	int *had;
	char *text;
} journal;

static void journal_free(journal *j)
{
	free(j->names);
	free(j->had);
	free(j->text);
}

/* Parse the journal's text in place; -1 when damaged. */
static int parse(journal *j, size_t len)
{
	char *s = j->text, *end = s + len;
	size_t lines = 0;
	for (char *p = s; p < end; p++)
		lines += *p == '\n';
	j->names = calloc(lines + 1, sizeof *j->names);
	j->had = calloc(lines + 1, sizeof *j->had);
	if (!j->names || !j->had || strncmp(s, HEAD, sizeof HEAD - 1))
		return -1;
	s += sizeof HEAD - 1;
	if (!strncmp(s, "commit\n", 7))
		j->commit = 1, s += 7;
	else if (!strncmp(s, "abort\n", 6))
		s += 6;
	else
		return -1;
	strbuf why;
	sb_init(&why);
	while (s < end && strcmp(s, "end\n")) {
		char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl || nl - s < 3 || (s[0] != '0' && s[0] != '1') || s[1] != ' ' ||
		    fstx_name(s + 2, (size_t)(nl - s - 2), &why) != 0)
			break;
		*nl = '\0';
		j->had[j->n] = s[0] == '1';
		j->names[j->n++] = s + 2;
		s = nl + 1;
	}
	sb_free(&why);
	return s < end && !strcmp(s, "end\n") ? 0 : -1;
}

/* Does path exist (as anything)? */
static int there(const char *path) { return !access(path, F_OK) || errno != ENOENT; }

/* Put old files back: the undo of a commit, in whatever state it stopped. */
static void undo(const char *dir, const journal *j)
{
	for (int i = 0; i < j->n; i++) {
		char *nw = fstx_beside(dir, j->names[i], FSTX_NEW), *old = fstx_beside(dir, j->names[i], FSTX_OLD);
		char *path = fstx_beside(dir, j->names[i], "");
		if (nw && old && path) {
			sprintf(path, "%s/%s", dir, j->names[i]);
			if (there(nw)) /* never renamed: the target is the old one */
				unlink(nw);
			else if (there(old))
				rename(old, path);
			else if (!j->had[i]) /* it was not there before */
				unlink(path);
		}
		free(nw);
		free(old);
		free(path);
	}
}

/* Rename every new file still there onto its target; -1 at the first that
 * fails, its name in *bad. */
static int forward(const char *dir, const journal *j, fs_fault_fn fault, void *ud, int *bad)
{
	int rc = 0;
	for (int i = 0; i < j->n && !rc; i++) {
		char *nw = fstx_beside(dir, j->names[i], FSTX_NEW), *path = fstx_beside(dir, j->names[i], "");
		if (!nw || !path) {
			errno = ENOMEM, rc = -1;
		} else if (there(nw)) {
			sprintf(path, "%s/%s", dir, j->names[i]);
			int e = fault ? fault(ud, "rename", path) : 0;
			if (e || rename(nw, path))
				errno = e ? e : errno, rc = -1;
		}
		*bad = i;
		free(nw);
		free(path);
	}
	return rc;
}

/* Remove what no journal names: .NAME.ptxpose-new, .NAME.ptxpose-old and
 * the journal's own temporaries. */
static int sweep(const char *dir)
{
	DIR *d = opendir(dir);
	int removed = 0;
	if (!d)
		return 0;
	static const char *const suffixes[] = {"." FSTX_NEW, "." FSTX_OLD};
	strbuf path;
	sb_init(&path);
	for (struct dirent *e; (e = readdir(d));) {
		const char *s = e->d_name;
		size_t n = strlen(s);
		int ours = !strncmp(s, "." FSTX_LOG ".tmp.", sizeof FSTX_LOG + 5);
		for (int k = 0; k < 2 && s[0] == '.'; k++)
			ours |= n > strlen(suffixes[k]) + 1 && !strcmp(s + n - strlen(suffixes[k]), suffixes[k]);
		if (ours) {
			sb_reset(&path);
			sb_printf(&path, "%s/%s", dir, s);
			removed += !unlink(sb_str(&path));
		}
	}
	closedir(d);
	sb_free(&path);
	return removed;
}

int fstx_log_run(const char *dir, fs_fault_fn fault, void *ud, strbuf *err)
{
	char *path = log_path(dir);
	journal j = {0};
	size_t len = 0;
	int rc = 0, bad = 0, e = 0;
	if (!path) {
		sb_printf(err, "cannot write %s: %s", dir, strerror(ENOMEM));
		return -1;
	}
	j.text = fs_read(path, &len);
	if (!j.text && errno != ENOENT) {
		sb_printf(err, "cannot read %s: %s (an unfinished commit; remove it to give up on it)", path,
			  strerror(errno));
		rc = -1;
		goto out;
	}
	if (j.text && parse(&j, len)) {
		sb_printf(err, "cannot read %s: it is damaged (an unfinished commit; remove it to give up on it)", path);
		rc = -1;
		goto out;
	}
	if (j.text && j.commit && forward(dir, &j, fault, ud, &bad)) {
		e = errno;
		sb_printf(err, "cannot write %s/%s: %s", dir, j.names[bad], strerror(e));
		rc = -1;
		/* undone: the journal says so first, so that a crash now still ends
		 * in the old files; if it cannot, it stays for the next run */
		if (fstx_log_put(dir, 0, j.names, j.had, j.n))
			goto out;
		j.commit = 0;
	}
	if (j.text && !j.commit)
		undo(dir, &j);
	if (j.text) {
		fstx_sync_dir(dir);
		int f = fault ? fault(ud, "done", path) : 0;
		if (f || unlink(path)) { /* left for the next run, which finds the work done */
			if (!rc)
				sb_printf(err, "cannot write %s: %s", path, strerror(f ? f : errno));
			rc = -1;
			goto out;
		}
	}
	if (sweep(dir) || j.text)
		fstx_sync_dir(dir);
out:
	journal_free(&j);
	free(path);
	return rc;
}
