/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_ANALYSIS_INT_H
#define FLASHBENCH_ANALYSIS_INT_H

/* Shared by the verdict families (analysis_*.c); not a public API. */
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"

#define KIB 1024ULL
/* Erase blocks are 128 KiB or larger (pages: PAGE_MAX, analysis.h). */
#define ERASE_MIN (128 * KIB)
/* Allocation groups and maxalign rows sit above any real erase block. */
#define ERASE_MAX (64ULL << 20)

/* verdict.c */
void say(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void verdict_init(struct verdict *v, enum verdict_type type);
void set_value(struct verdict *v, uint64_t value, enum confidence c);
enum confidence conf_down(enum confidence c);
enum confidence conf_min(enum confidence a, enum confidence b);
uint64_t odd_part(uint64_t k);
/* The sizes ctx claims, each agreeing with v's value or not (or -1). */
void note_claims(struct verdict *v, const struct analysis_ctx *ctx);

/* One open-AU run: write size -> rate, largest size first. */
struct column {
	const struct table *t;
	unsigned col;		/* value column within t */
	unsigned nr;
	int random;
	uint64_t group;		/* erase size it was run with */
	int collapsed;
	int own;		/* judged on its own curve (no other run to
				   compare with, or it shows there) */
	int weak;		/* collapsed, but only just */
	int dip;		/* held, but a size of 64 KiB or more below
				   half the other runs */
	int marginal;		/* held, but 1: two sizes well below the
				   others, 2: two below half */
	int half_ok;		/* collapsed, but not at half the erase size */
	int sags;		/* the best of its test falls to 60 % of its
				   own best at a size of 64 KiB or more */
	int against_linear;	/* random, judged against the linear runs */
	uint64_t worst_key;	/* its lowest share of the reference */
	uint64_t ref_key;	/* own: the size of its best; else 0 */
	double worst, worst_ref;
};

static inline double cell(const struct column *c, size_t i)
{
	return c->t->rows[i].v[c->col];
}

/*
 * align_levels.c: one family of -a boundaries (k x 2^n for one odd
 * k), largest first, fitted with flat levels of its diff column.
 */
#define MAX_ROWS 64		/* boundaries of one family */
#define MAX_SEGS 5		/* levels looked for, before merging */
/* Levels count as apart when this many standard errors apart. */
#define LEVEL_Z 3.0
/* Below this (ns) no difference matters: timer and rounding. */
#define ABS_MIN 3000.0
/* The least scatter assumed for a row (ns). */
#define SIGMA_MIN 300.0

struct family {
	uint64_t odd;
	size_t n;
	uint64_t key[MAX_ROWS];
	double d[MAX_ROWS];	/* diff (live: less places a burst hit) */
	double asym[MAX_ROWS];	/* pre - post */
	double post[MAX_ROWS];	/* post, the baseline a row was read at */
	double spread[MAX_ROWS];	/* live: its places' diffs' scatter */
	int bad[MAX_ROWS];	/* disturbed: sets no level */
	int apart[MAX_ROWS];	/* ...for its places' scatter (live) */
	double w[MAX_ROWS];	/* a disturbed diff is off by up to this */
	double sigma;		/* a clean row's scatter about its level */
	double quiet;		/* the same under the top level */
	double read_sd;		/* the same from the reads themselves */
	size_t seg[MAX_ROWS];	/* each row's level, 0 the top one */
	size_t nseg;
	double lvl[MAX_SEGS];	/* median of the clean rows */
	double sd[MAX_SEGS];	/* their scatter (sigma if too few) */
	size_t nclean[MAX_SEGS];
};

void family_read(const struct table *t, uint64_t odd, struct family *f);
/* The places of a live row a burst hit (gone[k]); each one's diff, pre
 * - post. */
void burst_places(const struct table *t, const struct table_row *r,
		  double *dk, double *ak, int *gone);
size_t seg_first(const struct family *f, size_t s);
double level_se(const struct family *f, size_t s, size_t t);
int clear_step(const struct family *f, size_t s, size_t t);
/*
 * How much likelier (log) the rows at a step's edge lie where they are
 * than a row up or down, for a medium and a high verdict; no row says
 * more than LLR_MAX.
 */
#define POS_MEDIUM 4.0
#define POS_HIGH 8.0
#define LLR_MAX 10.0
/* Log-likelihood that a row at x belongs to level near, not to far. */
double edge_llr(double x, double near, double sn, double far, double sf);
/* A row's diff as evidence of its side of a step (up, lo). */
double edge_value(const struct family *f, size_t i, double up, double lo);

/* The step at one boundary, from the rows next to it. */
struct local_step {
	double up, lo;		/* levels above (from the boundary up), below */
	double se;		/* standard error of up - lo */
	double sd_lo;		/* scatter of a row below */
	double floor;		/* the family's lowest level */
	/* log-likelihood that the row at the boundary is above the step
	 * (not a row higher), and the row under it below (not a row lower) */
	double pos_up, pos_lo;
	double row[4];		/* the clean rows from the boundary up */
	size_t nrow;
	int at_bad;		/* the row at the boundary is disturbed */
	double under;		/* the row under the boundary, as evidence */
};

int measure_at(const struct family *f, uint64_t key, uint64_t limit,
	       struct local_step *m);

/*
 * Multi-plane reads: many cards read 2 or 4 pages at once, so the diff
 * steps a little at the page and again, larger, at the group of pages
 * (seed 000's SanDisk SD04G, tests/real/004: 2.5us at 2KiB, 52.5us at
 * 4KiB, 272us from 8KiB: a 4KiB page read two at a time).  The page is
 * the first step; a boundary under the one taken for the page that
 * stands above the floor by PLANE_SHARE of that step or more (real
 * floors stray by a few percent, 004's first step is 19 %), by ABS_MIN
 * and by PLANE_Z standard errors may be such a first step: the page
 * may be half the size, and no more than low.  PLANE_Z is loose on
 * purpose: a page said low costs little, a wrong one said high much.
 */
#define PLANE_SHARE 0.1
#define PLANE_Z 2.0
/*
 * The other way round: a page step whose row under it cannot be shown,
 * by PLANE_HIDE_Z standard errors, to stand under PLANE_SHARE of the
 * step (over the floor, or over zero where the floor lies below it)
 * may hide a multi-plane card's own page step: sim cards with a 10-40 %
 * in-group step and 5-15 % noise read the group as the page at medium
 * or high otherwise (6 of 150 cards, seed 1).  The page is then low:
 * seed 002's 800ns at 8KiB, with a scatter of 2.7us, could hide one.
 * Half an error keeps most clean pages.
 */
#define PLANE_HIDE_Z 0.5
/*
 * A page unit p whose odd multiples step by less than WIDER_SHARE of
 * what its even ones do is not the page: the page is 2p or larger.  The
 * places try units up to PAGE_MAX only, so a 96KiB page fits best as
 * 48KiB (half its places are multiples of 96KiB); a true unit's odd and
 * even multiples step alike, a half of them at most by noise.
 */
#define WIDER_SHARE 0.5
/* Groups of 2 or 4 pages are what cards read at once. */
#define PLANES_MAX 4

/* align_one.c: one family of one -a table read on its own. */
struct align_read {
	const struct table *t;
	int live;		/* each place kept */
	uint64_t odd;		/* 1: 2^n boundaries, 3: 3x2^n */
	struct family f;
	struct verdict erase, page;
	uint64_t ekey, pkey;	/* the boundaries their steps are at */
	int eveto, pveto;	/* the erase, page step is none: rows say so */
	/* the page step may be a multi-plane group's: the page smaller */
	int pplane;
	uint64_t pgroup;	/* a second step at 2 or 4 pages: the group */
	double estep, pstep;	/* the diff steps they rest on */
	double ebelow, pbelow;	/* the levels under those steps */
	double plevel;		/* the page's diff level */
	/* the units a live table's places step at (0: cannot tell) */
	uint64_t eunit, punit;
	/*
	 * What the steps alone made of each: their significance and the
	 * log-likelihood of their place; noise: that alone set how sure it
	 * is, so another run of the same can make it surer.
	 */
	struct step_read {
		double z, pos;
		int noise;
	} es, ps;
};

/* How sure a step is by its significance and the evidence of its place. */
enum confidence step_sureness(double z, double pos);

void family_verdicts(const struct table *t, uint64_t odd,
		     struct align_read *r);
/* The erase verdict against the device size and what the card claims. */
void cross_check(struct verdict *v, const struct analysis_ctx *ctx);

/* align_places.c: the units a live table's places step at */
struct unit_read {
	uint64_t unit;		/* 0: none */
	/* how sure against a unit of the other family (2^n, 3x2^n) or
	 * none; against another of its own; inconclusive: cannot tell */
	enum confidence conf, pos;
	/* places at odd multiples of unit / 2 step too: unit is a
	 * multi-plane group, the page half of it or less (0: no) */
	uint64_t half;
	/* places at odd multiples of unit barely step: the page is at
	 * least this, twice the unit (0: no) */
	uint64_t wider;
	char why[160];
};

void place_units(const struct table *t, const struct family *f,
		 struct unit_read *page, struct unit_read *erase);

/* openau_collapse.c: has each run collapsed? */
#define MAX_COLS 128		/* open-AU runs looked at */
/*
 * At half the reference rate or less a size is deep down: a write past
 * the limit pays at least its own cost again; noise and a pause of the
 * card seldom halve a rate.
 */
#define DEEP 0.5
/* The open-AU runs of the tables, each judged; NULL without memory. */
struct column *judged_columns(const struct table *tabs, size_t n, size_t *m);
void quote_column(char *buf, size_t len, const struct column *c);
/*
 * openau_ramp.c: the first ramp of this order, where its step one
 * stream past the most that held (*limit) collapsed, confirmed or not,
 * its rows quoted in buf; NULL: none (or that step was only unclear).
 */
const struct table *ramp_collapse(const struct table *tabs, size_t n,
				  int random, unsigned *limit, char *buf,
				  size_t len);
int looks_collapsed(const struct column *held, const struct column *bad,
		    const struct column *all, size_t m);
int low_within(const struct column *c, const struct column *all, size_t m,
	       uint64_t lo, uint64_t hi, double share);
int far_shallower(const struct column *a, const struct column *b);

/*
 * The verdict families' entry points, each in its own file, run in the
 * order of the table in analyze.c.
 */
void family_align(const struct table *tabs, size_t n,
		  const struct analysis_ctx *ctx, struct analysis *out);
/* erase_writes.c: family_align, else the erase size from writes. */
void family_erase_size(const struct table *tabs, size_t n,
		       const struct analysis_ctx *ctx, struct analysis *out);
void family_open_au_linear(const struct table *tabs, size_t n,
			   const struct analysis_ctx *ctx,
			   struct analysis *out);
void family_open_au_random(const struct table *tabs, size_t n,
			   const struct analysis_ctx *ctx,
			   struct analysis *out);
void family_page_writes(const struct table *tabs, size_t n,
			const struct analysis_ctx *ctx, struct analysis *out);
void family_min_write(const struct table *tabs, size_t n,
		      const struct analysis_ctx *ctx, struct analysis *out);
void family_fat(const struct table *tabs, size_t n,
		const struct analysis_ctx *ctx, struct analysis *out);

#endif
