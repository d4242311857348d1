/* version: the release number, and the commit the binary was built from. */
#ifndef COMMON_VERSION_H
#define COMMON_VERSION_H

#define PTXPOSE_VERSION "0.1.0"

/* `git describe --always --dirty` of the tree when it was built ("dd5c927",
 * "dd5c927-dirty"); without git, $PTXPOSE_COMMIT at build time; else
 * "unknown". Embedded by the build (build/gen/commit.h), so a binary away from
 * its repository still knows it. */
const char *ver_commit(void);

#endif
