/* fuzz_shapes: shape lists (rig/shape.c) on any bytes as a --shapes
 * value: rig_shape_list, then rig_shape_check and the byte sizes of every
 * entry (2-D, or N-d: D0xD1x..:perm=..) at every width it applies to. libFuzzer; see fuzz/README.md. */
#include "fuzz/fuzz.h"
#include "rig/rig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	rig_shape *v = NULL;
	size_t n = 0;
	char err[512], name[96];
	px_status st = rig_shape_list(text, &v, &n, err, sizeof err);
	if (st && (v || !err[0]))
		abort(); /* a refused list leaves nothing behind and says why */
	for (size_t i = 0; !st && i < n; i++) {
		for (unsigned bits = 8; bits <= 128; bits *= 2) {
			rig_shape s = v[i];
			if (rig_shape_elem_bits(&s) && rig_shape_elem_bits(&s) != bits)
				continue;
			s.p.elem_bytes = bits / 8;
			if (rig_shape_check(&s, err, sizeof err) != PX_OK)
				continue;
			/* a checked shape's sizes hold in 64 bits and a buffer: batch-1
			 * strides and the last matrix up to its last element, each side */
			uint64_t in = rig_shape_in_bytes(&s), out = rig_shape_out_bytes(&s), eb = rig_shape_elem_bytes(&s);
			if (s.p.rank) { /* an N-d shape: its spans are whole elements, at least one each, and add up */
				if (!in || !out || in % eb || out % eb || in + out < in)
					abort();
				rig_shape_name(&s, name, sizeof name);
				continue;
			}
			uint64_t in_el = (s.p.batch - 1) * s.p.stride_in + (s.p.rows - 1) * s.p.ld_in + s.p.cols;
			uint64_t out_el = (s.p.batch - 1) * s.p.stride_out + (s.p.cols - 1) * s.p.ld_out + s.p.rows;
			if (s.p.ld_in < s.p.cols || s.p.ld_out < s.p.rows || in / eb != in_el || out / eb != out_el || in % eb ||
			    out % eb || in + out < in)
				abort();
			rig_shape_name(&s, name, sizeof name);
		}
	}
	free(v);
	free(text);
	return 0;
}
