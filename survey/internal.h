/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SURVEY_INT_H
#define FLASHBENCH_SURVEY_INT_H

/*
 * Inside the survey: what survey.c (the steps, budgets, output) and
 * search.c (the open-AU search) share.
 */
#include "identity/identity.h"
#include "output/identity_out.h"
#include "output/progress.h"
#include "survey/survey.h"

#define MAX_STEPS 64
#define MAX_NR 64		/* largest open-AU count searched */
#define FAT_NR FAT_AUS

enum phase { PH_ALIGN, PH_OPEN_LIN, PH_OPEN_RAND, PH_FAT_LIN, PH_FAT_RAND,
	     PH_COUNT };

enum step_end { STEP_OK, STEP_SKIP, STEP_STOP };

struct step {
	char cmd[256];		/* the classic command it equals */
	char what[96];
	struct io_stats io;	/* its own I/O */
	int full;		/* open-AU: a full run, not a probe */
	int collapsed;		/* stopped early: collapsing */
};

struct survey {
	const struct survey_cfg *cfg;
	struct dev *d;
	FILE *out;		/* text report; NULL with --json */
	struct step step[MAX_STEPS];
	struct table tab[MAX_STEPS];
	size_t n;
	struct analysis a;
	struct analysis_ctx ctx;
	struct identity id;
	uint64_t au, page, full_bs, fat_bs;
	unsigned nmax;
	int done[PH_COUNT];	/* 0 not started, 1 partly, 2 done */
	int writing;		/* confirmed (and saved) */
	unsigned dirty;		/* open-AU AUs written since the last reset */
	int fat_dirty;		/* the FAT test's AUs too */
	int no_discard;		/* the device said so */
	int status;		/* exit status once stopped */
	char stopped[256];	/* why it ended early */
	uint64_t t0;		/* wall clock at the start */
	struct io_stats base;
	struct progress pg;
	int cur_collapsed;
	int cur_probe;		/* the run in progress may stop once it holds */
};

/* Bytes and time a part of the survey will take. */
struct cost {
	double bytes, ns;
};

/* survey.c */
/* Run one step; STEP_SKIP: it does not fit the device (said why). */
enum step_end survey_step(struct survey *s, const struct opts *o,
			  enum phase ph, const char *what);
/* Options of the write tests: the erase size, past the FAT AUs. */
struct opts survey_write_opts(const struct survey *s);
/* Rows of a full open-AU run, of the FAT test. */
unsigned survey_full_rows(const struct survey *s);
unsigned survey_fat_rows(const struct survey *s);
/* Time of a write run: rows from the AU down, aus AUs each. */
double survey_est_write(const struct survey *s, uint64_t bs, unsigned aus,
			unsigned rows, int collapse);
/* The verdicts with the rows of the run in progress. */
void survey_analyze_with(struct survey *s, const struct table *t,
			 struct analysis *a);
/* Discard what the last runs wrote: the card's fresh state back. */
void survey_reset_card(struct survey *s);

/* search.c */
/* The open-AU limit in one order; -1: the survey stops. */
int open_au_search(struct survey *s, int random);
/* Row hook of the open-AU runs. */
int open_au_row_done(void *arg, const struct table *t);
/* Rows a probe goes down to before it counts as holding. */
unsigned open_au_probe_rows(const struct survey *s);
/* What is left of a search on a card that keeps limit AUs open. */
void open_au_forecast(const struct survey *s, int random, unsigned limit,
		      struct cost *c);

#endif
