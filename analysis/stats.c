// SPDX-License-Identifier: GPL-2.0
/* Robust statistics shared by the verdict families. */
#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"

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

/*
 * The continued fraction of the regularized incomplete beta function,
 * evaluated by the modified Lentz method.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, num, step;
	int m;

	d = 1 / (fabs(d) > tiny ? d : tiny);
	h = d;
	for (m = 1; m < 300; m++) {
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = 1 / (fabs(d) > tiny ? d : tiny);
		c = 1 + num / c;
		c = fabs(c) > tiny ? c : tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x /
		      ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = 1 / (fabs(d) > tiny ? d : tiny);
		c = 1 + num / c;
		c = fabs(c) > tiny ? c : tiny;
		step = d * c;
		h *= step;
		if (fabs(step - 1) < 1e-12)
			break;
	}
	return h;
}

/* I_x(a, b): the regularized incomplete beta function. */
static double ibeta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double t_tail(double t, double nu)
{
	double p;

	if (!(nu > 0) || isnan(t))
		return NAN;
	p = ibeta(nu / 2, 0.5, nu / (nu + t * t)) / 2;
	return t > 0 ? p : 1 - p;
}

double t_quantile(double p, double nu)
{
	double lo = 0, hi = 1e6, mid;
	int i;

	if (!(p > 0 && p < 0.5) || !(nu > 0))
		return NAN;
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (t_tail(mid, nu) > p)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

void sort_values(double *v, size_t n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
}

double median_sorting(double *v, size_t n)
{
	if (!n)
		return NAN;
	sort_values(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
