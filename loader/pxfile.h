/* pxfile: a ptxpose PTX file: its text, its metadata, and the checks that
 * the metadata describes the PTX (kernel ABI 2 or 3, the .entry, .reqntid). */
#ifndef LOADER_PXFILE_H
#define LOADER_PXFILE_H

#include <stddef.h>

#include "loader/meta.h"
#include "loader/status.h"

typedef struct px_file px_file;

struct px_file {
	const char *path;
	char *ptx;   /* the whole text, NUL-terminated */
	px_meta meta;
};

/* Read and parse; also checks that the file is kernel ABI 2 or 3 (abi=2,
 * abi=3), that the .entry named kernel= exists (for abi=3, with v3's
 * parameters: loader/abi.h) and that a .reqntid, if any, matches block=. PX_EINPUT ("x.ptx: cannot read: No such file or directory",
 * "x.ptx: no ptxpose metadata ...", "x.ptx: kernel ABI 1; regenerate it with
 * ptxpose gen"). */
px_status px_file_load(px_file *f, const char *path, char *err, size_t errlen);

/* The same checks on a text of len bytes at ptx (NUL-terminated; a NUL
 * byte before len is refused), named `name` in messages. f points at ptx
 * and name as they are; px_file_free(f) frees ptx, so call it only for a
 * text the caller allocated. */
px_status px_file_parse(px_file *f, const char *name, const char *ptx, size_t len, char *err, size_t errlen);
void px_file_free(px_file *f);


#endif
