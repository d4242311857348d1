#include "gen/ptxb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD_COL 12  /* width of the "@!%pred " field */
#define OP_COL 28     /* width of the opcode field */

typedef struct {
	char type[8];
	char *name;
	char *why;
} reg_decl;

struct ptxb {
	reg_decl *regs;
	size_t nregs, capregs;
	strbuf module;  /* module-scope lines */
	strbuf body;    /* instructions */
	unsigned maxnreg;
	char err[200];
};

ptxb *ptxb_new(void)
{
	ptxb *b = calloc(1, sizeof *b);
	if (b) {
		sb_init(&b->module);
		sb_init(&b->body);
	}
	return b;
}

void ptxb_free(ptxb *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nregs; i++) {
		free(b->regs[i].name);
		free(b->regs[i].why);
	}
	free(b->regs);
	sb_free(&b->module);
	sb_free(&b->body);
	free(b);
}

const char *ptxb_error(const ptxb *b) { return b->err[0] ? b->err : NULL; }

void ptxb_maxnreg(ptxb *b, unsigned n) { b->maxnreg = n; }

static char *vformat(const char *fmt, va_list ap)
{
	strbuf sb;
	sb_init(&sb);
	sb_vprintf(&sb, fmt, ap);
	return sb.oom ? NULL : sb.data ? sb.data : calloc(1, 1);
}

const char *ptxb_reg(ptxb *b, const char *type, const char *why, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *role = vformat(fmt, ap);
	va_end(ap);
	char *name = role ? malloc(strlen(role) + 2) : NULL;
	char *w = strdup(why ? why : "");
	if (!name || !w || b->err[0]) {
		if (!b->err[0])
			snprintf(b->err, sizeof b->err, "out of memory");
		free(role);
		free(name);
		free(w);
		return "%invalid";
	}
	name[0] = '%';
	strcpy(name + 1, role);
	free(role);
	for (size_t i = 0; i < b->nregs; i++)
		if (!strcmp(b->regs[i].name, name)) {
			snprintf(b->err, sizeof b->err, "register %s declared twice", name);
			free(name);
			free(w);
			return "%invalid";
		}
	if (b->nregs == b->capregs) {
		size_t cap = b->capregs ? b->capregs * 2 : 64;
		reg_decl *p = realloc(b->regs, cap * sizeof *p);
		if (!p) {
			snprintf(b->err, sizeof b->err, "out of memory");
			free(name);
			free(w);
			return "%invalid";
		}
		b->regs = p;
		b->capregs = cap;
	}
	reg_decl *r = &b->regs[b->nregs++];
	snprintf(r->type, sizeof r->type, "%s", type);
	r->name = name;
	r->why = w;
	return name;
}

const char *ptxb_find(const ptxb *b, const char *role)
{
	for (size_t i = 0; i < b->nregs; i++)
		if (!strcmp(b->regs[i].name + 1, role))
			return b->regs[i].name;
	return NULL;
}

void ptxb_global(ptxb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&b->module, fmt, ap);
	va_end(ap);
	sb_addc(&b->module, '\n');
}

void ptxb_group(ptxb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_add(&b->body, "\n\t// ");
	sb_vprintf(&b->body, fmt, ap);
	sb_addc(&b->body, '\n');
	va_end(ap);
}

void ptxb_note(ptxb *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_add(&b->body, "\t// ");
	sb_vprintf(&b->body, fmt, ap);
	sb_addc(&b->body, '\n');
	va_end(ap);
}

void ptxb_label(ptxb *b, const char *name)
{
	sb_printf(&b->body, "%s:\n", name);
}

void ptxb_op(ptxb *b, const char *guard, const char *op, const char *fmt, ...)
{
	va_list ap;
	sb_addc(&b->body, '\t');
	size_t start = b->body.len;
	if (guard)
		sb_printf(&b->body, "@%s ", guard);
	while (b->body.len - start < GUARD_COL)
		sb_addc(&b->body, ' ');
	start = b->body.len;
	sb_add(&b->body, op);
	strbuf args;
	sb_init(&args);
	va_start(ap, fmt);
	sb_vprintf(&args, fmt, ap);
	va_end(ap);
	const char *a = sb_str(&args);
	while (*a == ' ')
		a++;
	if (*a) {
		do
			sb_addc(&b->body, ' ');
		while (b->body.len - start < OP_COL);
		sb_add(&b->body, a);
	}
	if (args.oom)
		b->body.oom = 1;
	sb_free(&args);
	sb_add(&b->body, ";\n");
}

int ptxb_finish(ptxb *b, strbuf *out, const char *header, const char *target,
		const char *entry, const char *params, unsigned ntid_x, unsigned ntid_y)
{
	if (b->err[0])
		return -1;
	sb_add(out, header);
	sb_printf(out, "\n.version 8.0\n.target %s\n.address_size 64\n", target);
	if (b->module.len) {
		sb_addc(out, '\n');
		sb_add(out, sb_str(&b->module));
	}
	sb_printf(out, "\n.visible .entry %s(\n%s)\n.reqntid %u, %u, 1\n", entry, params, ntid_x, ntid_y);
	if (b->maxnreg)
		sb_printf(out, ".maxnreg %u\n", b->maxnreg);
	sb_add(out, "{\n");
	sb_add(out, "\t// Registers, named by role.\n");
	size_t width = 0;
	for (size_t i = 0; i < b->nregs; i++) {
		size_t w = strlen(b->regs[i].type) + strlen(b->regs[i].name);
		if (w > width)
			width = w;
	}
	for (size_t i = 0; i < b->nregs; i++) {
		const reg_decl *r = &b->regs[i];
		sb_printf(out, "\t.reg .%s %s;", r->type, r->name);
		if (r->why[0]) {
			sb_pad_to(out, 1 + 10 + width + 2);
			sb_printf(out, " // %s", r->why);
		}
		sb_addc(out, '\n');
	}
	sb_add(out, sb_str(&b->body));
	sb_add(out, "}\n");
	if (out->oom) {
		snprintf(b->err, sizeof b->err, "out of memory");
		return -1;
	}
	return 0;
}
