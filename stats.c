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


double median(const double *v, size_t n)
{
	double tmp[STATS_MAX];
	size_t i, m = 0;

	for (i = 0; i < n && m < STATS_MAX; i++)
		tmp[m++] = v[i];
	if (!m)
		return NAN;
	qsort(tmp, m, sizeof(tmp[0]), cmp_double);
	return m % 2 ? tmp[m / 2] : (tmp[m / 2 - 1] + tmp[m / 2]) / 2;
}
