// sass: read `cuobjdump -sass` listings. An instruction line looks like
//
//     /*0190*/              @!P0 STG.E.128 desc[UR6][R2.64], R4 ;   /* 0x0000... */
//                                                                    /* 0x000f... */
//
// an address comment, an optional guard, the opcode with dot-separated
// modifiers, operands up to ';', then the encoding, whose second half sits
// alone on the next line. Widths are modifiers: U8/S8, U16/S16, 64, 128;
// none means 32 bits. Other modifiers (E, CONSTANT, EF, NA, STRONG.GPU,
// LTC128B, ...) say nothing about the width.
#include "inspect/inspect.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum ins_class cls;
} classes[] = {
	{"LDG", INS_C_LDG}, {"STG", INS_C_STG}, {"LDS", INS_C_LDS}, {"STS", INS_C_STS},
	{"LDL", INS_C_LDL}, {"STL", INS_C_STL}, {"LD", INS_C_LD},   {"ST", INS_C_ST},
	{"BAR", INS_C_BAR}, {"NOP", INS_C_NOP},
};

static const char *const width_names[INS_NWIDTH] = {"8", "16", "32", "64", "128"};
static const unsigned width_bits[INS_NWIDTH] = {8, 16, 32, 64, 128};

const char *ins_width_name(enum ins_width w) { return width_names[w]; }
unsigned ins_width_bits(enum ins_width w) { return width_bits[w]; }

const char *ins_class_name(enum ins_class c)
{
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
		if (classes[i].cls == c)
			return classes[i].name;
	return "other";
}

static int is_memory(enum ins_class c)
{
	return c >= INS_C_LDG && c <= INS_C_ST;
}

static enum ins_width width_of(const char *mod, size_t n)
{
	static const struct {
		const char *m;
		enum ins_width w;
	} mods[] = {
		{"U8", INS_W8}, {"S8", INS_W8}, {"U16", INS_W16}, {"S16", INS_W16},
		{"32", INS_W32}, {"64", INS_W64}, {"128", INS_W128},
	};
	for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++)
		if (strlen(mods[i].m) == n && !strncmp(mods[i].m, mod, n))
			return mods[i].w;
	return INS_NWIDTH;
}

/* Class and width from "STG.E.128.STRONG.GPU". */
static void decode_opcode(ins_insn *in)
{
	const char *op = in->opcode;
	size_t base = strcspn(op, ".");
	in->cls = INS_C_OTHER;
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
		if (strlen(classes[i].name) == base && !strncmp(classes[i].name, op, base))
			in->cls = classes[i].cls;
	in->width = INS_W32;
	if (!is_memory(in->cls))
		return;
	for (const char *m = op + base; *m == '.';) {
		m++;
		size_t n = strcspn(m, ".");
		enum ins_width w = width_of(m, n);
		if (w != INS_NWIDTH)
			in->width = w;
		m += n;
	}
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

int ins_sass_line(const char *line, ins_insn *out)
{
	const char *p = skip_blank(line);
	if (strncmp(p, "/*", 2) || !isxdigit((unsigned char)p[2]))
		return 0;
	char *end;
	unsigned long addr = strtoul(p + 2, &end, 16);
	if (strncmp(end, "*/", 2))
		return 0;
	p = skip_blank(end + 2);
	memset(out, 0, sizeof *out);
	out->addr = (unsigned)addr;
	if (*p == '@') {
		size_t g = strcspn(p, " \t");
		if (g >= sizeof out->guard)
			return 0;
		memcpy(out->guard, p, g);
		out->predicated = strcmp(out->guard, "@PT") != 0;
		p = skip_blank(p + g);
	}
	size_t n = strcspn(p, " \t;");
	if (n == 0 || n >= sizeof out->opcode)
		return 0;
	memcpy(out->opcode, p, n);
	out->opcode[n] = '\0';
	size_t tl = strcspn(p, ";\n");
	if (p[tl] == ';')
		tl++;
	else if (strstr(p, "/*")) /* no ';': stop at the encoding comment */
		tl = (size_t)(strstr(p, "/*") - p);
	while (tl > 0 && (p[tl - 1] == ' ' || p[tl - 1] == '\t' || p[tl - 1] == '\r'))
		tl--;
	snprintf(out->text, sizeof out->text, "%.*s", (int)tl, p);
	decode_opcode(out);
	return 1;
}

int ins_insn_is_self_branch(const ins_insn *in)
{
	if (strcmp(in->opcode, "BRA") || (in->guard[0] && strcmp(in->guard, "@PT")))
		return 0;
	const char *t = skip_blank(in->text + strlen("BRA"));
	char *end;
	if (strncmp(t, "0x", 2) || !isxdigit((unsigned char)t[2]))
		return 0;
	unsigned long target = strtoul(t + 2, &end, 16);
	t = skip_blank(end);
	return target == in->addr && (*t == ';' || !*t);
}

unsigned ins_sass_count(const ins_sass *s, enum ins_class c)
{
	unsigned n = 0;
	for (int w = 0; w < INS_NWIDTH; w++)
		n += s->count[c][w];
	return n;
}

void ins_sass_parse(const char *text, ins_sass *s, strbuf *listing)
{
	memset(s, 0, sizeof *s);
	char line[1024];
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		snprintf(line, sizeof line, "%.*s", (int)n, p);
		p += n + (nl ? 1 : 0);
		ins_insn in;
		const char *fn = strstr(line, "Function : ");
		if (fn && s->nfunc++ == 0) {
			fn += strlen("Function : ");
			snprintf(s->function, sizeof s->function, "%.*s", (int)strcspn(fn, " \t\r"), fn);
		}
		if (ins_sass_line(line, &in)) {
			s->count[in.cls][in.width]++;
			if (in.cls != INS_C_NOP && !ins_insn_is_self_branch(&in))
				s->total++;
			if (is_memory(in.cls)) {
				s->mem++;
				s->mem_pred += in.predicated != 0;
			}
			if (listing)
				sb_printf(listing, "        /*%04x*/ %5s %s\n", in.addr, in.guard, in.text);
			continue;
		}
		/* keep headers, drop the encoding-only continuation lines */
		if (listing && strncmp(skip_blank(line), "/* 0x", 5)) {
			size_t l = strlen(line);
			while (l > 0 && (line[l - 1] == ' ' || line[l - 1] == '\t' || line[l - 1] == '\r'))
				l--;
			sb_addn(listing, line, l);
			sb_addc(listing, '\n');
		}
	}
}
