// SPDX-License-Identifier: GPL-2.0
/*
 * The survey's budgets: time spent so far, what a step and the rest of
 * the survey will take, and the --max-write and --max-time checks made
 * before each step.
 */
#include <math.h>
#include <string.h>

#include "lib/msg.h"
#include "output/progress.h"
#include "survey/internal.h"
#include "lib/units.h"

/* Time spent so far: device time on the sim, wall time on real cards. */
double survey_elapsed_ns(const struct survey *s)
{
	double dev = (double)(s->d->stats.ns - s->base.ns);
	double wall = (double)(now_ns() - s->t0);

	return dev > wall ? dev : wall;
}

/* The random count the typical card of the forecasts keeps */
#define TYPICAL_RANDOM 1

/*
 * The open-AU count a forecast assumes before the runs tell it: 8, a
 * typical card, or (worst) every AU the search may try.
 */
static unsigned guess_open(const struct survey *s, int worst)
{
	return worst || s->nmax < 8 ? s->nmax : 8;
}

/*
 * The random count a forecast assumes: once the random N=1 reference
 * held, the linear one (cards take random writes in every open AU or in
 * none), else the typical card's.
 */
static unsigned guess_random(const struct survey *s)
{
	unsigned rg = open_au_random_guess(s);

	return rg ? rg : TYPICAL_RANDOM;
}

/* One past the count the forecasts assume stops at its collapse. */
int survey_collapse_due(const struct survey *s, const struct opts *o)
{
	return o->test == &testdesc_open_au &&
	       open_au_collapse_due(s, o->random, o->nr_lo,
				    o->random ? guess_random(s) :
				    guess_open(s, 0));
}

double survey_est_run(const struct survey *s, const struct opts *o,
		      const struct run *r)
{
	unsigned rows = survey_series_rows(o->erasesize, o->blocksize,
					     s->d->sector);
	const struct cap_plan cap = { r->plan.io.writes, r->plan.io.reads,
				      r->plan.max_len };

	if (!o->test->writes)
		return (double)r->plan.io.reads * survey_read_ns(s);
	if (o->test == &testdesc_capacity)
		return survey_est_probes(s, &cap, 0) +
		       (double)cap.reads * survey_read_ns(s);
	/* the IOPS step's writes scatter as the capacity probes do */
	if (o->test == &testdesc_iops_random)
		return survey_est_iops(s, &cap, 0) +
		       (double)cap.reads * survey_read_ns(s);
	if (o->test == &testdesc_find_erase)
		return survey_est_bytes(s, (double)r->plan.io.bytes_written);
	if (o->test == &testdesc_ramp)
		return survey_est_ramp_step(s, o->random,
					    o->nr_arg ? o->nr_hi : s->ramp_cap);
	if (o->test == &testdesc_find_fat)
		return survey_est_write(s, o->blocksize, o->fat_nr, rows, 0);
	if (survey_collapse_due(s, o)) {
		if (open_au_collapse_rows(s, o->random) < rows)
			rows = open_au_collapse_rows(s, o->random);
		return survey_est_write(s, o->blocksize, o->nr_lo, rows, 1);
	}
	/* a probe that holds stops early */
	if (s->cur_probe && open_au_probe_rows(s, o->random) < rows)
		rows = open_au_probe_rows(s, o->random);
	return survey_est_write(s, o->blocksize, o->nr_lo, rows, 0);
}

/*
 * Budgets are checked before a step, a row of one and a pass more after
 * a pause: what would overrun is not run, so no survey ends over one.
 */
int survey_budget_cut(struct survey *s, double bytes, double ns,
		      const char *next)
{
	const struct survey_cfg *c = s->cfg;
	uint64_t written = s->d->stats.bytes_written - s->base.bytes_written;
	double now = survey_elapsed_ns(s);
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], n[UNIT_BUFLEN];

	if (c->max_write && (double)written + bytes > (double)c->max_write) {
		survey_stop(s, EXIT_PARTIAL, "--max-write=%s reached: %s "
			    "written, the next %s writes %s",
			    fmt_size(a, (double)c->max_write),
			    fmt_size(b, (double)written), next,
			    fmt_size(n, bytes));
		return 1;
	}
	if (c->max_time && now + ns > (double)c->max_time) {
		/* to the second: rounded to minutes, 80s read "1m" by 1m23s */
		survey_stop(s, EXIT_PARTIAL, "--max-time=%s reached: %s spent, "
			    "the next %s takes about %s",
			    fmt_duration_exact(a, c->max_time),
			    fmt_duration_exact(b, (uint64_t)llround(now / 1e9) *
					       1000000000ULL),
			    next, fmt_duration(n, ns));
		return 1;
	}
	return 0;
}

/*
 * The ramp about to run, on a card keeping the forecasts' count; in
 * random order (its N=1 reference held), one taking random writes in
 * every AU it keeps open, as most such cards do.
 */
double survey_est_ramp_step(const struct survey *s, int random, unsigned cap)
{
	unsigned lin = open_au_linear_held(s);
	struct cost c = { 0 };

	survey_est_ramp(s, random, random && lin ? lin : guess_open(s, 0), cap,
			&c);
	return c.ns;
}

/*
 * What is left from phase from on, for a typical card (8 AUs open, 1
 * for random writes, or as many as it keeps open once the random
 * reference held) or, worst, one that keeps every AU tried open (and
 * copies an AU for each capacity probe).
 */
void survey_forecast(const struct survey *s, enum phase from, int worst,
		     struct cost *c)
{
	unsigned lin = guess_open(s, worst), assumed = 0;
	unsigned rnd = worst ? lin : guess_random(s);
	int r;

	memset(c, 0, sizeof(*c));
	if (from <= PH_CAPACITY) {
		c->bytes += (double)(s->cap.writes * s->cap.len);
		c->ns += survey_est_probes(s, &s->cap, worst) +
			 (double)s->cap.reads * survey_read_ns(s);
	}
	if (!s->au)
		return;
	/* a search that is over owes nothing, whatever its last runs were */
	for (r = 0; r < 2; r++)
		if ((int)from <= PH_OPEN_LIN + r && s->done[PH_OPEN_LIN + r] != 2)
			assumed = open_au_forecast(s, r, r ? rnd : lin,
						   assumed, c);
	/* the random FAT test runs only where the linear one is unsure */
	for (r = 0; r < 1 + worst; r++) {
		if ((int)from > PH_FAT_LIN + r)
			continue;
		c->bytes += (double)FAT_NR * survey_fat_rows(s) * (double)s->au;
		c->ns += survey_est_write(s, s->fat_bs, FAT_NR,
					  survey_fat_rows(s), r);
	}
	c->bytes += (double)(s->iops.writes * s->iops.len);
	c->ns += survey_est_iops(s, &s->iops, worst) +
		 (double)s->iops.reads * survey_read_ns(s);
}

/*
 * The first plan guesses the card's write rate and its open-AU count;
 * once a step has measured one of them, the rest of the survey again,
 * from what was measured (the progress line counts down from the same
 * forecast).
 */
void survey_replan(struct survey *s, const char *after)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	FILE *f = s->out ? s->out : stderr;
	struct cost rest;

	survey_forecast(s, PH_OPEN_LIN, 0, &rest);
	progress_clear(&s->pg);
	fprintf(f, "# plan: after step %zu (%s): the rest writes about %s in "
		"about %s\n", s->n, after, fmt_size(a, rest.bytes),
		fmt_duration(b, rest.ns));
	fflush(f);
}
