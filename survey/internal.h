/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SURVEY_INT_H
#define FLASHBENCH_SURVEY_INT_H

/* Inside the survey: what its files share. */
#include "identity/identity.h"
#include "lib/units.h"
#include "run.h"
#include "output/identity_out.h"
#include "survey/advice.h"
#include "output/progress.h"
#include "survey/survey.h"

#define MAX_STEPS 64
#define MAX_NR 64		/* largest open-AU count searched */
#define FAT_NR FAT_AUS

enum phase { PH_ALIGN, PH_CAPACITY, PH_OPEN_LIN, PH_OPEN_RAND, PH_FAT_LIN,
	     PH_FAT_RAND, PH_IOPS, PH_COUNT };

enum step_end { STEP_OK, STEP_SKIP, STEP_STOP };

struct step {
	char cmd[256];		/* the classic command it equals */
	char what[96];
	struct io_stats io;	/* its own I/O */
	int full;		/* open-AU: a full run, not a probe */
	int collapsed;		/* stopped early: collapsing */
};

/* A write run in progress, cut between rows where a budget would end. */
struct row_cut {
	int (*hook)(void *arg, const struct table *t);	/* its own */
	uint64_t bs;		/* its block size: the last row's */
	unsigned aus, rows;	/* AUs each row writes; rows planned */
	double row_bytes;	/* bytes of one row */
	int collapse;		/* forecast to collapse: its rows slow */
	double mark_ns;		/* survey time at the last row's end */
	double row_ns;		/* the time the last row took; 0: none */
	double stream_ns;	/* the ramp: least time a step took per stream */
	double step_ns;		/* the ramp: the time its last step took */
	unsigned ramp_streams;	/* a random ramp: its last step's; 0: none */
	double ramp_start_ns;	/* the ramp's start, survey time */
	uint64_t ramp_start_bytes;	/* the bytes written before it */
};

/* The capacity check's I/O, from its dry run: its probes and their size. */
struct cap_plan {
	uint64_t writes, reads, len;
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
	unsigned ramp_cap;	/* streams the linear ramp runs to; 0: none */
	int random_ramp;	/* the random ramp fits (AUs of 1MiB up) */
	char ramp_nr[16];	/* the random ramp's cap, as typed */
	unsigned ramp_to;	/* streams the ramp running now runs to */
	int done[PH_COUNT];	/* 0 not started, 1 partly, 2 done */
	int writing;		/* confirmed (and saved) */
	unsigned dirty;		/* open-AU AUs written since the last reset */
	int dirty_pairs;	/* the ramp's: and the AU after each */
	int fat_dirty;		/* the FAT test's AUs too */
	int no_discard;		/* the device said so */
	int au_from_writes;	/* the erase size is --find-erase's */
	int status;		/* exit status once stopped */
	char stopped[RUN_ERROR_LEN];	/* why it ended early */
	uint64_t t0;		/* wall clock at the start */
	struct io_stats base;
	struct progress pg;
	int cur_collapsed;
	int cur_probe;		/* the run in progress may stop once it holds */
	struct row_cut cut;	/* the write run in progress, row by row */
	struct cap_plan cap;	/* the capacity check's, once known */
	struct cap_plan iops;	/* the IOPS step's random writes and reads */
};

/* Bytes and time a part of the survey will take. */
struct cost {
	double bytes, ns;
};

/* The open AUs of a typical card, as the survey's forecasts assume */
#define TYPICAL_OPEN 8

/*
 * What a forecast assumes of the counts no run has told yet (a count
 * the runs have bounded stays within their bounds): the typical card
 * (the progress line's and the budgets'), the ends of the span of
 * usual cards a plan's figures cover, or every AU the search may try.
 */
enum guess {
	GUESS_TYPICAL,
	GUESS_FEW,
	GUESS_MANY,
	GUESS_WORST,
};

/*
 * Calls go down this list only: survey.c (the procedure) and summary.c
 * (its output) on top, then step.c, budget.c, search.c, estimate.c and
 * status.c.
 */

/* summary.c */
/* Facts --analyze reads back: the device size, what sysfs claims. */
void survey_preamble(const struct survey *s);
/* The verdicts, claims, advice, what was not done, the totals. */
void survey_summary_text(const struct survey *s, const struct advice *adv);
void survey_summary_json(const struct survey *s, const struct advice *adv,
			FILE *f);

/* step.c */
/* Run one step; STEP_SKIP: it does not fit the device (said why). */
enum step_end survey_step(struct survey *s, const struct opts *o,
			  enum phase ph, const char *what);
/* Options of a step: the device and --count from the user. */
struct opts survey_step_opts(const struct survey *s);
/* Options of the write tests: the erase size, past the FAT AUs. */
struct opts survey_write_opts(const struct survey *s);
/* The IOPS step's: --iops's random part from the write tests' offset. */
struct opts survey_iops_opts(const struct survey *s);

/* budget.c */
/* Time spent so far. */
double survey_elapsed_ns(const struct survey *s);
/* Time the prepared run r of a step will take. */
double survey_est_run(const struct survey *s, const struct opts *o,
		      const struct run *r);
/* 1 (and stopped, said why): bytes and ns more would overrun a budget. */
int survey_budget_cut(struct survey *s, double bytes, double ns,
		      const char *next);
/* What is left from phase from on, on a card the guess g describes. */
void survey_forecast(const struct survey *s, enum phase from, enum guess g,
		     struct cost *c);
/*
 * The rest from phase from as a plan words it: "about X" or "X to Y"
 * for bytes (in b) and time (in t), each at least PLAN_FIGURE_LEN.
 */
#define PLAN_FIGURE_LEN (2 * UNIT_BUFLEN + 16)
void survey_plan_figures(const struct survey *s, enum phase from, char *b,
			 char *t);
/* The cards the figures cover, in words (PLAN_CARDS_LEN). */
#define PLAN_CARDS_LEN 96
char *survey_plan_cards(char *buf, const struct survey *s);
/* 1: the open-AU run of o is forecast to stop at its collapse. */
int survey_collapse_due(const struct survey *s, const struct opts *o);
/* The time of the ramp about to run up to cap streams, on a typical card. */
double survey_est_ramp_step(const struct survey *s, int random, unsigned cap);
/* The rest of the survey again, from what the step just done measured. */
void survey_replan(struct survey *s, const char *after);

/* search.c */
/* A run at nr in this order made as a full run (full) or a probe. */
const struct step *open_au_find_run(const struct survey *s, int random,
				    unsigned nr, int full);
/* The next run of a search, *full: as a full run; 0: nothing left. */
unsigned open_au_next_run(const struct survey *s, int random, int *full);
/* Row hook of the open-AU runs. */
int open_au_row_done(void *arg, const struct table *t);
/* Rows a probe goes down to before it counts as holding. */
unsigned open_au_probe_rows(const struct survey *s, int random);
/* Row hook of the ramp: the first step that does not hold ends it. */
int open_au_ramp_done(const struct table *t);
/* 1: the search in this order runs its ramp next. */
int open_au_ramp_due(const struct survey *s, int random);
/*
 * The streams the random ramp runs to, where it is due: the linear limit
 * or fewer; 0: not due.
 */
unsigned open_au_random_ramp_cap(const struct survey *s);
/* The linear count that held, exactly or as a bound; 0: none. */
unsigned open_au_linear_held(const struct survey *s);
/*
 * The random count a forecast assumes once the random N=1 reference
 * held: the linear one (cards take random writes in every open AU or in
 * none); 0: not known yet.
 */
unsigned open_au_random_guess(const struct survey *s);
/* The linear limit, where a verdict gives it exactly; 0: not known. */
unsigned open_au_linear_limit(const struct survey *s);
/* Rows a collapsing run of this order takes, for the forecasts. */
unsigned open_au_collapse_rows(const struct survey *s, int random);
/*
 * 1: a run at nr is forecast to collapse: past what the runs so far
 * prove holds, or (random order, once a random run collapsed) past
 * limit, the count the forecasts assume.
 */
int open_au_collapse_due(const struct survey *s, int random, unsigned nr,
			 unsigned limit);
/*
 * What is left of a search on a card that keeps limit AUs open, the
 * random one below lin, the linear limit assumed (0: none); returns the
 * limit it assumed.
 */
unsigned open_au_forecast(const struct survey *s, int random, unsigned limit,
			  unsigned lin, struct cost *c);

/* estimate.c */
/* Rows of a size series from es halving down to bs. */
unsigned survey_series_rows(uint64_t es, uint64_t bs, unsigned sector);
/* Rows of a full open-AU run, of the FAT test. */
unsigned survey_full_rows(const struct survey *s);
unsigned survey_fat_rows(const struct survey *s);
/* Time of a write run: rows from the AU down, aus AUs each. */
double survey_est_write(const struct survey *s, uint64_t bs, unsigned aus,
			unsigned rows, int collapse);
/* Time of row i (from 0) of a write run; collapse: the one ending it. */
double survey_est_row(const struct survey *s, uint64_t bs, unsigned aus,
		      unsigned i, int collapse);
/* Time of a run writing bytes in chunks of a page or more. */
double survey_est_bytes(const struct survey *s, double bytes);
/* How many times a ramp step of n streams may slow past the limit. */
double survey_ramp_collapse_slow(const struct survey *s, int random,
				 int shuffled, unsigned n);
/* What the ramp up to cap streams costs on a card that keeps limit AUs
 * open (for random writes, random). */
void survey_est_ramp(const struct survey *s, int random, unsigned limit,
		     unsigned cap, struct cost *c);
/*
 * The capacity check's writes: a page each, at least a typical copy
 * each, or (worst) each closing an AU the card copies, its probes
 * landing in AUs of their own.
 */
double survey_est_probes(const struct survey *s, const struct cap_plan *p,
			 int worst);
/*
 * The IOPS step's writes: scattered as the probes are, at the capacity
 * check's measured time a write (each may pay two copies), once it ran.
 */
double survey_est_iops(const struct survey *s, const struct cap_plan *p,
		       int worst);
/* Time per read, from the alignment tables so far. */
double survey_read_ns(const struct survey *s);
/* The verdicts with the rows of the run in progress. */
void survey_analyze_with(struct survey *s, const struct table *t,
			 struct analysis *a);

/* status.c */
/* A line on stderr, off the progress line; names in it made safe. */
void survey_note(struct survey *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* End the survey at the next step boundary: why, and the exit status. */
void survey_stop(struct survey *s, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Stopped by the signal the front end caught. */
void survey_interrupted(struct survey *s);

#endif
