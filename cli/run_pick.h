/* run_pick: which kernel `ptxpose run --elem` takes where there is no GPU to
 * plan on (--emulate): the library's kernels (built in, and $PTXPOSE_PTX)
 * ranked by its cost model for the built-in H100. On the GPU, run asks the
 * library's plan instead (ptxpose_plan_create). */
#ifndef CLI_RUN_PICK_H
#define CLI_RUN_PICK_H

#include <stddef.h>

#include "loader/pxfile.h"
#include "rig/rig.h"

/* The kernel for checked shape s (its elem_bits and offset count) into *f
 * (a copy of its text: px_file_free it), a note naming it and its predicted
 * time. PX_EINPUT with a reason (no kernel of the width, a bad $PTXPOSE_PTX). */
px_status run_pick_kernel(const rig_shape *s, px_file *f, char *note, size_t nlen, char *err, size_t errlen);

#endif
