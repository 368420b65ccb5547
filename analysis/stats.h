/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_STATS_H
#define FLASHBENCH_STATS_H

#include <stddef.h>

/* A normal sample's median absolute deviation times this: its sigma. */
#define MAD_SD 1.4826
/*
 * A median's standard error over a mean's: medians are a quarter less
 * efficient (sqrt(pi / 2) for normal noise), the price of ignoring
 * outliers.
 */
#define MEDIAN_SE 1.25

/* Median of the first n (at most STATS_MAX) finite values; NAN if none. */
#define STATS_MAX 128
double median(const double *v, size_t n);
/* The q-quantile (0..1) of the same values, interpolated; NAN if none. */
double quantile(const double *v, size_t n, double q);
/* P(T > t) for Student's t with nu degrees of freedom. */
double t_tail(double t, double nu);
/* The t with t_tail(t, nu) = p, 0 < p < 0.5. */
double t_quantile(double p, double nu);
/* Sort n values in place, smallest first. */
void sort_values(double *v, size_t n);
/* Median of any n values, sorting them in place; NAN if none. */
double median_sorting(double *v, size_t n);

#endif
