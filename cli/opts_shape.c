/* opts_shape: the shape flags of run, check, bench and plan, one table with
 * their help, filling one problem (a ptxpose_desc inside a rig_shape). */
#include "cli/opts_shape.h"

#include <string.h>

#include "cli/cli.h"
#include "common/strbuf.h"

/* A shape flag: the row opt_parse reads (off into opt_shape; lo, hi: the
 * range a flag checks itself), its group and its help (NULL where the row
 * before says it). At most 64 rows (opt_shape.given). */
typedef struct {
	opt_spec o;
	unsigned group;
	const char *arg, *help;
} shape_flag;

#define U64(flag, field, lo, hi) {flag, OPT_NUM, offsetof(opt_shape, field), lo, hi, NULL}
#define U32(flag, field, lo, hi) {flag, OPT_NUM32, offsetof(opt_shape, field), lo, hi, NULL}
#define STR(flag, field) {flag, OPT_STR, offsetof(opt_shape, field), 0, 0, NULL}

static const shape_flag flags[] = {
	{U64("--rows", s.p.rows, 1, RIG_DIM_MAX), OPT_SH_DIMS, "--rows R, --cols C",
	 "the input matrix, R x C elements, 1 to 2147483647 each"},
	{U64("--cols", s.p.cols, 1, RIG_DIM_MAX), OPT_SH_DIMS, NULL, NULL},
	{U64("--ld-in", s.p.ld_in, 1, RIG_DIM_MAX), OPT_SH_DIMS, "--ld-in L, --ld-out L",
	 "leading dimensions in elements: ld-in >= cols (default cols), ld-out >= rows (default rows)"},
	{U64("--ld-out", s.p.ld_out, 1, RIG_DIM_MAX), OPT_SH_DIMS, NULL, NULL},
	{U64("--batch", s.p.batch, 1, RIG_DIM_MAX), OPT_SH_BATCH, "--batch B",
	 "B matrices, 1 to 2147483647 (default 1): out[b] = transpose of in[b]"},
	{U64("--stride-in", s.p.stride_in, 0, RIG_STRIDE_MAX), OPT_SH_BATCH, "--stride-in S, --stride-out S",
	 "elements from one matrix to the next (default packed: rows*ld-in and cols*ld-out); at least "
	 "(rows-1)*ld-in + cols and (cols-1)*ld-out + rows: the matrices must not overlap"},
	{U64("--stride-out", s.p.stride_out, 0, RIG_STRIDE_MAX), OPT_SH_BATCH, NULL, NULL},
	{{"--elem", OPT_ELEM, offsetof(opt_shape, elem), 0, 0, NULL}, OPT_SH_ELEM, "--elem W",
	 "the element width: " ELEM_HELP},
	{U64("--offset", s.offset, 0, 15), OPT_SH_OFFSET, "--offset N",
	 "both pointers N elements past an aligned address (run: 0-15), for misaligned data"},
	{U32("--align-in", s.p.align_in, 0, UINT32_MAX), OPT_SH_ALIGN, "--align-in/--align-out BYTES",
	 "what the pointers are aligned to (a power of two, at least the element size; default 256)"},
	{U32("--align-out", s.p.align_out, 0, UINT32_MAX), OPT_SH_ALIGN, NULL, NULL},
	{STR("--dims", dims), OPT_SH_ND, "--dims D0xD1x...",
	 "an N-d tensor instead of --rows/--cols/--batch: its extents, dim 0 the slowest (rank 1 to 8)"},
	{STR("--perm", perm), OPT_SH_ND, "--perm p0,p1,...",
	 "with --dims: out = in.transpose(perm), NumPy's convention (output dim k is input dim p_k)"},
	{STR("--strides-in", strides_in), OPT_SH_ND, "--strides-in a,b,...",
	 "with --dims: the input's stride of each dim, in elements (default packed row-major); "
	 "--strides-out: the output's, one per output dim"},
	{STR("--strides-out", strides_out), OPT_SH_ND, NULL, NULL},
};
#define NFLAGS (sizeof flags / sizeof flags[0])

/* The first flag given of the groups, or NULL. */
static const char *first_given(const opt_shape *sh, unsigned groups)
{
	for (size_t i = 0; i < NFLAGS; i++)
		if ((flags[i].group & groups) && (sh->given >> i & 1))
			return flags[i].o.flag;
	return NULL;
}

/* --dims, --perm and the strides into sh->s.p, through the spec parser. */
static int nd_of_flags(const char *cmd, opt_shape *sh)
{
	const char *nd = first_given(sh, OPT_SH_ND), *flat = first_given(sh, OPT_SH_DIMS | OPT_SH_BATCH);
	if (!nd)
		return 0;
	if (flat) {
		cli_err(cmd, "%s and %s: give an N-d problem (--dims, --perm, --strides-in/out) or a 2-D one (--rows, "
			     "--cols, --ld-*, --batch, --stride-*), not both", nd, flat);
		return EXIT_USAGE;
	}
	if (!sh->dims || !sh->perm) {
		cli_err(cmd, "%s needs %s (--dims D0xD1x... --perm p0,p1,...)", nd, sh->dims ? "--perm" : "--dims");
		return EXIT_USAGE;
	}
	strbuf spec;
	sb_init(&spec);
	sb_printf(&spec, "%s:perm=%s", sh->dims, sh->perm);
	if (sh->strides_in)
		sb_printf(&spec, ":strides_in=%s", sh->strides_in);
	if (sh->strides_out)
		sb_printf(&spec, ":strides_out=%s", sh->strides_out);
	ndspec sp;
	char err[512];
	int bad = spec.oom || ndspec_parse(sb_str(&spec), &sp, NULL, err, sizeof err);
	if (bad)
		cli_err(cmd, "--dims/--perm: %s", spec.oom ? "out of memory" : err);
	else
		rig_shape_set_nd(&sh->s, &sp);
	sb_free(&spec);
	return bad ? EXIT_USAGE : 0;
}

opt_shape opt_shape_init(void)
{
	return (opt_shape){.s = rig_shape_of(0, 0, 0)};
}

int opt_parse_shape(const char *cmd, int argc, char **argv, const opt_spec *t, size_t n, void *opts,
		    opt_shape *sh, unsigned groups, const char **pos, int *npos, void (*usage)(FILE *))
{
	opt_spec rows[NFLAGS];
	size_t at[NFLAGS], m = 0; /* rows[j] is flags[at[j]] */
	for (size_t i = 0; i < NFLAGS; i++) {
		if (!(flags[i].group & groups))
			continue;
		rows[m] = flags[i].o;
		if ((groups & OPT_SH_ANY) && rows[m].kind != OPT_ELEM)
			rows[m].lo = 0, rows[m].hi = rows[m].kind == OPT_NUM32 ? UINT32_MAX : UINT64_MAX;
		at[m++] = i;
	}
	opt_table tabs[] = {{t, n, opts, 0}, {rows, m, sh, 0}};
	int rc = opt_parse_tables(cmd, argc, argv, tabs, 2, pos, npos, usage);
	for (size_t j = 0; j < m; j++)
		sh->given |= (tabs[1].given >> j & 1) << at[j];
	sh->s.p.elem_bytes = sh->elem.bits / 8;
	return rc ? rc : nd_of_flags(cmd, sh);
}

int opt_shape_given(const opt_shape *sh, const char *flag)
{
	for (size_t i = 0; i < NFLAGS; i++)
		if (!strcmp(flags[i].o.flag, flag))
			return (int)(sh->given >> i & 1);
	return 0;
}

/* 1 if any flag of the groups was given, a number other than 0 (a stride
 * given as 0, packed, is the default). */
static int any_given(const opt_shape *sh, unsigned groups)
{
	for (size_t i = 0; i < NFLAGS; i++)
		if ((flags[i].group & groups) && (sh->given >> i & 1) &&
		    (flags[i].o.kind != OPT_NUM || *(const uint64_t *)((const char *)sh + flags[i].o.off)))
			return 1;
	return 0;
}

/* text from column `col`, wrapped at 80 with continuation lines at column 22. */
static void wrapped(FILE *f, const char *text, int col)
{
	while (*text) {
		size_t n = strlen(text), room = (size_t)(80 - col);
		if (n > room) {
			n = room;
			while (n && text[n] != ' ')
				n--;
			if (!n)
				n = strcspn(text, " ");
		}
		fprintf(f, "%.*s\n", (int)n, text);
		text += n;
		text += *text == ' ';
		if (*text)
			fprintf(f, "%22s", "");
		col = 22;
	}
}

void opt_shape_help(FILE *f, unsigned groups)
{
	for (size_t i = 0; i < NFLAGS; i++) {
		if (!(flags[i].group & groups) || !flags[i].help)
			continue;
		int col = fprintf(f, "  %-19s ", flags[i].arg);
		if (col > 22)
			col += fprintf(f, " ");
		wrapped(f, flags[i].help, col);
	}
}

int opt_shape_alone(const char *cmd, const opt_shape *sh, const char *shapes)
{
	if (sh->s.p.rank && shapes) {
		cli_err(cmd, "--dims and --shapes: give one problem or a list (a list entry may be " RIG_SHAPE_ND_SYNTAX ")");
		return EXIT_USAGE;
	}
	if (!any_given(sh, OPT_SH_DIMS | OPT_SH_BATCH) || (sh->s.p.rows && sh->s.p.cols && !shapes))
		return 0;
	cli_err(cmd, "--rows and --cols go together, and replace --shapes (with --shapes, give a batch"
		" as SHAPE:batch=B:stride_in=S:stride_out=S)");
	return EXIT_USAGE;
}

px_status opt_shape_select(const opt_shape *sh, const char *list, rig_shape **out, size_t *n, char *err,
			   size_t errlen)
{
	rig_shape one = sh->s;
	one.p.elem_bytes = 0; /* --elem chooses the files, not the shape's width */
	return rig_shape_select(list, &one, out, n, err, errlen);
}
