/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_LATENCY_H
#define FLASHBENCH_LATENCY_H

#include <stdint.h>

/*
 * The latencies of a row's writes in fixed memory: log-spaced buckets,
 * LAT_PER_OCTAVE to a doubling, from LAT_MIN_NS up over 100 s.  A
 * percentile is the geometric middle of the bucket its sample fell in,
 * so within a factor 2^(1/16) (4.4 %) of that sample from 1 us to 134 s;
 * the slowest write and the writes over the stall threshold are counted
 * exactly, not from the buckets.
 */
#define LAT_PER_OCTAVE	8
#define LAT_MIN_NS	1000ull		/* 1 us: below, one bucket */
#define LAT_OCTAVES	27		/* 1 us * 2^27: 134 s */
/* one bucket under LAT_MIN_NS, one over the last octave */
#define LAT_NBUCKETS	(LAT_PER_OCTAVE * LAT_OCTAVES + 2)

/* A write slower than this is a stall unless --stall says otherwise. */
#define LAT_STALL_NS	100000000ull	/* 100 ms: a logger's buffer */

struct latency {
	uint32_t bucket[LAT_NBUCKETS];
	uint64_t count;		/* writes */
	uint64_t over;		/* writes slower than threshold_ns */
	uint64_t min_ns, max_ns;
	uint64_t threshold_ns;
};

void latency_init(struct latency *l, uint64_t threshold_ns);
void latency_add(struct latency *l, uint64_t ns);
/*
 * What bucket i stands for: its geometric middle, within the fastest and
 * the slowest write (those for the buckets under and over the octaves).
 */
double latency_bucket_ns(const struct latency *l, unsigned i);
/* The q-quantile (0 < q <= 1) in ns; 0 when there is no write. */
uint64_t latency_quantile(const struct latency *l, double q);

#endif
