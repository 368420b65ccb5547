/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_ANALYSIS_INT_H
#define FLASHBENCH_ANALYSIS_INT_H

/* Shared by the verdict families (analysis_*.c); not a public API. */
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"

#define KIB 1024ULL
/* Erase blocks are 128 KiB or larger, pages 64 KiB or smaller. */
#define ERASE_MIN (128 * KIB)

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

/* No flash page is larger: writes of this size or more are whole pages. */
#define PAGE_MAX (64 * KIB)

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
	uint64_t worst_key;	/* its lowest share of the reference */
	uint64_t ref_key;	/* own: the size of its best; else 0 */
	double worst, worst_ref;
};

static inline double cell(const struct column *c, size_t i)
{
	return c->t->rows[i].v[c->col];
}

/* analysis_places.c: the unit behind a step at v (1: v, 3: 3v, 0: ?) */
unsigned place_multiple(const struct table *t, uint64_t v, uint64_t hi,
			double below, char *why, size_t len);

/* analysis_collapse.c: has each run collapsed? */
void judge_columns(struct column *c, size_t m);
void quote_column(char *buf, size_t len, const struct column *c);
int looks_collapsed(const struct column *held, const struct column *bad,
		    const struct column *all, size_t m);

/* The verdict families, each over all tables of its kind. */
void analyze_align(const struct table *tabs, size_t n,
		   const struct analysis_ctx *ctx, struct analysis *out);
void analyze_open_au(const struct table *tabs, size_t n,
		     struct analysis *out);
void min_write_verdict(const struct column *c, size_t m,
		       struct verdict *v);
/* The AUs the FAT verdict looked at: the first aus of unit bytes. */
struct fat_scope {
	uint64_t unit;
	unsigned aus;
};

void analyze_fat(const struct table *tabs, size_t n, struct verdict *v,
		 struct fat_scope *scope);
/* Notes on open-AU verdicts whose test AUs include special ones. */
void note_fat_region(const struct table *tabs, size_t n,
		     const struct verdict *fat, const struct fat_scope *scope,
		     struct analysis *out);

#endif
