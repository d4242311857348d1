/* ins_tap: the TAP counter the inspect/ unit tests share. */
#ifndef TESTS_UNIT_INS_TAP_H
#define TESTS_UNIT_INS_TAP_H

#include <stdio.h>

static int n_test, n_fail;

static inline void ok(int cond, const char *what)
{
	n_test++;
	if (!cond)
		n_fail++;
	printf("%sok %d - %s\n", cond ? "" : "not ", n_test, what);
}

/* Print the plan; the exit status for main. */
static inline int done_testing(void)
{
	printf("1..%d\n", n_test);
	return n_fail != 0;
}

#endif
