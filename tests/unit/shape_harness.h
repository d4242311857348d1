/* shape_harness: a rig_shape from its numbers, as the unit tests write them. */
#ifndef TESTS_UNIT_SHAPE_HARNESS_H
#define TESTS_UNIT_SHAPE_HARNESS_H

#include "rig/shape.h"

static inline rig_shape shape_of(uint64_t rows, uint64_t cols, uint64_t ld_in, uint64_t ld_out, unsigned bits,
				 uint64_t offset, uint64_t batch, uint64_t stride_in, uint64_t stride_out)
{
	rig_shape s = rig_shape_of(rows, cols, bits);
	s.p.ld_in = ld_in, s.p.ld_out = ld_out, s.p.batch = batch;
	s.p.stride_in = stride_in, s.p.stride_out = stride_out;
	s.offset = offset;
	return s;
}

#endif
