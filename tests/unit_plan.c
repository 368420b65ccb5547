// SPDX-License-Identifier: GPL-2.0
/*
 * The survey's open-AU planner on simulated limits: every search ends at
 * the limit, and its worst cost over the proof is no worse than that of
 * galloping and bisecting, the search it replaces.
 */
#include <stdlib.h>

#include "check.h"
#include "survey/plan.h"

#define NMAX 64

/*
 * The proof of limit l: the run above to its collapse, a run at it a row
 * deeper; a full run at the largest N that fits.
 */
static double proof(const struct plan_cost *c, unsigned l)
{
	if (l >= c->nmax)
		return c->full * l;
	return c->limit_rows * l + c->collapse * (l + 1);
}

/* What a run at n costs on a card whose limit is l; lo, hi move. */
static double run(const struct plan_cost *c, unsigned l, unsigned n,
		  int full, unsigned *lo, unsigned *hi, int *lo_full)
{
	if (n > l) {
		*hi = n;
		return c->collapse * n;
	}
	*lo = n;
	*lo_full = full;
	/* a plan probes without c->probes only once a run collapsed */
	if (!full && (c->probes || *hi <= c->nmax) && plan_probe_rows(c))
		return plan_probe_rows(c) * n;
	return c->full * n;
}

/*
 * The run that ends a search: the one above the limit, if owed (a search
 * from nothing probes as deep as a proof needs).
 */
static double finish(const struct plan_cost *c, unsigned hi, int hi_run)
{
	return hi <= c->nmax && !hi_run ? c->collapse * hi : 0;
}

static double planned(const struct plan_cost *c, unsigned l, unsigned *found)
{
	unsigned lo = 0, hi = c->nmax + 1, n, steps = 0;
	struct plan *p = plan_make(c, lo, hi, 0, 0);
	double cost = 0;
	int lf = 0, full, bad = 0;

	while (p && (n = plan_move(p, lo, hi, lf, &full)) && steps++ < 200) {
		bad |= n <= lo || n >= hi;
		cost += run(c, l, n, full, &lo, &hi, &lf);
	}
	plan_free(p);
	*found = bad || !p ? ~0u : lo;
	return cost + finish(c, hi, hi != c->nmax + 1);
}

/* From 1 doubling until a run collapses, then halving the gap. */
static double galloped(const struct plan_cost *c, unsigned l)
{
	unsigned lo = 0, hi = c->nmax + 1, n;
	double cost = 0;
	int lf = 0;

	while (hi > lo + 1 && lo < c->nmax) {
		if (hi > c->nmax)
			n = lo ? (2 * lo < c->nmax ? 2 * lo : c->nmax) : 1;
		else
			n = lo + (hi - lo) / 2;
		cost += run(c, l, n, 0, &lo, &hi, &lf);
	}
	return cost + finish(c, hi, hi != c->nmax + 1);
}

static double limits(const char *what, const struct plan_cost *c)
{
	double worst = 0, gallop = 0, r;
	unsigned l, found, wrong = 0;

	for (l = 1; l <= c->nmax; l++) {
		r = planned(c, l, &found) / proof(c, l);
		wrong += found != l;
		if (r > worst)
			worst = r;
		r = galloped(c, l) / proof(c, l);
		if (r > gallop)
			gallop = r;
	}
	CHECK(!wrong, "plan, %s: every limit 1..%u found (%u missed)", what,
	      c->nmax, wrong);
	CHECK(worst <= gallop + 1e-9, "plan, %s: worst cost %.2f times the "
	      "proof, galloping and bisecting %.2f", what, worst, gallop);
	return worst;
}

/*
 * A first run forced on the plan keeps a worst case no better than its
 * own choice, and its own choice forced keeps the plan's.
 */
static void check_ratios(struct plan *p)
{
	double own = p ? plan_ratio(p) : 0, r, best = 1e9;
	unsigned n, pick = 0;
	int full = 0, worse = 0;

	if (p)
		pick = plan_move(p, 0, NMAX + 1, 0, &full);
	for (n = 1; p && n <= NMAX; n++) {
		r = plan_ratio_with(p, n, 1);
		worse += r < own - 1e-3;
		if (r < best)
			best = r;
	}
	CHECK(p && pick && !worse, "plan: no first run keeps a better worst "
	      "case than the plan's own (%.2f, best forced %.2f)", own, best);
	r = p ? plan_ratio_with(p, pick, full) : 0;
	CHECK(p && r < own * 1.01 && r > own * 0.99, "plan: its own first run "
	      "forced keeps its worst case (%.2f, %.2f)", own, r);
	CHECK(p && plan_move(p, 0, NMAX + 1, 0, &full) == pick,
	      "plan: asking about other first runs leaves the plan as it was");
}

int main(void)
{
	struct plan_cost c = { .nmax = NMAX, .probe = 3, .full = 12,
			       .collapse = 3, .limit_rows = 4, .probes = 1 };
	struct plan *p;
	unsigned found;
	double r, r_seen;
	int full;

	limits("probes of 3 rows, full runs of 12", &c);
	c.probe = 12;
	c.probes = 0;
	c.collapse = 8;
	c.limit_rows = 9;
	limits("every run full", &c);
	c.nmax = 1;
	limits("one N fits", &c);
	/*
	 * Before a run has collapsed, how deep a probe must go is unknown;
	 * a plan that knows the probes a collapse makes possible gallops
	 * for one sooner and keeps a better worst case.
	 */
	c = (struct plan_cost){ .nmax = NMAX, .probe = 11, .full = 11,
				.collapse = 3, .limit_rows = 4 };
	r = limits("full runs until a collapse", &c);
	c.probe_seen = 4;
	r_seen = limits("probes of 4 rows once a run collapsed", &c);
	CHECK(r_seen < r, "plan: probes after a collapse keep a better worst "
	      "case (%.2f times the proof, without %.2f)", r_seen, r);

	c = (struct plan_cost){ .nmax = NMAX, .probe = 3, .full = 12,
				.collapse = 3, .limit_rows = 4, .probes = 1 };
	p = plan_make(&c, 6, 7, 1, 1);
	CHECK(p && !plan_move(p, 6, 7, 1, &full),
	      "plan: nothing left between a run that held and one above it "
	      "that collapsed");
	plan_free(p);
	p = plan_make(&c, 6, 8, 0, 1);
	CHECK(p && plan_move(p, 6, 8, 0, &full) == 7 && !full,
	      "plan: the last N left runs as a probe (as deep as it proves "
	      "the limit if it holds)");
	plan_free(p);
	p = plan_make(&c, 0, NMAX + 1, 0, 0);
	check_ratios(p);
	plan_free(p);
	planned(&c, 64, &found);
	CHECK(found == 64, "plan: a card that never collapses ends at the "
	      "largest N that fits (%u)", found);
	return CHECK_DONE();
}
