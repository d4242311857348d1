/* pick: which PTX file `ptxpose run` uses when given a width and a shape
 * but no file: the selection table measured on a GPU (bench/results/
 * select.tsv, or $PTXPOSE_SELECT) names the kernel, found in ptx/ (or
 * $PTXPOSE_PTX). Both are looked for beside the binary, up to three folders
 * up, so build/ptxpose and build/asan/ptxpose find the checkout's. */
#ifndef CLI_PICK_H
#define CLI_PICK_H

#include <stddef.h>
#include <stdint.h>

/* 0 with the file's path and a note naming the table's first comment line
 * (its device and date); -1 with a one-line reason. */
int pick_file(unsigned elem, uint64_t rows, uint64_t cols, uint64_t ld_in, uint64_t ld_out,
	      unsigned offset, char *path, size_t plen, char *note, size_t nlen, char *err, size_t errlen);

#endif
