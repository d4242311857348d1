/* version: the release number, and the commit the binary was built from. */
#ifndef COMMON_VERSION_H
#define COMMON_VERSION_H

#include "include/ptxpose.h"

#define VER_STR_(x) #x
#define VER_STR(x) VER_STR_(x)
/* "0.3.0": the numbers of include/ptxpose.h, the one place they are kept */
#define PTXPOSE_VERSION                                                              \
	VER_STR(PTXPOSE_VERSION_MAJOR) "." VER_STR(PTXPOSE_VERSION_MINOR) "." VER_STR( \
		PTXPOSE_VERSION_PATCH)

/* `git describe --always --dirty` of the tree when it was built ("dd5c927",
 * "dd5c927-dirty"); without git, $PTXPOSE_COMMIT at build time; else
 * "unknown". Embedded by the build (build/gen/commit.h), so a binary away from
 * its repository still knows it. */
const char *ver_commit(void);

#endif
