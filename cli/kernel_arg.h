/* kernel_arg: what a command's FILE.ptx argument names, for every command
 * that takes one (check, run, bench, list, sass). A path (a file that
 * exists, or an argument that ends in .ptx or holds a '/') is read as given;
 * any other argument is the name of one of the library's kernels (built in,
 * then $PTXPOSE_PTX's: those `ptxpose list` lists), so that an installed
 * ptxpose, which has no ptx/ folder, takes its kernels by name. */
#ifndef CLI_KERNEL_ARG_H
#define CLI_KERNEL_ARG_H

#include <stddef.h>

#include "loader/pxfile.h"
#include "loader/status.h"

/* The kernel an argument names: 0 with *ptx NULL for a path (the caller
 * reads it), or 0 with its text (alive until exit), its length and *file,
 * its file name ("fast_b32.ptx"); PX_EINPUT with one line in err naming the
 * argument when it is neither a path nor a kernel's name, or the library's
 * kernels cannot be had. */
px_status cli_kernel_arg(const char *arg, const char **file, const char **ptx, size_t *len, char *err,
			 size_t errlen);

/* px_file_load of a path, px_file_parse of a kernel's text for a name
 * (f->path is then arg): PX_OK, or the failure with its message in err. */
px_status cli_kernel_load(px_file *f, const char *arg, char *err, size_t errlen);

#endif
