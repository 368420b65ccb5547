// SPDX-License-Identifier: GPL-2.0
/* Robust statistics shared by the verdict families. */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double quantile(const double *v, size_t n, double q)
{
	double tmp[STATS_MAX], at;
	size_t i, m = 0, k;

	for (i = 0; i < n && m < STATS_MAX; i++)
		tmp[m++] = v[i];
	if (!m)
		return NAN;
	qsort(tmp, m, sizeof(tmp[0]), cmp_double);
	at = q * (double)(m - 1);
	k = (size_t)at;
	return k + 1 < m ? tmp[k] + (at - (double)k) * (tmp[k + 1] - tmp[k]) :
			   tmp[k];
}

double median(const double *v, size_t n)
{
	return quantile(v, n, 0.5);
}
