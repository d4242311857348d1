/* kernel_arg: a FILE.ptx argument, a path or a library kernel's name (kernel_arg.h). */
#include "cli/kernel_arg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fsio.h"
#include "include/ptxpose_tools.h"

/* The library's kernels, made on the first name asked, freed at exit. */
static ptxpose_tool_kernels *library;

static void library_free(void)
{
	ptxpose_tool_kernels_free(library);
	library = NULL;
}

static int is_path(const char *arg)
{
	size_t n = strlen(arg);
	return fs_exists(arg) || (n >= 4 && !strcmp(arg + n - 4, ".ptx")) || strchr(arg, '/');
}

px_status cli_kernel_arg(const char *arg, const char **file, const char **ptx, size_t *len, char *err,
			 size_t errlen)
{
	*file = arg;
	*ptx = NULL;
	*len = 0;
	if (is_path(arg))
		return PX_OK;
	if (!library) {
		ptxpose_status st = ptxpose_tool_kernels_new(&library);
		if (!st)
			st = ptxpose_tool_kernels_add_library(library);
		if (st) {
			snprintf(err, errlen, "%s: no such file, and the library's kernels cannot be had: %s", arg,
				 ptxpose_last_error());
			library_free();
			return PX_EINPUT;
		}
		atexit(library_free);
	}
	int i = ptxpose_tool_kernels_find(library, arg);
	if (i < 0) {
		snprintf(err, errlen, "%s: no such file, and no kernel of that name among the library's (built in, "
				      "$PTXPOSE_PTX; see ptxpose list)", arg);
		return PX_EINPUT;
	}
	ptxpose_tool_kernel k;
	ptxpose_tool_kernels_get(library, i, &k);
	*file = k.file;
	*ptx = k.ptx;
	*len = k.len;
	return PX_OK;
}

px_status cli_kernel_load(px_file *f, const char *arg, char *err, size_t errlen)
{
	const char *file, *ptx;
	size_t len;
	memset(f, 0, sizeof *f);
	px_status st = cli_kernel_arg(arg, &file, &ptx, &len, err, errlen);
	if (st || !ptx)
		return st ? st : px_file_load(f, arg, err, errlen);
	char *text = malloc(len + 1);
	if (!text) {
		snprintf(err, errlen, "%s: out of memory", arg);
		return PX_ENOMEM;
	}
	memcpy(text, ptx, len + 1);
	if ((st = px_file_parse(f, arg, text, len, err, errlen)))
		free(text);
	return st;
}
