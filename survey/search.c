// SPDX-License-Identifier: GPL-2.0
/*
 * The survey's open-AU search, linear or random.  A full run at N=1
 * first: what the later runs are judged against, at every size.  Then
 * the runs the planner (plan.c) picks, each stopping its size
 * series once the verdicts call it collapsed.  A probe also stops once
 * it has kept up with the runs before it as deep as this card's
 * collapses set in; until one has collapsed that depth is unknown, and
 * probes go through every size.  Then, unless the search made them, a
 * full run at the limit (it also shows the smallest full-speed write)
 * and a run above it: the runs that prove the answer.
 *
 * survey.c makes the runs; here they are judged, the next one is chosen
 * and what is left of a search is forecast.
 */
#include "survey/internal.h"
#include "survey/plan.h"
#include "lib/ramp_rule.h"

/* Rows a collapsing run takes, for the planner, until one has */
#define COLLAPSE_ROWS 3
/*
 * Rows a random run that collapses takes, for the forecasts, until one
 * has: it goes on to the largest size that tells a random count (see
 * open_au_row_done); 5 at the median of 40 random sim cards' (4 to 8).
 */
#define RANDOM_COLLAPSE_ROWS 5

/*
 * A run that keeps this much of the best rate the others reached at
 * each size is holding there; one that collapses falls below it a row
 * or so before the verdicts can call it collapsed (a collapse costs a
 * copy of part of an AU per write: at least a fifth more time where it
 * shows).  The margin is for noise.
 */
#define FINE_HOLD 0.85
/* A worst case the likely random answer may be tried at, by the plan's */
#define LIKELY_COST 1.1
/* A run at nr in this order made as a full run (full) or a probe. */
const struct step *open_au_find_run(const struct survey *s, int random,
				    unsigned nr, int full)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct table *t = &s->tab[i];

		if (t->kind == TAB_OPENAU && t->random == random &&
		    t->open_au_nr == nr && s->step[i].full == full)
			return &s->step[i];
	}
	return NULL;
}

static int ran(const struct survey *s, int random, unsigned nr)
{
	return open_au_find_run(s, random, nr, 0) ||
	       open_au_find_run(s, random, nr, 1);
}

/* A run at nr went through every size without collapsing. */
static int held_full(const struct survey *s, int random, unsigned nr)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct table *t = &s->tab[i];

		if (t->kind == TAB_OPENAU && t->random == random &&
		    t->open_au_nr == nr && !s->step[i].collapsed &&
		    t->nrows == survey_full_rows(s))
			return 1;
	}
	return 0;
}

/* A run at nr held, as far as it went. */
static int held(const struct survey *s, int random, unsigned nr)
{
	const struct step *st = open_au_find_run(s, random, nr, 0);

	return held_full(s, random, nr) || (st && !st->collapsed);
}

/* The best rate the other open-AU runs of this order reached here. */
static double held_rate(const struct survey *s, int random, uint64_t key,
			size_t self)
{
	double best = 0;
	size_t i, r;

	for (i = 0; i < s->n; i++) {
		const struct table *t = &s->tab[i];

		if (i == self || t->kind != TAB_OPENAU || t->random != random)
			continue;
		for (r = 0; r < t->nrows; r++)
			if (t->rows[r].key == key && t->rows[r].v[0] > best)
				best = t->rows[r].v[0];
	}
	return best;
}

/*
 * Rows until a run (the table at self in s->tab, or the run in progress)
 * first falls below FINE_HOLD of the others; 0: it never does.
 * *unknown: a size none of the others reached.
 */
static unsigned deviates(const struct survey *s, const struct table *t,
			 size_t self, int *unknown)
{
	size_t r;
	double ref;

	*unknown = 0;
	for (r = 1; r < t->nrows; r++) {
		ref = held_rate(s, t->random, t->rows[r].key, self);
		*unknown |= !(ref > 0);
		if (ref > 0 && t->rows[r].v[0] < FINE_HOLD * ref)
			return (unsigned)r + 1;
	}
	return 0;
}

/*
 * How a run (the table at self in s->tab, or the run in progress) kept
 * up with the others at every size some other run reached: throughout,
 * or but for at most one row that fell behind and that the rows after
 * it, two at least, made up for (a pause of the card, not a collapse,
 * which sets in and stays): KEPT_UP; else FELL_BEHIND; UNTOLD where a
 * size none of the others reached leaves it open.
 */
enum keep { KEPT_UP, FELL_BEHIND, UNTOLD };

static enum keep keeping(const struct survey *s, const struct table *t,
			 size_t self)
{
	struct table rest;
	unsigned first, again;
	int unknown;

	first = deviates(s, t, self, &unknown);
	if (unknown)
		return UNTOLD;
	if (!first)
		return KEPT_UP;
	if (first + 2 > t->nrows)
		return FELL_BEHIND;
	/* from the row that fell behind, which deviates() passes over */
	rest = *t;
	rest.rows += first - 1;
	rest.nrows -= first - 1;
	again = deviates(s, &rest, self, &unknown);
	return !again && !unknown ? KEPT_UP : FELL_BEHIND;
}

/*
 * A linear run at nr held, but fell behind the other runs and stayed
 * behind: a collapse too shallow for the verdicts to call (cards that
 * copy a tenth of an AU they close early: 65 % of the others at N=4,
 * keeping 3), or a long pause.  Every N past such a limit shows the
 * same shallow collapse (a linear run above it misses at every write),
 * so no run above tells more: on such a card the search climbed from
 * N=4 to N=42 in full runs, 16 times the proof.
 */
static int held_unclearly(const struct survey *s, unsigned nr)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct table *t = &s->tab[i];

		if (t->kind == TAB_OPENAU && !t->random &&
		    t->open_au_nr == nr && !s->step[i].collapsed &&
		    keeping(s, t, i) == FELL_BEHIND)
			return 1;
	}
	return 0;
}

/* Rows of the runs in this order that collapsed, at most; 0: none did. */
static unsigned collapse_seen(const struct survey *s, int random)
{
	size_t i, rows = 0;

	for (i = 0; i < s->n; i++) {
		const struct table *t = &s->tab[i];

		if (t->kind == TAB_OPENAU && t->random == random &&
		    s->step[i].collapsed && t->nrows > rows)
			rows = t->nrows;
	}
	return (unsigned)rows;
}

/*
 * Rows a collapsing run takes, for the planner.  Random runs collapse
 * that early too far above the limit (most AUs lack a random slot);
 * just above it, where one AU of many lacks one, they show it later,
 * but that run is part of the proof.
 */
static double collapse_rows(const struct survey *s)
{
	unsigned seen = collapse_seen(s, 0);

	return seen ? seen : COLLAPSE_ROWS;
}

/*
 * Rows a collapsing run of this order takes, for the forecasts (not the
 * planner's choices): as deep as the runs that collapsed went, else
 * COLLAPSE_ROWS, or RANDOM_COLLAPSE_ROWS in random order.
 */
unsigned open_au_collapse_rows(const struct survey *s, int random)
{
	unsigned seen = collapse_seen(s, random);

	return seen ? seen : random ? RANDOM_COLLAPSE_ROWS : COLLAPSE_ROWS;
}

/*
 * Rows down to the smallest size where random slots running out shows
 * (PAGE_MAX: below it a page may slow a write): a random probe goes at
 * least that deep, so the analysis sees it hold at every such size.
 */
static unsigned random_probe_floor(const struct survey *s)
{
	unsigned rows = survey_series_rows(s->au, PAGE_MAX, s->d->sector);

	return rows < survey_full_rows(s) ? rows : survey_full_rows(s);
}

/*
 * Rows a probe goes down to before it counts as holding: one more than
 * where the runs in its order that collapsed on this card began to fall
 * behind (a linear collapse sets in at about the same write size
 * whatever N; a random probe also covers random_probe_floor()), and all
 * of them until one has.  Some cards collapse only at small writes
 * (they copy little of an AU closed early); a probe that stopped above
 * that would pass for one that held.
 */
unsigned open_au_probe_rows(const struct survey *s, int random)
{
	unsigned rows = 0, d;
	size_t i;
	int unknown;

	if (random)
		rows = random_probe_floor(s);

	for (i = 0; i < s->n; i++) {
		const struct table *t = &s->tab[i];

		if (t->kind != TAB_OPENAU || t->random != random ||
		    !s->step[i].collapsed)
			continue;
		d = deviates(s, t, i, &unknown);
		if (!d || unknown)
			return survey_full_rows(s);
		if (d > rows)
			rows = d;
	}
	return rows && rows + 1 < survey_full_rows(s) ? rows + 1 :
	       survey_full_rows(s);
}

/*
 * A random reference run whose collapse is only just seen goes on where
 * one more size tells it from a card merging random writes at a flat
 * cost within its slots, which no later run tells apart: past the
 * largest size telling its count when that is all it has (whether its
 * rate goes on falling with the size), and below 64 KiB down to the
 * page, where only the linear rate tells a collapse (past its random
 * slots a card falls further below it with every smaller write, within
 * them it stays where it is).
 */
static int random_reference_goes_on(const struct survey *s,
				    const struct table *t,
				    const struct verdict *v, uint64_t top,
				    uint64_t last)
{
	if (!t->random || t->open_au_nr != 1 || v->conf != CONF_LOW)
		return 0;
	if (last == top && top > PAGE_MAX)
		return 1;
	return last < PAGE_MAX && s->page && last / 2 >= s->page;
}

/*
 * Row hook of the open-AU runs: stop the series once the verdicts, with
 * this run's rows so far, already call it collapsed (from its third row
 * on), so a run stops exactly where the analysis has seen enough; a
 * probe also stops once it has clearly held as deep as it needs to.
 */
int open_au_row_done(void *arg, const struct table *t)
{
	struct survey *s = arg;
	const struct verdict *v;
	struct analysis a;
	uint64_t top, last;

	if (t->nrows < (t->random ? 3u : 2u) || s->n == MAX_STEPS)
		return 0;
	survey_analyze_with(s, t, &a);
	v = t->random ? &a.open_au_random : &a.open_au_linear;
	s->cur_collapsed = v->type != V_NONE && !v->is_null &&
			   v->value < t->open_au_nr;
	/*
	 * A random run goes on to the largest size whose order goes
	 * backwards before the AU is whole: a collapse above it may be
	 * the open AUs', and one that stops there tells no random count.
	 */
	top = open_au_telling_top(t->erasesize, 1);
	last = t->rows[t->nrows - 1].key;
	if (s->cur_collapsed && t->random && top && last > top)
		return 0;
	if (s->cur_collapsed && random_reference_goes_on(s, t, v, top, last))
		return 0;
	if (s->cur_collapsed)
		return 1;
	/* a probe as deep as collapses show here, keeping up throughout */
	return s->cur_probe && t->nrows >= open_au_probe_rows(s, t->random) &&
	       keeping(s, t, s->n) == KEPT_UP;
}

/* The survey's ramp in this order; NULL: none ran. */
static const struct table *ramp_table(const struct survey *s, int random)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->tab[i].kind == TAB_RAMP && s->tab[i].random == random)
			return &s->tab[i];
	return NULL;
}

/* The most streams a ramp held at; 0: none (it collapsed at one). */
static unsigned ramp_held(const struct table *t)
{
	struct verdict v = { 0 };

	ramp_family(t, 1, t->random, &v);
	return v.type == V_NONE || v.is_null ? 0 : (unsigned)v.value;
}

/* Where a search stands, from the verdicts so far. */
struct search {
	unsigned lo, hi;	/* lo holds, hi collapses */
	int lo_full;		/* lo proven: full, or probed deep enough */
	int hi_run;
	int hi_linear;		/* hi is past the linear limit: proven */
	unsigned confirm;	/* run next: lo held unclearly (0: none) */
};

static void search_state(const struct survey *s, int random,
			 struct search *st);

/*
 * What the ramp says of the limit: it held at *lo streams (0: not
 * known) and its last step, one stream more, did not (*hi; nmax + 1: it
 * reached the cap).  The -O runs after it tell whether that was a
 * collapse.
 */
static void ramp_bounds(const struct survey *s, int random, unsigned *lo,
			unsigned *hi)
{
	const struct table *t = ramp_table(s, random);

	*lo = 0;
	*hi = s->nmax + 1;
	if (!t || !t->nrows || ramp_held(t) > s->nmax)
		return;
	*lo = ramp_held(t);
	if (*lo && t->rows[t->nrows - 1].key == (uint64_t)*lo + 1)
		*hi = *lo + 1;
}

static unsigned random_ramp_cap(const struct survey *s,
				const struct search *st);
static void cost_run(const struct survey *s, unsigned nr, double rows,
		     int collapse, struct cost *c);

/*
 * The survey's ramp stops at its first step that does not hold: the -O
 * runs after it confirm the collapse (or refute it) at a fraction of
 * the ramp's own drop and re-add.
 */
int open_au_ramp_done(const struct table *t)
{
	/* a random ramp's first row, one linear stream, is its yardstick */
	if (!t->nrows || (t->random && !t->rows[t->nrows - 1].v[RAMP_ORDER]))
		return 0;
	return t->rows[t->nrows - 1].key > ramp_held(t);
}

/*
 * The ramp pays where it writes no more than the minimal proof of the
 * limit it finds, on the typical card of the forecasts: not on AUs of
 * 512 KiB, whose coarse writes are half an AU, so that every other
 * round opens fresh AUs and judges nothing.
 */
static int ramp_pays(const struct survey *s)
{
	struct cost ramp = { 0 }, proof = { 0 };
	unsigned l = s->nmax < TYPICAL_OPEN ? s->nmax : TYPICAL_OPEN;

	survey_est_ramp(s, 0, l, s->ramp_cap, &ramp);
	if (l < s->nmax)
		cost_run(s, l + 1, collapse_rows(s), 1, &proof);
	cost_run(s, l, collapse_rows(s) + 1, 0, &proof);
	return ramp.bytes <= proof.bytes;
}

/*
 * After the reference run held at N=1: the ramp finds the limit at a
 * fraction of what -O runs cost, and they only confirm it.  In random
 * order it writes a few chunks of each AU, where an -O run above the
 * limit writes several sizes of every AU before it collapses: it pays
 * wherever it fits.
 */
int open_au_ramp_due(const struct survey *s, int random)
{
	if (random)
		return open_au_random_ramp_cap(s) > 0;
	return s->ramp_cap > 1 && !ramp_table(s, 0) && held(s, 0, 1) &&
	       ramp_pays(s);
}

unsigned open_au_random_ramp_cap(const struct survey *s)
{
	struct search st;

	if (!s->random_ramp || ramp_table(s, 1) || !held(s, 1, 1))
		return 0;
	search_state(s, 1, &st);
	return random_ramp_cap(s, &st);
}

/*
 * The linear count that held, exactly or as "at least" (a card that
 * never collapsed), however sure: the runs proving it are in what the
 * survey spent, and it is the likely random answer; 0: none.  Without
 * it the random search weighed the linear search's writes against a
 * proof of nothing and stepped N up one by one.
 */
static unsigned linear_held(const struct survey *s)
{
	const struct verdict *v = &s->a.open_au_linear;

	if (v->type == V_NONE || v->is_null || v->at_most)
		return 0;
	return (unsigned)v->value;
}

unsigned open_au_linear_held(const struct survey *s)
{
	return linear_held(s);
}

unsigned open_au_random_guess(const struct survey *s)
{
	return held(s, 1, 1) ? linear_held(s) : 0;
}

/*
 * The most the linear runs leave possible, however sure: an exact count
 * or the top of a span; 0: no top.
 */
static unsigned linear_top(const struct survey *s)
{
	const struct verdict *v = &s->a.open_au_linear;

	if (v->type == V_NONE || v->is_null || v->at_most)
		return 0;
	return (unsigned)(v->at_least ? v->upto : v->value);
}

/* The linear limit, when the verdict gives it exactly; 0: not known. */
static unsigned linear_limit(const struct survey *s)
{
	const struct verdict *v = &s->a.open_au_linear;

	return v->at_least || v->conf < CONF_MEDIUM ? 0 : linear_held(s);
}

unsigned open_au_linear_limit(const struct survey *s)
{
	return linear_limit(s);
}

/* A probe at nr held as deep as the proof needs. */
static int probe_held(const struct survey *s, int random, unsigned nr)
{
	const struct step *p = open_au_find_run(s, random, nr, 0);

	return p && !p->collapsed &&
	       s->tab[p - s->step].nrows >= open_au_probe_rows(s, random);
}

/*
 * Rows of the probe at the limit that ends a proof, once the run above
 * it collapsed: one past that collapse, and in random order at least
 * as deep as random slots running out shows.
 */
static double proof_probe_rows(const struct survey *s, int random,
			       const struct plan_cost *pc)
{
	double rows = pc->collapse + 1;

	if (random && rows < random_probe_floor(s))
		rows = random_probe_floor(s);
	return rows < pc->full ? rows : pc->full;
}

/*
 * Random slots are some of the open ones: a random search ends below
 * lin + 1, which needs no run of its own where a linear collapse proved
 * lin (proven), not where a forecast assumes it.
 */
static void below_linear(const struct survey *s, int random, unsigned lin,
			 int proven, struct search *st)
{
	if (random && lin && st->hi > lin + 1)
		st->hi = lin + 1;
	/* a random count held past the linear one: nothing left to try */
	if (st->lo >= st->hi)
		st->lo = st->hi - 1;
	st->lo_full = held_full(s, random, st->lo) ||
		      probe_held(s, random, st->lo);
	st->hi_linear = proven && random && lin && st->hi == lin + 1;
	st->hi_run = st->hi_linear || ran(s, random, st->hi);
}

/*
 * Where the verdict's linear limit lo held unclearly, a run at lo + 1
 * tells a pause (it holds) from a limit below lo: it collapses, or the
 * two make an edge in the analysis (dip_edge(), shallow_edge(),
 * same_edge()).  Once two N past the largest that held clearly (or the
 * ramp's count, rlo) held unclearly, the search takes the smallest of
 * them as its upper end and goes on below it, whatever the verdict
 * makes of them (a run can fall behind for good and stay above the
 * analysis's thresholds).
 */
static void below_unclear(const struct survey *s, unsigned rlo,
			  struct search *st)
{
	unsigned n, unclear = 0, top = st->hi;

	if (!st->lo || !held_unclearly(s, st->lo))
		return;
	for (n = st->lo; n > rlo; n--) {
		if (held_unclearly(s, n)) {
			top = n;
			unclear++;
		} else if (held(s, 0, n)) {
			break;
		}
	}
	if (unclear == 1) {
		st->confirm = st->lo < s->nmax ? st->lo + 1 : 0;
		return;
	}
	st->lo = n;
	st->hi = top;
}

/*
 * The random ramp collapsed at rhi streams, confirmed by dropping the
 * newest and adding it back, yet an -O run at rhi held, though not
 * clearly (the verdict is low): a collapse thinned out by the AUs
 * within the random slots holds like that (a card keeping 2 of 24 that
 * copies a tenth of an AU held at N=3 at 57 % of N=1).  A run at
 * rhi + 1 tells whether the limit is that near before the planner
 * searches the span up to the linear limit with full runs of many AUs
 * (there: 18, 13, 9, 6 and 4, six times what proves it).  Where the run
 * at rhi held clearly, the ramp's collapse was a pause on the bench's
 * cards, and a run above it cost more than it saved.
 */
static void past_ramp(const struct survey *s, const struct verdict *v,
		      unsigned rhi, struct search *st)
{
	if (rhi == st->lo && v->conf == CONF_LOW && rhi + 1 < st->hi &&
	    !ran(s, 1, rhi + 1))
		st->confirm = rhi + 1;
}

/*
 * lo is the verdict's limit, hi the next N that collapsed.  A full run
 * at lo that collapsed after all moves the search below it.  Random
 * slots are some of the open AUs: the random limit is at most the
 * linear one.
 */
static void search_state(const struct survey *s, int random,
			 struct search *st)
{
	const struct verdict *v = random ? &s->a.open_au_random :
				  &s->a.open_au_linear;
	const struct step *full;
	unsigned lin = linear_limit(s), rlo, rhi;
	size_t i;

	st->lo = 0;
	st->hi = s->nmax + 1;
	st->confirm = 0;
	if (v->type != V_NONE && !v->is_null) {
		if (v->at_most)
			st->hi = (unsigned)v->value + 1;
		else
			st->lo = (unsigned)v->value;
		/* held at lo, collapsed past upto: the N between are open */
		if (v->upto)
			st->hi = (unsigned)v->upto + 1;
	}
	for (i = 0; i < s->n && (!v->at_least || v->upto); i++) {
		const struct table *t = &s->tab[i];

		if (t->kind == TAB_OPENAU && t->random == random &&
		    t->open_au_nr > st->lo && t->open_au_nr < st->hi)
			st->hi = t->open_au_nr;
	}
	/* the ramp's bounds, where no -O run has contradicted them */
	ramp_bounds(s, random, &rlo, &rhi);
	if (rlo > st->lo && rlo < st->hi)
		st->lo = rlo;
	if (rhi < st->hi && rhi > st->lo)
		st->hi = rhi;
	if (!random)
		below_unclear(s, rlo, st);
	full = open_au_find_run(s, random, st->lo, 1);
	if (st->lo && full && full->collapsed) {
		st->hi = st->lo;
		while (--st->lo && !held(s, random, st->lo))
			;
	}
	/*
	 * Random slots are some of the open ones, whatever the linear
	 * verdict's confidence: the search does not climb past its top (on
	 * a card whose linear collapse was too shallow to call sure, it
	 * made full runs up to N=64), and owes a run above it.
	 */
	if (lin)
		below_linear(s, random, lin, 1, st);
	else
		below_linear(s, random, linear_top(s), 0, st);
	if (random)
		past_ramp(s, v, rhi, st);
}

/* AUs written so far. */
static double written_aus(const struct survey *s)
{
	return (double)(s->d->stats.bytes_written - s->base.bytes_written) /
	       (double)s->au;
}

/*
 * What the runs of a search cost, for the planner: in the bound, the
 * whole survey's writes against those of the runs that prove both
 * limits.
 */
static void search_cost(const struct survey *s, int random,
			struct plan_cost *c)
{
	unsigned lin = linear_held(s);

	c->nmax = s->nmax;
	c->full = survey_full_rows(s);
	c->probe = open_au_probe_rows(s, random);
	c->probes = !random && c->probe < c->full;
	/* a linear collapse shows how deep the probes after it need go */
	c->probe_seen = random ? 0 : collapse_rows(s) + 1;
	c->collapse = collapse_rows(s);
	/* the random plan makes full runs only: its proofs are those */
	c->limit_rows = random ? c->full : proof_probe_rows(s, 0, c);
	c->spent = written_aus(s);
	if (s->done[PH_FAT_LIN] != 2)
		c->spent += FAT_NR * survey_fat_rows(s);
	if (random) {
		c->proof = c->full * lin;
		if (lin < s->nmax)
			c->proof += c->collapse * (lin + 1);
	} else {
		/* the least a random search costs: N=1 collapsing */
		c->proof = c->collapse;
		c->spent += c->collapse;
	}
}

/*
 * Random slots are some of the open ones, and cards tend to have none or
 * take random writes in every open AU.  After N=1 (which collapses on a
 * card with none), a probe at the linear limit proves the other common
 * answer: tried next wherever a run there raises the worst case the plan
 * keeps (the answers it would cost most on) by LIKELY_COST at most.
 */
static unsigned likely_random(const struct survey *s, struct plan *p,
			      const struct search *st)
{
	unsigned lin = linear_held(s);

	if (lin <= st->lo || lin >= st->hi || ran(s, 1, lin) ||
	    plan_ratio_with(p, lin, 1) > LIKELY_COST * plan_ratio(p))
		return 0;
	return lin;
}

/* The planner's plan from st, and the likely random count it tries first. */
static struct plan *search_plan(const struct survey *s, int random,
				const struct plan_cost *pc,
				const struct search *st, unsigned *likely)
{
	struct plan *p = plan_make(pc, st->lo, st->hi, st->lo_full,
				   st->hi_run);

	*likely = p && random ? likely_random(s, p, st) : 0;
	return p;
}

/*
 * Where the ramp ran, what proves a limit lo: the run at lo + 1 to its
 * collapse first, then lo as a probe as deep as that collapse shows, one
 * row past it (a full run, where no collapse shows the depth, or a
 * probe went too shallow for a later one).  A random count at the
 * linear limit needs no run above it, and its probe goes as deep as
 * random slots running out shows.  0: proven.
 */
static unsigned minimal_proof(const struct survey *s, int random,
			      const struct search *st, int *full)
{
	const struct step *p = open_au_find_run(s, random, st->lo, 0);

	*full = 0;
	if (st->hi <= s->nmax && !st->hi_run)
		return st->hi;
	if (!st->lo || st->lo_full)
		return 0;
	*full = (!collapse_seen(s, random) && !st->hi_linear) || p;
	return st->lo;
}

/*
 * The next run of a search: the first a full run at N=1 (what later
 * runs are judged against, at every size), then the planner's choice
 * (in random order, the likely answer first), then what proves the
 * limit: a full run at it and a run above it.  0: nothing left.
 */
unsigned open_au_next_run(const struct survey *s, int random, int *full)
{
	struct plan_cost c;
	struct search st;
	struct plan *p;
	unsigned nr;

	*full = 1;
	if (!ran(s, random, 1))
		return 1;
	search_state(s, random, &st);
	if (st.confirm && !ran(s, random, st.confirm)) {
		*full = 0;
		return st.confirm;
	}
	search_cost(s, random, &c);
	p = search_plan(s, random, &c, &st, &nr);
	if (nr)
		*full = 0;
	if (!nr && p)
		nr = plan_move(p, st.lo, st.hi, st.lo_full, full);
	plan_free(p);
	if (nr)
		return nr;
	return minimal_proof(s, random, &st, full);
}

static void cost_run(const struct survey *s, unsigned nr, double rows,
		     int collapse, struct cost *c)
{
	c->bytes += (double)nr * (double)s->au * rows;
	c->ns += survey_est_write(s, s->full_bs, nr, (unsigned)rows, collapse);
}

/*
 * The ramp is still to run, on a card that keeps limit open, from the
 * search at st (its reference held): the streams it runs to; 0: none.
 */
static unsigned ramp_ahead(const struct survey *s, int random, unsigned limit,
			   const struct search *st)
{
	if (!limit || ramp_table(s, random) ||
	    (ran(s, random, 1) && !held(s, random, 1)))
		return 0;
	if (!random)
		return s->ramp_cap > 1 ? s->ramp_cap : 0;
	if (!s->random_ramp)
		return 0;
	/*
	 * Without a linear bound the caps have no counts to be weighed
	 * over, and weighing them all costs a plan each: the whole ramp
	 */
	return st->hi > s->nmax ? s->ramp_cap : random_ramp_cap(s, st);
}

/*
 * The minimal proof of limit: limit + 1 collapsing (in random order,
 * not past the linear limit), limit a probe.
 */
static void proof_forecast(const struct survey *s, int random,
			   unsigned limit, const struct plan_cost *pc,
			   struct cost *c)
{
	if (limit >= s->nmax) {
		cost_run(s, limit, pc->full, 0, c);
		return;
	}
	if (!random || limit != linear_limit(s))
		cost_run(s, limit + 1, pc->collapse, 1, c);
	cost_run(s, limit, proof_probe_rows(s, random, pc), 0, c);
}

/*
 * The planner's runs from st on a card keeping limit AUs open, after the
 * probe at the likely random count (0: none), then the proof's runs
 * still owed, as minimal_proof() makes them.
 */
static void plan_forecast(const struct survey *s, int random,
			  const struct plan *p, const struct plan_cost *pc,
			  struct search st, unsigned likely, unsigned limit,
			  struct cost *c)
{
	double crows = open_au_collapse_rows(s, random);
	unsigned nr = likely;
	int full = 0, deep = 0;	/* deep: lo probed as deep as a proof */

	if (!nr && p)
		nr = plan_move(p, st.lo, st.hi, st.lo_full, &full);
	while (nr) {
		if (nr > limit) {
			cost_run(s, nr, crows, 1, c);
			st.hi = nr;
			st.hi_run = 1;
		} else {
			deep = !full && nr == likely;
			cost_run(s, nr, full ? pc->full : deep ? pc->probe :
				 plan_probe_rows(pc), 0, c);
			st.lo = nr;
			st.lo_full = full;
		}
		nr = p ? plan_move(p, st.lo, st.hi, st.lo_full, &full) : 0;
	}
	if (st.hi <= s->nmax && !st.hi_run) {
		cost_run(s, st.hi, crows, 1, c);
		st.hi_run = 1;
	}
	if (st.lo && !st.lo_full && !deep && !probe_held(s, random, st.lo))
		cost_run(s, st.lo, st.hi_run && st.hi <= s->nmax ?
			 proof_probe_rows(s, random, pc) : pc->full, 0, c);
}

/* The larger of a's device time and bytes over b's. */
static double cost_ratio(const struct cost *a, const struct cost *b)
{
	double t = b->ns > 0 ? a->ns / b->ns : 0;
	double w = b->bytes > 0 ? a->bytes / b->bytes : 0;

	return t > w ? t : w;
}

/*
 * The search after a random ramp that held up to its cap: the planner's
 * runs from there, the likely answer first.
 */
struct after_ramp {
	unsigned cap, likely;
	struct search st;
	struct plan *p;
};

/* The search after a random ramp held up to cap, from st; 0: no memory. */
static int after_ramp_make(const struct survey *s, const struct plan_cost *pc,
			   const struct search *st, unsigned cap,
			   struct after_ramp *a)
{
	a->cap = cap;
	a->st = *st;
	a->st.lo = cap;
	a->st.lo_full = 0;
	a->p = search_plan(s, 1, pc, &a->st, &a->likely);
	return a->p != NULL;
}

/*
 * The ramp on a card keeping limit AUs open: below its cap it finds the
 * limit and the minimal proof follows; a random ramp that held up to its
 * cap (a: NULL for the linear one, whose cap is every stream that fits)
 * leaves the search to go on from there.
 */
static void ramp_forecast(const struct survey *s, int random, unsigned limit,
			  const struct plan_cost *pc,
			  const struct after_ramp *a, struct cost *c)
{
	survey_est_ramp(s, random, limit, a ? a->cap : s->ramp_cap, c);
	if (a && limit >= a->cap)
		plan_forecast(s, random, a->p, pc, a->st, a->likely, limit, c);
	else
		proof_forecast(s, random, limit, pc, c);
}

/* What a random ramp under way has spent so far; nothing before it. */
static void ramp_spent(const struct survey *s, struct cost *c)
{
	if (!s->cut.ramp_streams)
		return;
	c->ns += s->cut.mark_ns - s->cut.ramp_start_ns;
	c->bytes += (double)(s->d->stats.bytes_written -
			     s->cut.ramp_start_bytes);
}

/*
 * The worst, over the random counts st leaves possible, of a search's
 * cost over the minimal proof: the ramp's (a) or else the planner's
 * (p, trying likely first).
 */
static double worst_ratio(const struct survey *s, const struct plan_cost *pc,
			  const struct search *st, struct plan *p,
			  unsigned likely, const struct after_ramp *a)
{
	double worst = 0, r;
	unsigned n;

	for (n = st->lo > 1 ? st->lo : 1; n < st->hi && n <= s->nmax; n++) {
		struct cost run = { 0 }, proof = { 0 };

		ramp_spent(s, &run);
		if (a)
			ramp_forecast(s, 1, n, pc, a, &run);
		else
			plan_forecast(s, 1, p, pc, *st, likely, n, &run);
		proof_forecast(s, 1, n, pc, &proof);
		r = cost_ratio(&run, &proof);
		worst = r > worst ? r : worst;
	}
	return worst;
}

/*
 * Caps a random ramp may stop at: every count up to 4, then the series
 * of 2^n and 3 * 2^(n-1), then top; 0: past top.  The forecasts' worst
 * case changes little between neighbours above 4, and every candidate
 * costs a plan.
 */
static unsigned next_cap(unsigned k, unsigned top)
{
	unsigned m;

	if (k >= top)
		return 0;
	if (k < 4)
		return k + 1;
	for (m = 4; m <= k; m *= 2)
		;
	/* m is the power of two above k; 3 * m / 4 lies between them */
	m = 3 * m / 4 > k ? 3 * m / 4 : m;
	return m < top ? m : top;
}

/*
 * The streams the random ramp runs to, after its N=1 reference held at
 * st; 0: no ramp.  Each step of the ramp writes into every stream's AU:
 * on a card keeping many AUs open that take random writes, climbing to
 * the linear limit cost more than the probes bisecting it (5 times the
 * minimal proof, on a random sim card keeping 24), where on small counts
 * the ramp is the cheaper search.  So the ramp stops at the cap whose
 * forecast worst case, over the counts still possible, of its cost and
 * the search's after it over the minimal proof is least, and runs only
 * where that is no more than the planner's -O runs would keep.
 */
static unsigned random_ramp_cap(const struct survey *s,
				const struct search *st)
{
	/*
	 * Below a linear limit the runs proved, the probe at that limit
	 * follows the ramp whatever the ramp's step there shows (held, it
	 * proves the count; collapsed, it is the proof's run above it):
	 * the step would only add its writes.
	 */
	unsigned hi = st->hi_linear ? st->hi - 1 : st->hi;
	unsigned top = hi - 1 < s->ramp_cap ? hi - 1 : s->ramp_cap;
	unsigned k, likely, best = 0;
	struct after_ramp a;
	struct plan_cost pc;
	double worst, least;
	struct plan *p;

	if (top < 2 || st->lo >= top)
		return 0;
	search_cost(s, 1, &pc);
	p = search_plan(s, 1, &pc, st, &likely);
	if (!p)
		return top;
	least = worst_ratio(s, &pc, st, p, likely, NULL);
	plan_free(p);
	for (k = st->lo + 1 > 2 ? st->lo + 1 : 2; k; k = next_cap(k, top)) {
		if (!after_ramp_make(s, &pc, st, k, &a))
			break;
		worst = worst_ratio(s, &pc, st, NULL, 0, &a);
		plan_free(a.p);
		if (worst < least || (!best && worst <= least)) {
			least = worst;
			best = k;
		}
	}
	return best;
}

/*
 * The rest of a search on a card that keeps limit AUs open; lin: the
 * linear limit the forecast of the linear search assumed (0: none).
 * Random slots are some of the open AUs: that random search ends below
 * it, as the survey's does below the linear limit it found (without
 * the bound, the forecast made after the ramp, before the linear proof,
 * bisected the random count over every N up to the cap).  Returns the
 * limit it assumed where the runs so far bound it from above (the ramp's
 * failed step, a run that collapsed), else 0: a guess of the linear
 * count bounds no random run (over 40 random sim cards and the
 * profiles, before the random ramp, bounding the random search by the
 * guess of 8 made the plan after the reference run worse: 10 of 45
 * within 1.5x, against 13).  Where the random ramp is still to run its
 * forecast stands instead: the bound tells only where it does not fit.
 */
unsigned open_au_forecast(const struct survey *s, int random, unsigned limit,
			  unsigned lin, struct cost *c)
{
	struct plan_cost pc;
	struct search st;
	struct plan *p;
	double crows = open_au_collapse_rows(s, random);
	struct after_ramp a;
	unsigned cap, likely;
	int bounded;

	search_cost(s, random, &pc);
	search_state(s, random, &st);
	bounded = st.hi <= s->nmax;
	if (random && lin && st.hi > lin + 1)
		below_linear(s, random, lin, 0, &st);
	if (!ran(s, random, 1)) {
		cost_run(s, 1, limit ? pc.full : crows, !limit, c);
		if (limit)
			st.lo = 1;
		else
			st.hi = 1;
		st.lo_full = limit > 0;
	}
	if (limit > s->nmax)
		limit = s->nmax;
	/* a guess, but never outside what the runs so far have proven */
	if (limit < st.lo)
		limit = st.lo;
	if (limit >= st.hi)
		limit = st.hi - 1;
	cap = ramp_ahead(s, random, limit, &st);
	if (cap && !random) {
		ramp_forecast(s, random, limit, &pc, NULL, c);
		return bounded ? limit : 0;
	}
	if (cap && after_ramp_make(s, &pc, &st, cap, &a)) {
		ramp_forecast(s, random, limit, &pc, &a, c);
		plan_free(a.p);
		return bounded ? limit : 0;
	}
	p = search_plan(s, random, &pc, &st, &likely);
	plan_forecast(s, random, p, &pc, st, likely, limit, c);
	plan_free(p);
	return bounded ? limit : 0;
}

/*
 * 1: a run at nr in this order is forecast to collapse: it is past
 * what the runs so far have proven holds; or, once a random run has
 * collapsed, past limit, the count the forecasts assume (within what
 * is proven, as in open_au_forecast()).  From there the random search
 * tries the counts above the likely one downwards, so most of its runs
 * collapse: over 40 random sim cards and the profiles, before the
 * random ramp, this rule kept 228 step forecasts of 361 within 1.5x,
 * 224 the proven bound alone, 217 the guess in both orders from the
 * start (a linear guess of 8 misses the many cards keeping more).  The
 * random ramp now bounds the random count first: 220 of 350 with this
 * rule or the proven bound alone, 213 the guess in both orders.
 */
int open_au_collapse_due(const struct survey *s, int random, unsigned nr,
			 unsigned limit)
{
	struct search st;

	search_state(s, random, &st);
	if (!random || !collapse_seen(s, random))
		limit = st.hi - 1;
	if (limit < st.lo)
		limit = st.lo;
	if (limit >= st.hi)
		limit = st.hi - 1;
	return nr > limit;
}
