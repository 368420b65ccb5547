// SPDX-License-Identifier: GPL-2.0
/*
 * The survey's choice of the next open-AU count to try.  A search pays
 * for every run it makes, while the answer it finds is only as dear as
 * the runs that prove it; the planner picks the N that keeps the worst
 * case of the one over the other lowest.  For a ratio a, the cheapest
 * worst case of (cost - a * proof) over the limits still possible is a
 * minimax over the intervals [lo, hi] of N (N <= 64, so all of them fit
 * in a table); the smallest a whose worst case fits the budget is found
 * by bisection, and its moves are the plan.  It gallops where runs are
 * cheap next to the proof and steps up in smaller strides where a wrong
 * guess above the limit would cost more than the proof itself.
 */
#include <stdlib.h>

#include "survey/plan.h"

#define RATIO_MAX 64.0
#define RATIO_STEPS 20
#define EPS 1e-9

struct plan {
	struct plan_cost c;
	unsigned lo0, hi0, w;
	int lf0, hi_run;
	double a;
	double *v;		/* worst of cost - a * proof, by state */
	unsigned *pick;		/* the move there: N << 1 | full, 0: none */
};

static double proof(const struct plan_cost *c, unsigned l)
{
	if (l >= c->nmax)
		return c->full * l + c->proof;
	return c->limit_rows * l + c->collapse * (l + 1) + c->proof;
}

static size_t at(const struct plan *p, unsigned lo, unsigned hi, int lf)
{
	return ((size_t)(lo - p->lo0) * p->w + (hi - p->lo0)) * 2 +
	       (size_t)lf;
}

/*
 * Rows of a probe from a state: below a run that collapsed (hi short of
 * where the plan began, or the run at hi0 made) the depth collapses set
 * in is known; 0: no probes there.
 */
static double probe_rows(const struct plan *p, unsigned hi)
{
	const struct plan_cost *c = &p->c;

	return c->probes || hi < p->hi0 || p->hi_run ? plan_probe_rows(c) : 0;
}

double plan_probe_rows(const struct plan_cost *c)
{
	return c->probes ? c->probe : c->probe_seen;
}

/*
 * The limit is lo: the collapse above it if owed, and a run at lo where
 * the search began there with nothing that proves it (the plan's own
 * probes go as deep as a proof needs): a probe once a collapse shows
 * how deep, else a full run.
 */
static double leaf(const struct plan *p, unsigned lo, unsigned hi, int lf)
{
	const struct plan_cost *c = &p->c;
	double v = -p->a * proof(c, lo), rows = probe_rows(p, hi);

	if (lo && lo == p->lo0 && !lf)
		v += (rows ? rows : c->full) * lo;
	if (hi == p->hi0 && !p->hi_run && hi <= c->nmax)
		v += c->collapse * hi;
	return v;
}

/* The two outcomes of a run at n from a state: it holds, it collapses. */
static void outcomes(const struct plan *p, unsigned lo, unsigned hi, int lf,
		     unsigned n, int full, double *hold, double *drop)
{
	const struct plan_cost *c = &p->c;

	*drop = c->collapse * n + p->v[at(p, lo, n, lf)];
	*hold = (full ? c->full : probe_rows(p, hi)) * n +
		p->v[at(p, n, hi, full)];
}

/*
 * The move with the cheapest worst outcome; of moves alike in that, the
 * one whose other outcome is cheaper.
 */
static void state(struct plan *p, unsigned lo, unsigned hi, int lf)
{
	const struct plan_cost *c = &p->c;
	size_t i = at(p, lo, hi, lf);
	double hold, drop, worst, other, best_other = 0;
	unsigned n;
	int full;

	p->pick[i] = 0;
	if (hi == lo + 1 || lo >= c->nmax) {
		p->v[i] = leaf(p, lo, hi, lf);
		return;
	}
	for (n = lo + 1; n < hi; n++) {
		for (full = !probe_rows(p, hi); full < 2; full++) {
			outcomes(p, lo, hi, lf, n, full, &hold, &drop);
			worst = hold > drop ? hold : drop;
			other = hold > drop ? drop : hold;
			if (p->pick[i] && (worst > p->v[i] + EPS ||
					   (worst > p->v[i] - EPS &&
					    other >= best_other)))
				continue;
			p->v[i] = worst;
			best_other = other;
			p->pick[i] = n << 1 | (unsigned)full;
		}
	}
}

/* Every interval inside [lo0, hi0], shortest first. */
static void solve(struct plan *p, double a)
{
	unsigned len, lo;
	int lf;

	p->a = a;
	for (len = 1; len <= p->hi0 - p->lo0; len++)
		for (lo = p->lo0; lo + len <= p->hi0; lo++)
			for (lf = 0; lf < 2; lf++)
				state(p, lo, lo + len, lf);
}

/*
 * The worst of cost - a * proof from the start, with the plan's own first
 * move (n = 0) or with a run at n first.
 */
static double worst_from(struct plan *p, int lo_full, unsigned n, int full)
{
	double hold, drop;

	if (!n)
		return p->v[at(p, p->lo0, p->hi0, lo_full)];
	outcomes(p, p->lo0, p->hi0, lo_full, n, full, &hold, &drop);
	return hold > drop ? hold : drop;
}

/* The smallest ratio the search stays within, first move as above. */
static double bound(struct plan *p, int lo_full, unsigned n, int full)
{
	double a = 0, b = RATIO_MAX, m;
	unsigned k;

	for (k = 0; k < RATIO_STEPS; k++) {
		m = (a + b) / 2;
		solve(p, m);
		if (p->c.spent + worst_from(p, lo_full, n, full) <= 0)
			b = m;
		else
			a = m;
	}
	return b;
}

struct plan *plan_make(const struct plan_cost *c, unsigned lo, unsigned hi,
		       int lo_full, int hi_run)
{
	struct plan *p = calloc(1, sizeof(*p));
	size_t cells;

	if (!p)
		return NULL;
	if (hi > c->nmax + 1)
		hi = c->nmax + 1;
	if (lo >= hi)
		lo = hi - 1;
	*p = (struct plan){ .c = *c, .lo0 = lo, .hi0 = hi, .hi_run = hi_run,
			    .w = hi - lo + 1, .lf0 = lo_full };
	cells = (size_t)p->w * p->w * 2;
	p->v = malloc(cells * sizeof(*p->v));
	p->pick = malloc(cells * sizeof(*p->pick));
	if (!p->v || !p->pick) {
		plan_free(p);
		return NULL;
	}
	solve(p, bound(p, lo_full, 0, 0));
	return p;
}

double plan_ratio(const struct plan *p)
{
	return p->a;
}

double plan_ratio_with(struct plan *p, unsigned n, int full)
{
	double a = p->a, r;

	if (n <= p->lo0 || n >= p->hi0 || (!full && !probe_rows(p, p->hi0)))
		return RATIO_MAX;
	r = bound(p, p->lf0, n, full);
	solve(p, a);
	return r;
}

unsigned plan_move(const struct plan *p, unsigned lo, unsigned hi,
		   int lo_full, int *full)
{
	unsigned pick;

	*full = 0;
	if (lo < p->lo0 || hi > p->hi0 || lo >= hi)
		return 0;
	pick = p->pick[at(p, lo, hi, lo_full)];
	*full = pick & 1;
	return pick >> 1;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	free(p->v);
	free(p->pick);
	free(p);
}
