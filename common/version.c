/* version: the commit embedded at build time (configure.py's commit rule
 * writes build/gen/commit.h, and rewrites it only when it changes). */
#include "common/version.h"

#include "build/gen/commit.h"

const char *ver_commit(void)
{
	return PTXPOSE_COMMIT;
}
