/* model_cost: predicted time = sum of theta * feature, and the ranking of
 * candidates. bench/fit_model.py computes the same sum (keep in sync). */
#include "lib/model.h"

#include <stdlib.h>

void model_estimate_of(const model_params *p, const model_kernel *k, const model_features *f,
		       model_estimate *e)
{
	e->us = 0;
	for (int i = 0; i < MF_N; i++) {
		e->contrib[i] = model_theta(p, k, i, NULL) * f->x[i];
		e->us += e->contrib[i];
	}
}

int model_rank(const double *us, int n, double margin, int *order)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	/* insertion sort: stable, and n is the kernels of one width */
	for (int i = 1; i < n; i++) {
		int v = order[i], j = i;
		while (j > 0 && us[order[j - 1]] > us[v]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
	return n > 1 && us[order[1]] <= us[order[0]] * (1 + margin);
}

double model_copy_us(const model_device *d, const model_problem *p)
{
	return 2.0 * (double)(p->rows * p->cols * p->batch * p->es) / (d->bw_gbps * 1e3);
}
