/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_ANALYSIS_FAT_H
#define FLASHBENCH_ANALYSIS_FAT_H

/* Between the FAT verdict's files: what one -f table says. */
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "lib/table.h"

enum fat_kind {
	FAT_UNKNOWN,	/* too little to read */
	FAT_NONE,	/* no AU stands apart */
	FAT_SET,	/* these AUs do */
	FAT_PAIR,	/* two groups differ; either may be the special one */
};

/* What one -f table says on its own. */
struct fat_read {
	enum fat_kind kind;
	uint64_t set, other;	/* special AUs; FAT_PAIR: the two groups */
	uint64_t erasesize;	/* what its AU indices count in */
	unsigned nc;
	struct verdict v;
};

static inline uint64_t bit(unsigned j)
{
	return 1ULL << j;
}

/* fat_area.c: read one -f table on its own. */
void fat_table(const struct table *t, struct fat_read *r);

/*
 * fat_sig.c: whether a run of AUs of a linear -f table (or the
 * rest of them) stands apart from the others beyond the table's scatter.
 */
#define FAT_SIG_WEAK	0.05	/* a chance below it: a finding, low */
#define FAT_SIG_MEDIUM	0.01
#define FAT_SIG_HIGH	1e-4
/* Column levels: the upper quartile, as pauses only slow writes down. */
#define FAT_LEVEL_Q	0.75
/* The printed rates have three digits: no scatter is finer than that. */
#define FAT_SCATTER_MIN	0.005
struct fat_sig {
	uint64_t slow, fast;	/* the split that stands out most */
	double diff;		/* fast minus slow, log rate */
	double t;		/* diff in standard errors */
	double scatter;		/* of one measurement, log rate */
	double p;		/* chance of a split as clear among alike AUs */
	double bound;		/* no split differs by more (at medium) */
	size_t rows;		/* sizes measured in every AU */
	unsigned tests;		/* splits considered */
};

void fat_sig(const struct table *t, unsigned nc, size_t nr,
	     struct fat_sig *out);

#endif
