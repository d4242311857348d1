/* fuzz_meta: the metadata parser (loader/meta.c) on any bytes as a PTX text,
 * then what the library does with metadata it accepted: every value looked
 * up, the launch grid for a few shapes. libFuzzer; see fuzz/README.md. */
#include "fuzz/fuzz.h"
#include "loader/meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	px_meta m;
	char err[256];
	if (meta_parse(text, &m, err, sizeof err) == 0) {
		for (int i = 0; i < m.nkv; i++)
			if (meta_get(&m, m.key[i]) != m.val[i])
				abort(); /* a key given twice was let through */
		if (meta_threads(&m) == 0 || meta_threads(&m) > 1024 || !m.kernel[0])
			abort();
		static const uint64_t dims[][3] = {{1, 1, 1}, {4097, 4095, 1}, {2147483647, 1, 1}, {1, 2147483647, 3},
						   {2147483647, 2147483647, 2147483647}, {3, 3, 1000000}};
		unsigned grid[3];
		for (size_t k = 0; k < sizeof dims / sizeof dims[0]; k++) {
			/* kernel ABI v2: every valid shape gets a grid within the hardware limits */
			if (meta_grid_dims(&m, dims[k][0], dims[k][1], dims[k][2], grid, err, sizeof err))
				abort();
			if (grid[0] == 0 || grid[0] > 0x7fffffffu || grid[1] == 0 || grid[1] > 65535 ||
			    grid[2] == 0 || grid[2] > 65535)
				abort();
		}
	} else if (!err[0] || memchr(err, '\n', strlen(err))) {
		abort(); /* every refusal is one line */
	}
	free(text);
	return 0;
}
