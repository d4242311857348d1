/* opts_shape: the flags of a problem, one table with their help lines
 * (opts_shape.c) for every command that takes a shape (run, check, bench,
 * plan), parsed into one type: the rig_shape whose ptxpose_desc goes to the
 * library. Each command names the groups it takes. A new problem field is
 * one row there, filling a field of the desc. */
#ifndef CLI_OPTS_SHAPE_H
#define CLI_OPTS_SHAPE_H

#include <stdint.h>
#include <stdio.h>

#include "cli/opts.h"
#include "common/elem.h"
#include "rig/shape.h"

enum {
	OPT_SH_DIMS = 1u << 0,   /* --rows --cols --ld-in --ld-out */
	OPT_SH_BATCH = 1u << 1,  /* --batch --stride-in --stride-out */
	OPT_SH_ELEM = 1u << 2,   /* --elem */
	OPT_SH_OFFSET = 1u << 3, /* --offset */
	OPT_SH_ALIGN = 1u << 4,  /* --align-in --align-out */
	OPT_SH_ND = 1u << 6,     /* --dims --perm --strides-in --strides-out: an N-d permutation */
	OPT_SH_ANY = 1u << 5,    /* take numbers of any size: the library's check of the problem
				  * names what is out of range (plan), not the flag's range */
};

/* What the shape flags fill. */
typedef struct {
	rig_shape s;         /* s.p: the problem, as the library takes it (s.p.elem_bytes from
			      * --elem); s.offset */
	opt_elem elem;       /* --elem as given ("f32"), and its unit */
	uint64_t given;      /* the flags given, a bit each (opt_shape_given) */
	const char *dims, *perm, *strides_in, *strides_out; /* as given: opt_parse_shape puts them in s.p */
} opt_shape;

/* An opt_shape with nothing given: s is rig_shape_of(0, 0, 0) (batch 1). */
opt_shape opt_shape_init(void);

/* 1 if flag ("--rows") was given. */
int opt_shape_given(const opt_shape *sh, const char *flag);

/* The help lines of the groups' flags. */
void opt_shape_help(FILE *f, unsigned groups);

/* For commands that take one shape or a list (check, bench): EXIT_USAGE
 * after one line when a shape flag comes without --rows and --cols (or
 * --dims), or with a --shapes list (`shapes` not NULL); else 0. */
int opt_shape_alone(const char *cmd, const opt_shape *sh, const char *shapes);

/* ... and their shapes: sh's one (of any width: --elem chooses the files)
 * when --rows and --cols (or --dims) were given, else the list
 * (rig_shape_select). */
px_status opt_shape_select(const opt_shape *sh, const char *list, rig_shape **out, size_t *n, char *err,
			   size_t errlen);

/* opt_parse (t, n into *opts), with the shape flags of `groups` (OPT_SH_*)
 * into *sh too; --dims and --perm (with --strides-in/--strides-out) make
 * s.p an N-d problem (rig_shape_set_nd): they go together, and not with the
 * 2-D flags (--rows ... --stride-out); a form that is wrong (common/ndspec.h)
 * is one line and EXIT_USAGE. What the values mean is the library's check
 * (rig_shape_check). */
int opt_parse_shape(const char *cmd, int argc, char **argv, const opt_spec *t, size_t n, void *opts,
		    opt_shape *sh, unsigned groups, const char **pos, int *npos, void (*usage)(FILE *));
#endif
