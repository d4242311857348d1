#include "cli/pick.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fsio.h"
#include "inspect/inspect.h"
#include "rig/select.h"

#define TABLE "bench/results/select.tsv"

/* The first of dir, dir/.., dir/../.., dir/../../.. that holds `rel`. */
static int find_up(const char *rel, char *out, size_t n)
{
	char dir[INS_PATH_MAX];
	if (ins_exe_dir(dir, sizeof dir))
		return -1;
	for (int up = 0; up < 4; up++) {
		snprintf(out, n, "%s/%s", dir, rel);
		if (fs_exists(out))
			return 0;
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	return -1;
}

int pick_file(unsigned elem, uint64_t rows, uint64_t cols, uint64_t ld_in, uint64_t ld_out,
	      unsigned offset, char *path, size_t plen, char *note, size_t nlen, char *err, size_t errlen)
{
	char table[INS_PATH_MAX], kernel[128];
	const char *env = getenv("PTXPOSE_SELECT");
	if (env && *env)
		snprintf(table, sizeof table, "%s", env);
	else if (find_up(TABLE, table, sizeof table)) {
		snprintf(err, errlen, "no FILE.ptx given and no selection table (%s) beside the binary; "
			 "name a file or set PTXPOSE_SELECT", TABLE);
		return -1;
	}
	char why[256];
	char *text = fs_read_input(table, FS_INPUT_MAX, NULL, why, sizeof why);
	if (!text) {
		snprintf(err, errlen, "cannot read the selection table: %s", why);
		return -1;
	}
	int rc = sel_pick_at(text, elem, rows, cols, ld_in, ld_out, offset, kernel, sizeof kernel, why, sizeof why);
	if (rc)
		snprintf(err, errlen, "%s: %s", table, why);
	/* the note: the table's "measured on ..." comment */
	const char *m = strstr(text, "measured on ");
	size_t ml = m ? strcspn(m, "\n") : 0;
	snprintf(note, nlen, "%s from %s (%.*s)", kernel, table, (int)ml, m ? m : "");
	free(text);
	if (rc)
		return -1;
	char rel[200];
	snprintf(rel, sizeof rel, "ptx/%s.ptx", kernel);
	env = getenv("PTXPOSE_PTX");
	if (env && *env)
		snprintf(path, plen, "%s/%s.ptx", env, kernel);
	else if (find_up(rel, path, plen)) {
		snprintf(err, errlen, "the selection table names %s, but ptx/%s.ptx is not beside the binary "
			 "(set PTXPOSE_PTX)", kernel, kernel);
		return -1;
	}
	if (!fs_exists(path)) {
		snprintf(err, errlen, "the selection table names %s, but %s does not exist", kernel, path);
		return -1;
	}
	return 0;
}
