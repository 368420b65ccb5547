/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_STATS_H
#define FLASHBENCH_STATS_H

#include <stddef.h>

/* Median of the first n (at most STATS_MAX) finite values; NAN if none. */
#define STATS_MAX 128
double median(const double *v, size_t n);
/* The q-quantile (0..1) of the same values, interpolated; NAN if none. */
double quantile(const double *v, size_t n, double q);

#endif
