// SPDX-License-Identifier: GPL-2.0
/*
 * The latency histogram: each percentile within the documented factor
 * 2^(1/16) of the exact one from a sorted list, the slowest write and
 * the count over the threshold exact.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/latency.h"
#include "tests/check.h"

#define NSAMPLES 20000

static uint64_t sample[NSAMPLES];

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* log-uniform over 1 us .. 100 s, with a seeded xorshift */
static uint64_t draw(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return (uint64_t)(1e3 * pow(1e8, (double)(*state >> 11) / 0x1p53));
}

/* The worst ratio of a percentile to the exact one, over every seed. */
static double worst_error(unsigned seeds, uint64_t *over_wrong)
{
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999, 1.0 };
	double worst = 0, e;
	struct latency l;
	uint64_t st, over;
	unsigned s, i;

	for (s = 1; s <= seeds; s++) {
		latency_init(&l, LAT_STALL_NS);
		st = 0x9e3779b97f4a7c15ull * s;
		for (i = 0, over = 0; i < NSAMPLES; i++) {
			sample[i] = draw(&st);
			over += sample[i] > LAT_STALL_NS;
			latency_add(&l, sample[i]);
		}
		*over_wrong += l.over != over;
		qsort(sample, NSAMPLES, sizeof(*sample), cmp_u64);
		for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
			size_t rank = (size_t)ceil(qs[i] * NSAMPLES);
			uint64_t want = sample[rank - 1];

			e = fabs(log2((double)latency_quantile(&l, qs[i]) /
				      (double)want));
			worst = fmax(worst, e);
		}
		*over_wrong += l.max_ns != sample[NSAMPLES - 1];
	}
	return exp2(worst);
}

int main(void)
{
	uint64_t wrong = 0;
	double bound = exp2(1.0 / (2 * LAT_PER_OCTAVE)) + 1e-9;
	double err = worst_error(20, &wrong);
	struct latency l;

	CHECK(err <= bound,
	      "percentiles within x%.4f of the exact (worst x%.4f)", bound,
	      err);
	CHECK(!wrong, "slowest write and count over the threshold exact");
	latency_init(&l, LAT_STALL_NS);
	CHECK(latency_quantile(&l, 0.5) == 0 && l.count == 0,
	      "no write: every percentile 0");
	latency_add(&l, 5000);
	latency_add(&l, 200000000000ull);	/* past the last bucket */
	CHECK(latency_quantile(&l, 1.0) == 200000000000ull &&
	      latency_quantile(&l, 0.5) == 5000 && l.over == 1,
	      "past the buckets: max exact; one sample clamps to itself");
	return CHECK_DONE();
}
