/* Placeholder until the emulator lands. */
#include "emu/emu.h"

int emu_transpose(const char *ptx, const px_meta *m,
		  const void *in, size_t in_bytes, void *out, size_t out_bytes,
		  uint32_t rows, uint32_t cols, uint32_t ld_in, uint32_t ld_out,
		  strbuf *diag)
{
	sb_add(diag, "emulator not implemented yet");
	return EMU_UNSUPPORTED;
}
