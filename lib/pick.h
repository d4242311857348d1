/* pick: the heuristic plan: every kernel of the problem's element width
 * ranked by the cost model (lib/model.h), fastest first. Used by
 * ptxpose_plan_create and by `ptxpose plan`, which prints the ranking. */
#ifndef LIB_PICK_H
#define LIB_PICK_H

#include "loader/cu.h"
#include "lib/kreg.h"
#include "lib/model.h"

#define PICK_SKINNY_RANGE 8
#define PICK_FLAT_MIN 2 /* matrices a flat kernel's chunk must hold to be ranked */
/* The most bytes of K (K x es) a wide fast_k kernel is ranked for: past
 * them the wide register skinny kernels measured behind the fast ones
 * (f16 K = 48 and 64 on an H100: 74-76% of the copy against 94-96%), a
 * loss the model's features do not see. The tall ones (84-88% there
 * against the narrow kernels' 95-96%, but 82% at f16 K = 33 against the
 * other skinny kernels' 36-61%) are left to the model. */
#define PICK_FAST_K_MAX_BYTES 64
/* A wide fast_k kernel's last, partial tile along the long side moves
 * element by element (7-18% of the copy on an H100, with stores a run
 * apart): it is ranked only where that tile holds at most 1/PICK_FAST_K_EDGE
 * of the long side (the model prices those tiles at the shared default
 * edge thetas, as predicated vector paths: 16 x 1008 u8 x 1000 all on it,
 * 29% of the copy predicted). The tall ones' element path is coalesced. */
#define PICK_FAST_K_EDGE 16
#define PICK_AFTER_RANGE PTXPOSE_TOOL_AFTER_RANGE
#define PICK_AFTER_UNFITTED PTXPOSE_TOOL_AFTER_UNFITTED

/* A candidate (its index in the registry, features, estimate) and the
 * ranking: include/ptxpose_tools.h defines them for the tools. */
typedef ptxpose_tool_cand pick_cand;
typedef ptxpose_tool_ranking pick_result;

/* Rank the kernels of r for problem p (model_problem_check'ed) on device d.
 * Kernels of the small-dimension family (family=skinny_wide, skinny_tall)
 * on a problem whose K (rows, cols) exceeds PICK_SKINNY_RANGE times their
 * kmax (the tile's short side) come after every other kernel, whatever
 * their estimate: there their tiles read or write kmax-element segments,
 * which the model does not price (2048x2048 f32 on an H100: skinny_tall_k4
 * predicted best, measured at 40% of the copy). Unless no other kernel of
 * the width is there. So does a kernel the parameter table has no theta
 * row of its own for while a candidate of its family does (a kernel added
 * after the fit: the shared `*` row would price it below its fitted
 * siblings), until a refit gives it one. Study kernels (study=1) are never ranked: a plan
 * runs one only when desc->kernel names it; nor are kernels whose target
 * the device lacks (pick_runs_on); nor flat kernels (grid=flat) but for
 * packed batches (ld_in == cols, ld_out == rows, strides rows*cols) of
 * which PICK_FLAT_MIN matrices fit their chunk (per_block elements); nor
 * fast_k kernels (the register skinny ones) but where K x es and the run
 * side are multiples of fast_k bytes, the line side is aligned and, for
 * wide ones, K x es is at most PICK_FAST_K_MAX_BYTES and the long side's partial
 * tile at most 1/PICK_FAST_K_EDGE of it.
 * PX_EUNAVAIL when r has no kernel of the width ("no kernel for 8-bit
 * elements among the 3 given"), PX_ENOMEM. */
/* Whether kernel k's PTX runs on device d: its target=sm_NN is at most the
 * device's compute capability (a device of unknown capability, cc_major 0:
 * yes). */
int pick_runs_on(const model_kernel *k, const model_device *d);

px_status pick_rank(const kreg *r, const model_device *d, const model_params *params, const model_problem *p,
		    pick_result *out, char *err, size_t errlen);
void pick_free(pick_result *res);

/* The model's description of a real device: what the driver says, the
 * built-in H100's figures where it says nothing (bandwidth = memory clock x
 * bus width x 2). */
void pick_device(const cu_devinfo *info, model_device *d);

#endif
