/* list: `ptxpose list`'s rows and their printing (cmd_list.c gathers the
 * reports, list_out.c turns them into the table, CSV or JSON). */
#ifndef CLI_LIST_H
#define CLI_LIST_H

#include "common/strbuf.h"
#include "inspect/inspect.h"

enum { C_NAME, C_ELEM, C_TILE, C_BLOCK, C_VEC, C_SMEM, C_REGS, C_SMEMB, C_SPILL,
       C_LDG, C_STG, C_BANK, NCOL };

typedef struct {
	char cell[NCOL][64];
	char error[512];  /* instead of the ptxas and SASS columns */
} list_row;

/* The table's cells of one report. */
void list_fill_row(const ins_report *r, list_row *row);
/* The aligned table of n rows on stdout. */
void list_print_table(const list_row *rows, int n);

#define LIST_CSV_HEAD "file,name,kernel,elem,tile,per_block,block,vec,smem,registers,smem_bytes," \
		 "stack_bytes,spill_store_bytes,spill_load_bytes,ldg128,stg128,ldl,stl," \
		 "st_wavefronts,st_ideal,ld_wavefronts,ld_ideal,status,error\n"

/* One CSV line (after LIST_CSV_HEAD), one JSON object. */
void list_csv_row(const ins_report *r, const list_row *row, strbuf *out);
void list_json_row(const ins_report *r, const list_row *row, strbuf *out);

#endif
