/* fuzz_emu: arbitrary text to emu_load (lexer, parser, decoder) and, when it
 * loads, one tiny launch (1x1 to 4x4) under a small instruction budget. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu.h"
#include "emu/emu_int.h"

/* Every message is one line: it ends up in a TAP stream or on stderr. */
static void one_line(const strbuf *d)
{
	if (strchr(sb_str(d), '\n'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	uint32_t h = 2166136261u; /* the launch's shape comes from the input */
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	strbuf diag;
	sb_init(&diag);
	emu_prog *p;
	if (emu_load(text, &p, &diag) == EMU_OK) {
		uint32_t rows = 1 + (h & 3), cols = 1 + (h >> 2 & 3), in[16], out[16];
		memset(in, 0x11, sizeof in);
		emu_launch l = {
			.grid = {1 + (h >> 4 & 1), 1 + (h >> 5 & 1), 1},
			.block = {1 + (h >> 6 & 63), 1 + (h >> 12 & 1), 1},
			.dyn_smem = h >> 13 & 1 ? 256 : 0,
			.in = in, .in_bytes = rows * cols * 4, .out = out, .out_bytes = rows * cols * 4,
			.rows = rows, .cols = cols, .ld_in = cols, .ld_out = rows,
			.misalign = h >> 14 & 1 ? 4 : 0,
			.max_instructions = 1 << 18, .max_barriers = 1 << 10,
		};
		uint64_t threads = (uint64_t)p->reqntid[0] * p->reqntid[1] * p->reqntid[2];
		if (p->has_reqntid && threads * (uint64_t)p->nslots <= (1u << 17)) /* the launch a kernel asks for */
			memcpy(l.block, p->reqntid, sizeof l.block);
		sb_reset(&diag);
		emu_run(p, &l, &diag);
		emu_free(p);
	}
	one_line(&diag);
	sb_free(&diag);
	free(text);
	return 0;
}
