/* bank: the shared-memory bank-conflict model. For every shared-memory
 * instruction of a tiled kernel it takes the byte address each lane uses,
 * from the same geometry the emitter uses (tp_geom), and counts the
 * wavefronts a warp request needs: 32 banks of 4 bytes; 8-byte accesses are
 * served a half-warp at a time and 16-byte ones a quarter-warp at a time;
 * lanes reading the same word share it. */
#ifndef GEN_BANK_H
#define GEN_BANK_H

#include "gen/tp.h"
#include "gen/tp_geom.h"

typedef struct {
	char id[16];
	int store;
	unsigned bytes;     /* bytes per lane */
	unsigned worst;     /* most wavefronts of any one warp request */
	unsigned ideal;     /* the conflict-free count for one request */
	unsigned requests;  /* warp requests per block */
	unsigned total;     /* wavefronts per block, all requests */
} bank_acc;

typedef struct {
	int n;
	bank_acc acc[2];    /* the shared stores, then the shared loads */
} bank_report;

/* Wavefronts for one warp request: addr[l] is lane l's byte address; bytes
 * 1, 2, 4, 8 or 16 per lane. */
unsigned bank_wavefronts(const unsigned *addr, unsigned nlanes, unsigned bytes);

/* For smem=swizzle (without a test-only mask): choose the XOR of the shared
 * row's bits, ((row >> shr) << shl) & swz, that the model finds cheapest for
 * the stores and loads together; the plain (row & swz) wins ties. */
void bank_pick_swizzle(const tp_params *p, tp_geom *g);

/* The tile family's geometry of p, with the swizzle picked. */
void bank_geom(const tp_params *p, tp_geom *g);

/* Model every shared access of p (n = 0 when p uses no shared memory). */
void bank_model(const tp_params *p, const tp_geom *g, bank_report *r);

#endif
