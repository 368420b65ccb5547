/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SURVEY_PLAN_H
#define FLASHBENCH_SURVEY_PLAN_H

/*
 * What the runs of an open-AU search cost, in AUs written: a run at N
 * writes N AUs per row.  A probe that holds stops after `probe` rows, a
 * full run has `full` rows, a run that collapses stops after `collapse`
 * rows.  The runs that prove a limit L are a run at L+1 up to its
 * collapse and one at L `limit_rows` deep (a row past that collapse).
 */
struct plan_cost {
	unsigned nmax;		/* the largest N that fits */
	double probe, full, collapse, limit_rows;
	int probes;		/* 0: every run is a full run */
	/*
	 * Rows of a probe once a run of the search has collapsed: how deep
	 * collapses set in is known from then on (0: full runs still)
	 */
	double probe_seen;
	/* beyond this search: spent and still to spend, and proven */
	double spent, proof;
};

/*
 * A search's moves from where it stands: lo holds (0: nothing known;
 * lo_full: as deep as a proof needs), hi collapses (nmax + 1: nothing known;
 * hi_run: a run showed it, else that run is still owed).  From each
 * state inside, the move that keeps the worst case, over the limits
 * still possible, of the whole cost over the cost of the proof as low
 * as it can be.  NULL: out of memory.
 */
struct plan *plan_make(const struct plan_cost *c, unsigned lo, unsigned hi,
		       int lo_full, int hi_run);

/*
 * The next N to try from a state inside the plan, *full: as a full run.
 * 0: the limit is lo.
 */
unsigned plan_move(const struct plan *p, unsigned lo, unsigned hi,
		   int lo_full, int *full);

/*
 * Rows of a probe the plan moves to: c->probe where probes are known,
 * else c->probe_seen (the plan probes only below a run that collapsed).
 */
double plan_probe_rows(const struct plan_cost *c);

/* The worst ratio of the search's cost to the proof's that it keeps. */
double plan_ratio(const struct plan *p);

/*
 * The same with a run at n (full: a full run) first, whatever it shows,
 * and the plan's moves after it: what the search gives up by preferring
 * a likely answer to the plan's own choice.
 */
double plan_ratio_with(struct plan *p, unsigned n, int full);

void plan_free(struct plan *p);

#endif
