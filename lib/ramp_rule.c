// SPDX-License-Identifier: GPL-2.0
/* The open-AU ramp's judgement of a step (see ramp_rule.h). */
#include <math.h>
#include <stdlib.h>

#include "lib/ramp_rule.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

unsigned ramp_rounds(unsigned n, int shuffled)
{
	unsigned writes = (RAMP_JUDGED + n - 1) / n;
	unsigned least = n < RAMP_WIDE ? RAMP_ROUNDS : RAMP_ROUNDS_WIDE;

	return shuffled && least > writes ? least : writes;
}

double ramp_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum ramp_judged ramp_judge(struct ramp_best *b,
			    const double ns[RAMP_NPARTS])
{
	enum ramp_judged j = RAMP_HELD_STEP;
	int q;

	for (q = 0; q < RAMP_NPARTS; q++)
		if (!isfinite(ns[q]) || ns[q] <= 0)
			return RAMP_UNJUDGED;
	for (q = 0; q < RAMP_NPARTS; q++) {
		if (b->ns[q] <= 0)
			continue;
		if (ns[q] > RAMP_COLLAPSE * b->ns[q])
			return RAMP_COLLAPSED;
		if (ns[q] > RAMP_HELD * b->ns[q])
			j = RAMP_UNCLEAR;
	}
	if (j != RAMP_HELD_STEP)
		return j;
	for (q = 0; q < RAMP_NPARTS; q++)
		if (b->ns[q] <= 0 || ns[q] < b->ns[q])
			b->ns[q] = ns[q];
	return j;
}

enum ramp_judged ramp_judge_random_first(struct ramp_best *b,
					 const double ns[RAMP_NPARTS])
{
	int q;

	for (q = 0; q < RAMP_NPARTS; q++)
		if (!isfinite(ns[q]) || ns[q] <= 0)
			return RAMP_UNJUDGED;
	for (q = 0; q < RAMP_NPARTS; q++)
		if (b->ns[q] > 0 && ns[q] > RAMP_NO_SLOT * b->ns[q])
			return RAMP_COLLAPSED;
	for (q = 0; q < RAMP_NPARTS; q++)
		b->ns[q] = ns[q];
	return RAMP_HELD_STEP;
}
