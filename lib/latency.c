// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "lib/latency.h"

void latency_init(struct latency *l, uint64_t threshold_ns)
{
	memset(l, 0, sizeof(*l));
	l->min_ns = UINT64_MAX;
	l->threshold_ns = threshold_ns;
}

static unsigned bucket_of(uint64_t ns)
{
	double b;

	if (ns < LAT_MIN_NS)
		return 0;
	b = floor(LAT_PER_OCTAVE * log2((double)ns / LAT_MIN_NS));
	return b >= LAT_NBUCKETS - 2 ? LAT_NBUCKETS - 1 : 1 + (unsigned)b;
}

void latency_add(struct latency *l, uint64_t ns)
{
	l->bucket[bucket_of(ns)]++;
	l->count++;
	l->over += ns > l->threshold_ns;
	if (ns < l->min_ns)
		l->min_ns = ns;
	if (ns > l->max_ns)
		l->max_ns = ns;
}

double latency_bucket_ns(const struct latency *l, unsigned i)
{
	double v;

	if (i == 0)
		return (double)l->min_ns;
	if (i >= LAT_NBUCKETS - 1)
		return (double)l->max_ns;
	v = LAT_MIN_NS * exp2((i - 0.5) / LAT_PER_OCTAVE);
	return fmin(fmax(v, (double)l->min_ns), (double)l->max_ns);
}

uint64_t latency_quantile(const struct latency *l, double q)
{
	/* the sample of rank ceil(q * count), as a sorted list has it */
	uint64_t rank = (uint64_t)ceil(q * (double)l->count), seen = 0;
	unsigned i;

	if (!l->count)
		return 0;
	if (rank < 1)
		rank = 1;
	for (i = 0; i < LAT_NBUCKETS - 1; i++) {
		seen += l->bucket[i];
		if (seen >= rank)
			break;
	}
	return (uint64_t)(latency_bucket_ns(l, i) + 0.5);
}
