/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_ANALYSIS_H
#define FLASHBENCH_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/table.h"

enum confidence { CONF_INCONCLUSIVE, CONF_LOW, CONF_MEDIUM, CONF_HIGH };

enum verdict_type { V_NONE, V_BYTES, V_COUNT, V_LIST };

/* A size the device claims, checked against the measured erase size. */
struct claim {
	const char *name;	/* "ssr_au_size", "preferred_erase_size",
				   "discard_granularity" */
	uint64_t bytes;
	const char *source;	/* where it came from, or NULL */
	int agrees;		/* -1: nothing measured to check it against */
};

#define MAX_CLAIMS 3

/* One conclusion: a value, how sure, and the rows it rests on. */
struct verdict {
	enum verdict_type type;	/* V_NONE: not derivable from these tables */
	int is_null;		/* looked, found nothing definite */
	uint64_t value;		/* V_BYTES or V_COUNT */
	uint64_t list[TABLE_MAXCOLS];	/* V_LIST (fat_aus: AU indices) */
	unsigned nlist;
	int at_least;		/* open-AU: even the largest N tried was fine */
	int at_most;		/* open-AU: even the smallest N tried collapsed */
	/* open-AU, with at_least: N=value held and N=upto + 1 collapsed,
	 * with no N between tried; 0: no upper bound */
	uint64_t upto;
	int direction;		/* fat_aus: -1 slower than the other AUs where
				   write order does not matter, +1 faster */
	enum confidence conf;
	char evidence[512];
	char note[256];		/* secondary finding, e.g. multi-plane page */
	struct claim claims[MAX_CLAIMS];	/* erase_size only */
	unsigned nclaims;
};

/* What is known about the device besides the tables. */
struct analysis_ctx {
	uint64_t dev_size;		/* 0 = unknown */
	uint64_t preferred_erase;	/* sysfs preferred_erase_size, 0 = none */
	/* how the kernel got it (identity/identity.c), NULL = not known */
	const char *preferred_erase_src;
	uint64_t au_size;		/* the card's SSR AU_SIZE, 0 = none */
	uint64_t discard_granularity;	/* the queue's, 0 = unknown */
};

struct analysis {
	struct verdict erase_size;
	struct verdict page_size;
	struct verdict open_au_linear;
	struct verdict open_au_random;
	struct verdict min_full_speed_write;
	struct verdict fat_aus;
};

/* Pure functions over tables: no I/O; reentrant. */
void analyze(const struct table *tabs, size_t ntabs,
	     const struct analysis_ctx *ctx, struct analysis *out);

/*
 * openau_ramp.c: the count from the first ramp table of that order,
 * where the -O runs gave none (v->type V_NONE); the survey reads its
 * own ramp with it, apart from the -O runs.
 */
void ramp_family(const struct table *tabs, size_t n, int random,
		 struct verdict *v);

/* What a verdict carries besides value, confidence, evidence and note. */
enum verdict_traits {
	VT_BOUND = 1 << 0,	/* at_least, at_most: the value is a bound */
	VT_CLAIMS = 1 << 1,	/* the sizes the device claims */
	VT_LIST = 1 << 2,	/* a list of AUs, with their direction */
};

/* One verdict family: its verdict, and how it is reached. */
struct verdict_family {
	const char *key;	/* in the text lines and the JSON */
	size_t offset;		/* of its verdict in struct analysis */
	unsigned traits;	/* enum verdict_traits */
	/* sets its verdict from the tables and the verdicts above it;
	 * NULL: set by the family above, from the same reading */
	void (*run)(const struct table *tabs, size_t n,
		    const struct analysis_ctx *ctx, struct analysis *out);
};

/* The families in the order analyze() runs them; *n gets their count. */
const struct verdict_family *analysis_families(size_t *n);
const struct verdict *family_verdict(const struct analysis *a,
				     const struct verdict_family *f);

const char *confidence_name(enum confidence c);

/* No flash page is larger: writes of a multiple of it are whole pages. */
#define PAGE_MAX (64 * 1024ULL)

/*
 * The largest write size of an open-AU run over test AUs of erasesize
 * whose collapse tells the count (in random order, the random slots');
 * 0 where no size from PAGE_MAX (a page cannot slow them) does.
 */
uint64_t open_au_telling_top(uint64_t erasesize, int random);

#endif
