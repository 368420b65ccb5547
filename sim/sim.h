/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SIM_H
#define FLASHBENCH_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "dev.h"

/* Ground truth of a simulated card; see sim_help() for the keys. */
struct sim_params {
	const char *profile;	/* name of the profile it started from */
	uint64_t size;		/* bytes */
	uint64_t au;		/* allocation unit (erase block) */
	uint64_t page;		/* flash page */
	unsigned open;		/* AUs open for linear writes */
	unsigned random;	/* of those, how many accept any order */
	unsigned fat;		/* number of FAT-optimized AUs */
	unsigned fatstart;	/* index of the first one */
	double noise;		/* percent jitter */
	uint64_t seed;
	/* reads: a read ending at a multiple of zone costs the profile's
	 * edge (0: none); baseline shifts of up to drift percent; slowau
	 * percent of AU boundaries slower to cross */
	uint64_t zone;
	double drift, slowau;
	/*
	 * multi-plane reads: pages are read planes at a time, a group of
	 * planes pages aligned to planes * page; each further page of a
	 * group a read touches costs planecost percent of a page read (1:
	 * every page costs a whole one, as before)
	 */
	unsigned planes;
	double planecost;
	/*
	 * percent of the profile's cost of a read crossing an AU boundary:
	 * 0 leaves -a nothing to see the AU by (only writes show it)
	 */
	double xcost;
	/*
	 * writes beyond the classic model: the share of its missing part
	 * an AU closed early costs to copy; past the open limit, writes at
	 * level percent of the normal rate instead (0: off); writes up to
	 * small bytes into an AU that is not open skip the slots (0: none);
	 * out-of-order writes in a random-capable AU cost rcost percent more
	 * programming; pause percent chance per MiB written of a
	 * housekeeping pause
	 */
	double merge, level, rcost, pause;
	uint64_t small;
	/*
	 * rmerge=P: a random-capable AU merges as it is rewritten, so every
	 * write into one runs at P percent of the in-order rate, whatever
	 * its order (0: off)
	 */
	double rmerge;
	/*
	 * rmw=P: a write covering part of a page reads that page back and
	 * programs it whole, at P percent of a page copy more (0: off)
	 */
	double rmw;
	/*
	 * stall=N:DURATION: write k (from 1, since the device was opened)
	 * takes stall_ns more where k mod N is seed mod N (N = stall_every,
	 * 0: never): a known count of stalls, placed by the seed
	 */
	uint64_t stall_every, stall_ns;
	/*
	 * cache=SIZE:RATE: a write cache (SLC or RAM) of cache_size bytes;
	 * bytes written past it since the device was opened go at no more
	 * than cache_rate bytes per second (0: no cache); a full cache
	 * holds cache_size bytes, and idle time (dev_idle()) frees
	 * cache_recover bytes of it per second (0: never)
	 */
	uint64_t cache_size, cache_rate, cache_recover;
	/*
	 * fake=SIZE[:wrap|:zero]: the card stores only fake_size bytes (0:
	 * all it claims); above, writes wrap (fake_wrap) or are dropped
	 */
	uint64_t fake_size;
	/*
	 * iops=READ:WRITE: a read or write of at most SIM_IOPS_IO bytes
	 * that does not continue the I/O before it costs 1/READ or
	 * 1/WRITE seconds (before jitter) in place of the generic model,
	 * and the write takes no AU slot; 0:0: the generic model
	 */
	uint64_t iops_read, iops_write;
	int fake_wrap;
	/* fault injection: any I/O touching [fail, fail+1) returns -EIO */
	int has_fail;
	uint64_t fail;
	/* vanish after this many I/Os (a card pulled out): -ENODEV */
	uint64_t vanish;
	/*
	 * class=: the classes the card's SD Status register states, in its
	 * fields' own codes (SPEED_CLASS 0-4, UHS_SPEED_GRADE, VIDEO_SPEED_
	 * CLASS, APP_PERF_CLASS); with has_class the registers carry an ssr
	 */
	int has_class;
	unsigned ssr_speed, ssr_uhs, ssr_video, ssr_app;
};

/* Parse "sim:[PROFILE,]key=value,...".  0 or -EINVAL with a message. */
int sim_parse(const char *spec, struct sim_params *p, char *err,
	      size_t errlen);

/* Print the profiles (with the seed each models) and the keys. */
void sim_help(FILE *f);

/* The ground truth of an open sim device. */
const struct sim_params *sim_get_params(const struct dev *d);

#endif
