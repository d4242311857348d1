/* merge: the SASS of many PTX files from one ptxas and one cuobjdump run a
 * chunk. cuobjdump's nvdisasm takes about 0.4 s of CPU to start for every
 * cubin, whatever it holds, so 106 kernels disassembled one by one cost 40 s
 * where one module holding them all costs 1.3 s.
 *
 * A chunk's module is the files' common header (.version, .target,
 * .address_size) followed by each file's text, its module-scope variables
 * renamed NAME_ptxposeK so that two files' `tile_smem` do not collide. ptxas
 * compiles each entry on its own, so an entry's SASS is the same as from its
 * file alone (only cuobjdump's padding of the encoding column differs, which
 * the summary ignores); t0600 compares the two. A file that does not fit
 * (more than one entry, a module-scope function, .file, a string, another
 * directive) or whose chunk fails is left to the caller to inspect alone. */
#include "inspect/inspect.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fsio.h"
#include "common/pool.h"

#define SUFFIX "_ptxpose"

/* Names renamed in one file, and its text without the header. */
typedef struct {
	char header[256];  /* the .version, .target and .address_size lines */
	strbuf body;
	char names[16][128];
	int nnames;
} part;

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* The end of a comment or blank run starting at p, or p. */
static const char *skip_space_comments(const char *p)
{
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (p[0] == '/' && p[1] == '/')
			p += strcspn(p, "\n");
		else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			if (!e)
				return p + strlen(p);
			p = e + 2;
		} else
			return p;
	}
}

/* The name a module-scope variable declaration [start, end) declares: the
 * identifier before its first '[', '=' or the end. 0, or -1. */
static int declared_name(const char *start, const char *end, char *name, size_t n)
{
	const char *stop = start;
	while (stop < end && *stop != '[' && *stop != '=')
		stop++;
	while (stop > start && isspace((unsigned char)stop[-1]))
		stop--;
	const char *b = stop;
	while (b > start && ident_char(b[-1]))
		b--;
	if (b == stop || (size_t)(stop - b) >= n || (b > start && !isspace((unsigned char)b[-1])) ||
	    isdigit((unsigned char)*b))
		return -1;
	snprintf(name, n, "%.*s", (int)(stop - b), b);
	return 0;
}

static int starts(const char *p, const char *word)
{
	size_t n = strlen(word);
	return !strncmp(p, word, n) && !ident_char(p[n]);
}

/* 1 when the directive word (".shared") is in [p, e). */
static int within(const char *p, const char *e, const char *word)
{
	for (; p < e; p++)
		if (*p == '.' && starts(p, word))
			return 1;
	return 0;
}

/* Split one file at module scope: header lines into pt->header, variable
 * names into pt->names, and check that nothing else is there but entries.
 * 0, or -1 when the file is not one to merge. */
static int scan(const char *ptx, part *pt)
{
	int depth = 0;
	for (const char *p = ptx; *p;) {
		if (depth > 0) {
			if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
				p = skip_space_comments(p);
				continue;
			}
			depth += *p == '{';
			depth -= *p == '}';
			p++;
			continue;
		}
		p = skip_space_comments(p);
		if (!*p)
			break;
		if (*p == '{') {
			depth++, p++;
			continue;
		}
		if (starts(p, ".version") || starts(p, ".target") || starts(p, ".address_size")) {
			size_t l = strcspn(p, "\n");
			size_t have = strlen(pt->header);
			if (have + l + 2 > sizeof pt->header)
				return -1;
			snprintf(pt->header + have, sizeof pt->header - have, "%.*s\n", (int)l, p);
			p += l;
			continue;
		}
		/* a statement up to ';' or an entry's '{' */
		const char *e = p + strcspn(p, ";{\"");
		if (*e == '"')
			return -1;
		int entry = 0;
		for (const char *q = p; q < e; q++)
			if (*q == '.' && (starts(q, ".entry") || starts(q, ".func")))
				entry = starts(q, ".entry") ? 1 : -1;
		if (entry < 0)
			return -1;
		if (!entry) {
			if (*e != ';' || !(within(p, e, ".shared") || within(p, e, ".global") || within(p, e, ".const")) ||
			    pt->nnames == (int)(sizeof pt->names / sizeof pt->names[0]) ||
			    declared_name(p, e, pt->names[pt->nnames], sizeof pt->names[0]))
				return -1;
			pt->nnames++;
		}
		p = *e ? e + (*e == ';') : e;
	}
	return depth == 0 && pt->header[0] ? 0 : -1;
}

/* pt->body: the text without its header lines, each name renamed. */
static void rewrite(const char *ptx, int k, part *pt)
{
	char suffix[32];
	snprintf(suffix, sizeof suffix, SUFFIX "%d", k);
	for (const char *p = ptx; *p;) {
		const char *line = p;
		size_t l = strcspn(p, "\n");
		p += l + (p[l] == '\n');
		const char *t = line;
		while (*t == ' ' || *t == '\t')
			t++;
		if (starts(t, ".version") || starts(t, ".target") || starts(t, ".address_size")) {
			sb_addc(&pt->body, '\n');  /* keep the line numbers */
			continue;
		}
		for (const char *q = line; q < line + l;) {
			int hit = -1;
			if (ident_char(*q) && (q == line || (!ident_char(q[-1]) && q[-1] != '%' && q[-1] != '.')))
				for (int i = 0; i < pt->nnames && hit < 0; i++) {
					size_t nl = strlen(pt->names[i]);
					if (!strncmp(q, pt->names[i], nl) && !ident_char(q[nl]))
						hit = i;
				}
			if (hit < 0) {
				sb_addc(&pt->body, *q++);
				continue;
			}
			sb_add(&pt->body, pt->names[hit]);
			sb_add(&pt->body, suffix);
			q += strlen(pt->names[hit]);
		}
		sb_addc(&pt->body, '\n');
	}
}

/* Copy s without every occurrence of cut. */
static void add_without(strbuf *out, const char *s, size_t n, const char *cut)
{
	size_t cl = strlen(cut);
	for (size_t i = 0; i < n;) {
		if (i + cl <= n && !strncmp(s + i, cut, cl) && !isdigit((unsigned char)s[i + cl])) {
			i += cl;
			continue;
		}
		sb_addc(out, s[i++]);
	}
}

/* The section of `Function : name` in a cuobjdump listing: [*b, *e). */
static int section(const char *text, const char *name, const char **b, const char **e)
{
	size_t nl = strlen(name);
	for (const char *p = text; (p = strstr(p, "Function : ")); p++) {
		const char *q = p + strlen("Function : ");
		if (strncmp(q, name, nl) || (q[nl] != '\n' && q[nl] != ' ' && q[nl] != '\r'))
			continue;
		while (p > text && p[-1] != '\n')
			p--;
		*b = p;
		const char *next = strstr(q, "Function : ");
		if (next)
			while (next > q && next[-1] != '\n')
				next--;
		*e = next ? next : q + strlen(q);
		return 0;
	}
	return -1;
}

typedef struct {
	const ins_tools *tools;
	const ins_input *in;
	ins_report *reps;
	part *parts;
	const char *arch;
	int *member;       /* file indices, chunk after chunk */
	int *start;        /* chunk c: member[start[c] .. start[c + 1]) */
	int nchunks;
	int *redo;
	const ins_progress *progress;
} merge_job;

/* Assemble and disassemble one chunk; fill its members' SASS, or mark them
 * to redo alone (the module failed), or give them the tool's error. */
static void run_chunk(merge_job *j, int c)
{
	const int *m = j->member + j->start[c];
	int nm = j->start[c + 1] - j->start[c];
	strbuf text, log, sass;
	sb_init(&text);
	sb_init(&log);
	sb_init(&sass);
	sb_add(&text, j->parts[m[0]].header);
	for (int i = 0; i < nm; i++)
		sb_add(&text, sb_str(&j->parts[m[i]].body));
	ins_res res;
	ins_cubin cubin = {0};
	char err[512];
	int st = text.oom ? INS_ETOOL : ins_ptxas_text(j->tools->ptxas, sb_str(&text), j->arch, &res, &cubin, &log, err, sizeof err);
	if (st == INS_OK)
		st = ins_cuobjdump(j->tools->cuobjdump, &cubin, &sass, err, sizeof err);
	ins_cubin_free(&cubin);
	for (int i = 0; i < nm; i++) {
		ins_report *r = &j->reps[m[i]];
		const char *b, *e;
		char suffix[32];
		if (st == INS_ENOTOOL || (st == INS_ETOOL && !text.oom)) {
			/* the tool itself: alone it would fail (or time out) the same way */
			r->status = st;
			snprintf(r->err, sizeof r->err, "%s", err);
			continue;
		}
		if (st != INS_OK || section(sb_str(&sass), r->res.function, &b, &e)) {
			j->redo[m[i]] = 1;
			continue;
		}
		const char *first = strstr(sb_str(&sass), "Function : ");
		while (first > sb_str(&sass) && first[-1] != '\n')
			first--;
		snprintf(suffix, sizeof suffix, SUFFIX "%d", m[i]);
		sb_addn(&r->sass_text, sb_str(&sass), (size_t)(first - sb_str(&sass)));
		add_without(&r->sass_text, b, (size_t)(e - b), suffix);
		ins_sass_parse(sb_str(&r->sass_text), &r->sass, &r->listing);
		r->have_sass = 1;
		ins_ipb_report(r, j->in[m[i]].tile);
	}
	sb_free(&text);
	sb_free(&log);
	sb_free(&sass);
}

static void chunk_one(void *arg, int c)
{
	merge_job *j = arg;
	run_chunk(j, c);
	if (j->progress)
		j->progress->step(j->progress->ud, "merged modules disassembled", j->nchunks);
}

/* 1 when file i can join chunk c (same header, an entry name of its own). */
static int fits(const merge_job *j, const int *chunk_of, int n, int first, int c, int i)
{
	if (strcmp(j->parts[first].header, j->parts[i].header))
		return 0;
	for (int k = 0; k < n; k++)
		if (chunk_of[k] == c && !strcmp(j->reps[k].res.function, j->reps[i].res.function))
			return 0;
	return 1;
}

/* Files to chunks: chunk_of[i] for each eligible file (-1 for the others),
 * then j->member and j->start in chunk order. */
static void assign(merge_job *j, int n, int eligible, int jobs, int *chunk_of, int *first, int *size)
{
	/* files / jobs a module, from 8 (nvdisasm's start paid for enough) to 64
	 * (ptxas on a module of 64 takes seconds, far from the tool timeout) */
	int cap = (eligible + jobs - 1) / jobs;
	cap = cap < 8 ? 8 : cap > 64 ? 64 : cap;
	for (int i = 0; i < n; i++) {
		if (chunk_of[i] != -2)
			continue;
		chunk_of[i] = -1;
		int c = 0;
		while (c < j->nchunks && !(size[c] < cap && fits(j, chunk_of, n, first[c], c, i)))
			c++;
		if (c == j->nchunks)
			first[j->nchunks++] = i;
		chunk_of[i] = c;
		size[c]++;
	}
	int at = 0;
	for (int c = 0; c < j->nchunks; c++) {
		j->start[c] = at;
		for (int i = 0; i < n; i++)
			if (chunk_of[i] == c)
				j->member[at++] = i;
	}
	j->start[j->nchunks] = at;
}

void ins_merge_sass(const ins_tools *tools, const ins_input *in, int n, const char *arch, int jobs,
		    ins_report *reps, int *redo, ins_batch_info *info, const ins_progress *progress)
{
	part *parts = calloc((size_t)n + 1, sizeof *parts);
	int *member = calloc((size_t)n + 1, sizeof *member), *start = calloc((size_t)n + 2, sizeof *start);
	int *chunk_of = calloc((size_t)n + 1, sizeof *chunk_of), *first = calloc((size_t)n + 1, sizeof *first);
	int *size = calloc((size_t)n + 1, sizeof *size);
	int ok = parts && member && start && chunk_of && first && size;
	merge_job j = {tools, in, reps, parts, arch, member, start, 0, redo, progress};
	int eligible = 0;
	for (int i = 0; i < n; i++) {
		redo[i] = !ok && reps[i].status == INS_OK;
		if (!ok)
			continue;
		sb_init(&parts[i].body);
		chunk_of[i] = -1;
		if (reps[i].status != INS_OK)
			continue;
		char *own = in[i].ptx ? NULL : fs_read_input(in[i].path, FS_INPUT_MAX, NULL, reps[i].err, sizeof reps[i].err);
		const char *ptx = in[i].ptx ? in[i].ptx : own;
		if (!ptx || reps[i].res.nfunc != 1 || scan(ptx, &parts[i])) {
			redo[i] = 1;
		} else {
			rewrite(ptx, i, &parts[i]);
			chunk_of[i] = -2;  /* to place */
			eligible++;
		}
		free(own);
	}
	if (eligible) {
		if (jobs < 1)
			jobs = 1;
		assign(&j, n, eligible, jobs, chunk_of, first, size);
		pool_each(j.nchunks, jobs, chunk_one, &j);
		info->modules = j.nchunks;
		for (int i = 0; i < n; i++)
			info->merged += chunk_of[i] >= 0 && !redo[i] && reps[i].have_sass;
	}
	for (int i = 0; ok && i < n; i++)
		sb_free(&parts[i].body);
	free(parts);
	free(member);
	free(start);
	free(chunk_of);
	free(first);
	free(size);
}
