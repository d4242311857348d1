/* select: choose a kernel for (element width, shape) from the selection
 * table that `ptxpose bench` measured (bench/select.tsv). Pure C. */
#ifndef LOADER_SELECT_H
#define LOADER_SELECT_H

#include <stddef.h>
#include <stdint.h>

/* Table text: '#' comment lines, then "elem rows cols kernel pct" rows,
 * each measured with ld_in = cols and ld_out = rows. Picks, among the rows
 * of the same elem and the same alignment class (both row pitches a
 * multiple of 16 bytes, or not), the measured shape nearest to rows×cols
 * (distance |log2 rows - log2 r| + |log2 cols - log2 c|; the first row wins
 * ties); with no row of that class, the nearest of any. Every kernel handles
 * any shape and alignment, so the rule only affects speed. Returns 0 with
 * the kernel name, or -1 with a reason (no row for that width, a malformed
 * line). */
int sel_pick(const char *table, unsigned elem, uint64_t rows, uint64_t cols,
	     uint64_t ld_in, uint64_t ld_out, char *kernel, size_t klen,
	     char *err, size_t errlen);

/* The same, where the pointers are `offset` elements past 16-byte
 * alignment (a pointer off alignment puts the case in the misaligned class). */
int sel_pick_at(const char *table, unsigned elem, uint64_t rows, uint64_t cols,
		uint64_t ld_in, uint64_t ld_out, unsigned offset, char *kernel, size_t klen,
		char *err, size_t errlen);

#endif
