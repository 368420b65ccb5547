/* SPDX-License-Identifier: GPL-2.0 */
/* What the simulated card's profiles, keys and model share. */
#ifndef FLASHBENCH_SIM_INTERNAL_H
#define FLASHBENCH_SIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

#define SIM_SECTOR	512

/* Costs in ns, except the bus transfer which is in ps per byte. */
struct sim_timing {
	uint64_t rd_cmd;	/* per read command */
	uint64_t wr_cmd;	/* per write command */
	uint64_t xfer_ps;	/* bus transfer per byte */
	uint64_t page_rd;	/* sensing one flash page */
	uint64_t au_cross;	/* extra for a read that spans two AUs */
	uint64_t prog_kib;	/* programming, per KiB of a page */
	uint64_t erase;		/* one AU */
	uint64_t discard_cmd;	/* per discard command */
};

/*
 * What real -a tables show beyond a clean staircase (read side only).
 * Seeds 002, 003 and 004 read the last KiB before a 16 MiB boundary
 * 60-100us slower than the first KiB after it, seed 000's Xporter 115us
 * faster at its 8 MiB AUs: the read-ahead crosses into the next zone (or
 * stops at its end).  Seed 002's baseline moves by 10-25 % between rows
 * (pre 924us, post 723us at 8 MiB; 1.02ms at 4 MiB, 820us below), and
 * some rows above the AU stand out (32 MiB, 512 MiB) where one of the
 * places is slower to cross.
 */
struct sim_reads {
	int64_t edge;		/* a read ending at a zone boundary, extra ns */
	unsigned zone_aus;	/* zone = this many AUs; 0: no zones */
	double drift;		/* percent: baseline level shifts */
	double slowau;		/* percent of AU boundaries slower to cross */
};

/*
 * How writes depart from the classic model (one copy of the whole rest
 * of an AU per write past the open limit), as the seeds show it: the
 * defaults of the keys of the same names.
 */
struct sim_writes {
	double merge;		/* percent of an early-closed AU's rest copied */
	double level;		/* past the limit: percent of the normal rate */
	uint64_t small;		/* writes up to this size skip the slots */
	double rcost;		/* random-order writes: extra programming, % */
};

struct sim_profile {
	const char *name;
	const char *card;
	uint64_t size, au, page;
	unsigned open, random, fat, fatstart;
	struct sim_timing t;
	struct sim_reads r;
	struct sim_writes w;
	const char *regs;	/* what sysfs said about the card: key=value */
};

/* What the card stores: the data of small writes (store.c). */
struct sim_store {
	uint64_t *key;		/* sector number + 1 per slot; 0: empty */
	unsigned char *valid;	/* the slot's data is the sector's */
	unsigned char *data;	/* SIM_SECTOR bytes per slot */
	size_t nkeys;
};

/*
 * Keep what a write of len bytes at off puts on the card, or with buf
 * NULL (a discard, a large write) forget it; a read fills buf with what
 * the card holds there, zeros where it holds nothing.
 */
void store_write(struct sim_store *st, const struct sim_params *p,
		 const void *buf, uint64_t off, uint64_t len);
void store_read(const struct sim_store *st, const struct sim_params *p,
		void *buf, uint64_t off, uint64_t len);
void store_free(struct sim_store *st);

/* The seed cards; the first is what "sim:" alone opens. */
extern const struct sim_profile sim_profiles[];
extern const size_t sim_nprofiles;

/* The profile of that name, or NULL. */
const struct sim_profile *sim_find_profile(const char *name);

/* The profile a card's parameters started from. */
const struct sim_profile *sim_profile_of(const struct sim_params *p);

#endif
