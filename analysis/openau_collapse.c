// SPDX-License-Identifier: GPL-2.0
/*
 * Has an open-AU run collapsed?  Each run is judged on its own curve and,
 * where there are other runs of the same test (same order, same erase
 * size), against the best rate they reach at each size.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "lib/units.h"

/*
 * Shares of a reference rate (the healthy rate of the runs of the same
 * test, or a run's own best) that tell a collapse from noise.  A card
 * within its limit writes every size of a page or more at well over
 * half its best (the command overhead is a small part of a 64 KiB
 * write); an AU past the limit pays a copy per write.
 *
 * SLOW: at this share or less a size is slow, more than noise moves it:
 * two such sizes in a row are a collapse on a run's own curve, one alone
 * (a pause to collect garbage) makes a run that held marginal, and a best
 * of the runs that falls this low sags.
 */
#define SLOW 0.6
/* ...and below this, two sizes weaken a verdict that rests on the run */
#define SLOWER 0.7
/* FAST_AGAIN: smaller writes back at this share after two slow sizes:
 * a dip (the card paused; seed 002, one AU), not a collapse. */
#define FAST_AGAIN 0.8
/*
 * FAR_BELOW: a pause of the card slows a short row, seldom to a third:
 * a collapse that reaches this share is not weak, a run that held with a
 * size below it is left low.
 */
#define FAR_BELOW 0.35
/* A size this far below the other runs twice is no noise either. */
#define SEVERE 0.25
/*
 * COST_FLOOR: what a card does with an order or a large page (writes
 * that cost more, not a collapse) slows writes of 64 KiB or more to this
 * share of the best at most; a size under it is no sweep's disturbance.
 */
#define COST_FLOOR 0.3
/* Each write paying the same copy: the rate halves with the size, each
 * size at this share of the one before or less. */
#define HALVING 0.65
/*
 * A decline (declines_to): each write paying a cost its size does not (a
 * log-structured card's merges, the backward writes of one AU past the
 * random slots).  Steep: each size at DECLINE_STEP of the one before or
 * less, ending at DEEP.  Gradual: each size between DEEP and DECLINE_RISE
 * of the one before (a cliff at one size is no decline, noise moves a
 * size by a few per cent), DECLINE_FALLS of them falling
 * to DECLINE_FALL or less, the last at DECLINE_END or less and at
 * 1 / DECLINE_SPAN of the first.  On its own curve a decline is a
 * collapse from DECLINE_COLLAPSE down.
 */
#define DECLINE_STEP 0.92
#define DECLINE_RISE 1.05
#define DECLINE_FALL 0.95
#define DECLINE_FALLS 3
#define DECLINE_END 0.4
#define DECLINE_SPAN 1.5
#define DECLINE_COLLAPSE 0.45
/*
 * Random order against linear (order_falls): where in-order writes run
 * at LINEAR_FULL of their best or more (a page or more), what a random
 * run loses is the order's cost.  A card within its random slots pays a
 * cost per page, a flat share of the linear rate at every size (25-65 %
 * on the sim's merging cards, a third on tests/real/013's Kingston); an
 * AU past them pays a copy per write, so the share falls size after
 * size, each at ORDER_STEP of the one before or less, ORDER_SPAN from
 * the first to the last, to DEEP.  It falls below 64 KiB too: 58 % at
 * 64 KiB, 29 % at 16 KiB on a 1 MiB AU that copies a tenth of itself.
 */
#define LINEAR_FULL 0.7
#define ORDER_STEP 0.85
#define ORDER_SPAN 1.6
#define ORDER_SIZES 3
/* A run that held looks collapsed within this factor of one that did. */
#define ALIKE 1.25
/* Writes of half the erase size at this share of full speed still are. */
#define HALF_FULL 0.9

/*
 * A sweep cell left blank beside measured ones: the column fell below
 * its pruning threshold, far below its best; not a cell never measured.
 */
static int pruned(const struct column *c, size_t i)
{
	const struct table *t = c->t;
	unsigned j;

	if (t->kind != TAB_SWEEP || isfinite(cell(c, i)))
		return 0;
	for (j = 0; j < t->ncols; j++)
		if (isfinite(t->rows[i].v[j]))
			return 1;
	return 0;
}

/* At share of ref or below; a pruned cell is far below anything. */
static int low_cell(const struct column *c, size_t i, double share,
		    double ref)
{
	return cell(c, i) <= share * ref || pruned(c, i);
}

/* The rate of run d at size key; NAN where it was not measured. */
static double rate_at(const struct column *d, uint64_t key)
{
	size_t r;

	for (r = 0; r < d->t->nrows; r++)
		if (d->t->rows[r].key == key)
			return cell(d, r);
	return NAN;
}

/*
 * What the card manages at this write size when nothing gets in its way:
 * the best rate of the runs of the same test (same order, same erase
 * size) at this size.  Other tests (find-FAT, the other order) write in
 * other ways and are no reference.
 */
static double order_rate(const struct column *c, size_t m, int random,
			 uint64_t group, uint64_t key)
{
	double best = NAN, x;
	size_t i;

	for (i = 0; i < m; i++) {
		if (c[i].random != random || c[i].group != group)
			continue;
		x = rate_at(&c[i], key);
		if (isfinite(x) && !(x <= best))
			best = x;
	}
	return best;
}

static double healthy_rate(const struct column *c, size_t m,
			   const struct column *self, uint64_t key)
{
	return order_rate(c, m, self->random, self->group, key);
}

/* Other runs of the same test to compare with? */
static int has_peers(const struct column *c, size_t m,
		     const struct column *self)
{
	size_t i;

	for (i = 0; i < m; i++)
		if (&c[i] != self && c[i].random == self->random &&
		    c[i].group == self->group)
			return 1;
	return 0;
}

/* Rates by size, largest first: one run's, or the best of several. */
#define CURVE_MAX 64

struct curve {
	size_t n;
	uint64_t key[CURVE_MAX];
	double rate[CURVE_MAX];	/* NAN: not measured; 0: pruned */
};

static void curve_of(const struct column *c, struct curve *cv)
{
	size_t i;

	cv->n = c->t->nrows < CURVE_MAX ? c->t->nrows : CURVE_MAX;
	for (i = 0; i < cv->n; i++) {
		cv->key[i] = c->t->rows[i].key;
		cv->rate[i] = pruned(c, i) ? 0 : cell(c, i);
	}
}

/* The best rate of the runs of self's test at each of its sizes. */
static void envelope(const struct column *all, size_t m,
		     const struct column *self, struct curve *cv)
{
	size_t i;

	curve_of(self, cv);
	for (i = 0; i < cv->n; i++) {
		double best = healthy_rate(all, m, self, cv->key[i]);

		if (isfinite(best))
			cv->rate[i] = best;
	}
}

/* What a curve shows on its own. */
struct own {
	int collapsed;
	int weak;		/* two sizes only, neither far below */
	double share;		/* its lowest rate over its best */
	size_t low, at;		/* where the lowest and the best are */
};

/*
 * A decline ending at size j (q: shares of a reference, largest size
 * first; *from: the size it fell from): four sizes or more in a row, each
 * at 92 % or less of the one before and the last at half or less, or
 * each between half and 105 % of the one before, three of them falling
 * by 5 % or more, the last at 40 % or less and at two thirds or less of
 * the first.  Each write paying a cost
 * its size does not (a log-structured card's merges, the backward writes
 * of one AU past the random slots) falls like that; noise and pauses do
 * not fall size after size, and a cliff at one size is no decline.
 */
static int declines_to(const double *q, size_t j, size_t *from)
{
	size_t i, falls = 0;

	for (i = j; i > 0 && q[i] <= DECLINE_STEP * q[i - 1]; i--)
		;
	if (j >= i + 3 && q[j] <= DEEP) {
		*from = i;
		return 1;
	}
	for (i = j; i > 0 && q[i] <= DECLINE_RISE * q[i - 1] &&
	     q[i] >= DEEP * q[i - 1]; i--)
		falls += q[i] <= DECLINE_FALL * q[i - 1];
	*from = i;
	return falls >= DECLINE_FALLS && q[j] <= DECLINE_END &&
	       q[j] * DECLINE_SPAN <= q[i];
}

/*
 * A decline on a run's own curve, from a size of 64 KiB or more down to
 * 45 % of its best or less (a page, at most 64 KiB, slows only smaller
 * writes): a collapse, weak unless that size is at 35 % or less.
 */
static void own_decline(const struct curve *cv, double best, struct own *o)
{
	double q[CURVE_MAX], lowest = 1;
	size_t n, j, k, from;

	for (n = 0; n + 1 < cv->n && !isnan(cv->rate[n + 1]); n++)
		q[n] = cv->rate[n + 1] / best;
	for (j = 0; j < n; j++) {
		if (!declines_to(q, j, &from))
			continue;
		for (k = from + 1; k <= j && cv->key[k + 1] >= PAGE_MAX; k++)
			lowest = fmin(lowest, q[k]);
	}
	o->collapsed = lowest <= DECLINE_COLLAPSE;
	o->weak = lowest > FAR_BELOW;
}

/*
 * On its own curve.  A card within its limit writes every size of a
 * page or more at well over half its best rate (the command overhead is
 * a small part of a 64 KiB write), and whole-AU writes never collapse.
 * Two sizes in a row from 64 KiB up to half the erase size at 60 % of
 * the best or less, one of them at half, are a collapse; one alone may be
 * an outlier (the card paused to collect garbage).  Where smaller writes
 * are fast again, it takes three: two are a dip (seed 002, one AU).  So
 * is a decline that reaches 45 % at 64 KiB or more (own_decline).
 */
static void own_curve(const struct curve *cv, struct own *o)
{
	size_t i, run = 0, deep = 0, longest = 0, end = 0, fall;
	double best = 0;
	int halving, dip;

	memset(o, 0, sizeof(*o));
	o->share = INFINITY;
	for (i = 0; i < cv->n && cv->key[i] >= PAGE_MAX; i++) {
		if (cv->rate[i] > best) {
			best = cv->rate[i];
			o->at = i;
		}
	}
	if (!(best > 0))
		return;
	for (i = 1; i < cv->n && cv->key[i] >= PAGE_MAX; i++) {
		double x = cv->rate[i];

		run = x <= SLOW * best ? run + 1 : 0;
		deep = x <= DEEP * best ? i : deep;
		if (run >= 2 && deep + 1 >= i && run > longest) {
			longest = run;
			end = i;
		}
		if (x > 0 && x / best < o->share) {
			o->share = x / best;
			o->low = i;
		}
	}
	for (i = end + 1, dip = 0; longest == 2 && i < cv->n; i++)
		dip |= cv->rate[i] >= FAST_AGAIN * best;
	o->collapsed = longest >= 2 && !dip;
	if (!o->collapsed) {
		own_decline(cv, best, o);
		return;
	}
	/*
	 * No size under a third of the best, nor the rate halving with the
	 * size (each write paying the same copy), nor falling size after
	 * size to 40 % (a log-structured card's gradual decline): a sweep's
	 * disturbance (the AUs the row before left open) or noise may do
	 * that much.
	 */
	for (i = 1, o->weak = o->collapsed; i < cv->n; i++)
		o->weak &= !(cv->rate[i] <= COST_FLOOR * best);
	for (i = end + 1 - longest, halving = 1; o->weak && i <= end; i++)
		halving &= cv->rate[i] <= HALVING * cv->rate[i - 1];
	for (i = end, fall = 0; o->weak && i > 0 &&
	     cv->rate[i] <= DECLINE_FALL * cv->rate[i - 1]; i--)
		fall++;
	o->weak &= !halving &&
		   !(fall >= 4 && cv->rate[end] <= DECLINE_END * best);
}

/* Quote a run against its own best; a size at 60 % or less is marginal. */
static void own_evidence(struct column *c, const struct own *o)
{
	if (!o->low)
		return;
	c->worst = cell(c, o->low);
	c->worst_key = c->t->rows[o->low].key;
	c->worst_ref = cell(c, o->at);
	c->ref_key = c->t->rows[o->at].key;
	c->own = 1;
	if (!o->collapsed && o->share <= SLOW && !c->marginal)
		c->marginal = 1;
}

/*
 * Against the other runs: writes (all but the whole-AU one) far below
 * the healthy rate at half of the sizes below 50 %, or at two below 25 %
 * (a dip that deep is not noise), or declining size after size.
 */
static int peer_collapse(struct column *c, const struct column *all,
			 size_t m)
{
	size_t i, nk = 0, low = 0, severe = 0, weak = 0, deep = 0, from;
	double deepest = 1, q[CURVE_MAX];

	c->worst = INFINITY;
	for (i = 1; i < c->t->nrows && nk < CURVE_MAX; i++) {
		double x = pruned(c, i) ? 0 : cell(c, i), ref;

		ref = healthy_rate(all, m, c, c->t->rows[i].key);
		if (!isfinite(x) || !(ref > 0))
			continue;
		q[nk++] = x / ref;
		low += x < DEEP * ref;
		severe += x < SEVERE * ref;
		if (i >= 2) {
			weak += x < SLOWER * ref;
			deep += x < DEEP * ref;
			deepest = fmin(deepest, x / ref);
		}
		c->dip |= x < DEEP * ref && c->t->rows[i].key >= PAGE_MAX;
		if (x > 0 && (!isfinite(c->worst) ||
			      x / ref < c->worst / c->worst_ref)) {
			c->worst = x;
			c->worst_ref = ref;
			c->worst_key = c->t->rows[i].key;
		}
	}
	/*
	 * Held, but sizes well below the others: an AU that is not quite
	 * open, or a collapse thinned out by the AUs that are.  Two below
	 * 70 % or one below 60 % weaken a verdict that rests on it, two
	 * below 50 % or one far below (a pause of the card slows a short
	 * row, seldom to a third) leave it low.  The big writes of a fine
	 * run may be slow (seed 001): the two largest sizes do not count.
	 */
	if (deep >= 2 || deepest < FAR_BELOW)
		c->marginal = 2;
	else if (weak >= 2 || deepest < SLOW)
		c->marginal = 1;
	for (i = 0; i < nk && !declines_to(q, i, &from); i++)
		;
	return (nk && 2 * low >= nk) || severe >= 2 || i < nk;
}

/*
 * A run that held, as low as one that collapsed (within a quarter) at
 * every size where that one is at half the healthy rate or less: the
 * two look alike, whatever the verdicts on each.
 */
int looks_collapsed(const struct column *held, const struct column *bad,
		    const struct column *all, size_t m)
{
	size_t i, seen = 0;

	for (i = 1; i < bad->t->nrows; i++) {
		uint64_t key = bad->t->rows[i].key;
		double x = pruned(bad, i) ? 0 : cell(bad, i);
		double y = rate_at(held, key);

		if (!(x <= DEEP * healthy_rate(all, m, bad, key)) ||
		    !isfinite(y))
			continue;
		if (y > ALIKE * x)
			return 0;
		seen++;
	}
	return seen > 0;
}

/*
 * Run a collapsed far less deeply than b: at the size where a fell
 * lowest, b is at most a SHALLOW-th of it.  In linear order every write
 * past the limit pays for an AU closed early, however far past: a first
 * collapse that shallow next to the one above it is a sweep's
 * disturbance or noise more often than the limit.
 */
#define SHALLOW 2.5

int far_shallower(const struct column *a, const struct column *b)
{
	double x = rate_at(a, a->worst_key), y = rate_at(b, a->worst_key);

	return isfinite(x) && isfinite(y) && x > SHALLOW * y;
}

/*
 * Is run c at share of the rate or less at some size from lo to hi?  Of
 * the best the runs of its test reach there, or, where it has no peers,
 * of its own best at 64 KiB or more.  A random run's own small writes
 * may be half as fast as its whole-AU ones without any slot running out.
 */
int low_within(const struct column *c, const struct column *all, size_t m,
	       uint64_t lo, uint64_t hi, double share)
{
	int peers = has_peers(all, m, c);
	double best = 0;
	size_t i;

	for (i = 0; !peers && i < c->t->nrows; i++)
		if (c->t->rows[i].key >= PAGE_MAX && cell(c, i) > best)
			best = cell(c, i);
	for (i = 0; i < c->t->nrows; i++) {
		uint64_t key = c->t->rows[i].key;

		if (key < lo || key > hi)
			continue;
		if (low_cell(c, i, share, peers ?
			     healthy_rate(all, m, c, key) : best))
			return 1;
	}
	return 0;
}

/*
 * Writes of half the erase size used still at full speed while a quarter
 * collapses: each of them filled a whole real AU, so the AU is smaller
 * than the --erasesize of the run.  Full speed: that of the other runs
 * at the size, or without them, of its whole-AU writes.
 */
static int half_ok(const struct column *c, const struct column *all,
		   size_t m, int peers)
{
	const struct table *t = c->t;
	double half, quarter;

	if (t->nrows < 3 || t->rows[1].key * 2 != t->rows[0].key)
		return 0;
	half = peers ? healthy_rate(all, m, c, t->rows[1].key) : cell(c, 0);
	quarter = peers ? healthy_rate(all, m, c, t->rows[2].key) : cell(c, 0);
	return cell(c, 1) >= HALF_FULL * half && low_cell(c, 2, DEEP, quarter);
}

/* Smaller writes twice as fast again as where the curve is lowest. */
static int recovers(const struct curve *cv, const struct own *o)
{
	size_t i;

	for (i = o->low + 1; i < cv->n; i++)
		if (cv->rate[i] >= 2 * cv->rate[o->low])
			return 1;
	return 0;
}

/*
 * The best of the runs falls on its own curve, but a run of more AUs
 * than the best one is at half of it or less where it falls lowest: the
 * runs differ (more AUs are slower only past the limit), so the fall is
 * what the card does with this order at these sizes (random-order writes
 * that cost more, a large page), not a collapse every run shares.  That
 * cost slows writes of 64 KiB or more to 30 % of the best at most: a
 * best that falls further, and stays there, collapsed (the others more,
 * past another limit).
 */
static int spread(const struct column *all, size_t m,
		  const struct column *self, const struct curve *env,
		  const struct own *o)
{
	uint64_t key = env->key[o->low];
	double best = env->rate[o->low];
	unsigned nr = 0;
	size_t i;

	for (i = 0; i < m; i++)
		if (all[i].random == self->random &&
		    all[i].group == self->group &&
		    rate_at(&all[i], key) == best)
			nr = all[i].nr;
	for (i = 0; i < m; i++)
		if (all[i].random == self->random &&
		    all[i].group == self->group && all[i].nr > nr &&
		    rate_at(&all[i], key) <= DEEP * best)
			return 1;
	return 0;
}

/*
 * The largest size of a run where a collapse shows: written as several
 * chunks of the AU, half of it or less.  In random order, an eighth: the
 * order of four chunks (0, 2, 3, 1) goes backwards only once the AU is
 * whole, as a second pass in order would, so it takes no random slot.
 */
uint64_t open_au_telling_top(uint64_t erasesize, int random)
{
	uint64_t top = erasesize / (random ? 8 : 2);

	return top >= PAGE_MAX ? top : 0;
}

/*
 * A random run's share of the linear rate, size by size from the largest
 * telling its count down to the last that linear writes run at full
 * speed (LINEAR_FULL), falling as a copy per write makes it to below
 * 64 KiB: a collapse, weak unless the share ends at FAR_BELOW or less,
 * quoted at its last size.  From 64 KiB up the run's own curve reads a
 * collapse; one called there first, weak, would stop a survey's run
 * before its own curve does.
 */
static int order_falls(struct column *c, const struct column *all, size_t m)
{
	uint64_t top = open_au_telling_top(c->group, 1), key[CURVE_MAX];
	double q[CURVE_MAX], lin[CURVE_MAX], best = 0;
	size_t i, n = 0, from;

	for (i = 0; i < c->t->nrows; i++)
		best = fmax(best, order_rate(all, m, 0, c->group,
					     c->t->rows[i].key));
	for (i = 0; i < c->t->nrows && n < CURVE_MAX; i++) {
		uint64_t k = c->t->rows[i].key;
		double x = cell(c, i), y = order_rate(all, m, 0, c->group, k);

		if (k > top)
			continue;
		if (!(y >= LINEAR_FULL * best) || !(x > 0))
			break;
		key[n] = k;
		lin[n] = y;
		q[n++] = x / y;
	}
	if (n < ORDER_SIZES)
		return 0;
	for (from = n - 1; from > 0 && q[from] <= ORDER_STEP * q[from - 1];
	     from--)
		;
	if (n - from < ORDER_SIZES || q[n - 1] > DEEP ||
	    q[n - 1] * ORDER_SPAN > q[from] || key[n - 1] >= PAGE_MAX)
		return 0;
	c->worst = q[n - 1] * lin[n - 1];
	c->worst_ref = lin[n - 1];
	c->worst_key = key[n - 1];
	c->own = 0;
	c->against_linear = 1;
	c->weak = q[n - 1] > FAR_BELOW;
	return 1;
}

/*
 * A run is judged on its own curve.  With other runs of the same test,
 * also against the best they reach at each size, unless that best
 * collapses on its own curve too: then every run did, unless the runs
 * are far apart there.
 */
static void judge(struct column *c, const struct column *all, size_t m)
{
	int peers = has_peers(all, m, c);
	struct curve cv;
	struct own o = { 0 }, mine;

	curve_of(c, &cv);
	own_curve(&cv, &mine);
	if (peers) {
		envelope(all, m, c, &cv);
		own_curve(&cv, &o);
		if (o.collapsed &&
		    (o.share >= COST_FLOOR || recovers(&cv, &o)) &&
		    spread(all, m, c, &cv, &o))
			o.collapsed = mine.collapsed = 0;
		/* the best of them sags: what held may not have */
		c->sags = !o.collapsed && o.share <= SLOW;
	}
	if (!peers || o.collapsed) {
		own_evidence(c, &mine);
		c->collapsed = mine.collapsed || (peers && o.collapsed);
		c->weak = mine.collapsed ? mine.weak : o.weak;
	} else {
		/*
		 * The clearer of the two readings; its own curve says
		 * little where the best of the runs sags as well.
		 */
		c->collapsed = peer_collapse(c, all, m);
		c->weak = c->collapsed && c->worst > FAR_BELOW * c->worst_ref;
		if (mine.collapsed && !c->sags &&
		    (!c->collapsed || (c->weak && !mine.weak))) {
			own_evidence(c, &mine);
			c->collapsed = 1;
			c->weak = mine.weak;
		}
	}
	if (c->random && !c->collapsed)
		c->collapsed = order_falls(c, all, m);
	c->half_ok = c->collapsed && !c->random && half_ok(c, all, m, peers);
}

static void judge_columns(struct column *c, size_t m)
{
	size_t i;

	for (i = 0; i < m; i++)
		judge(&c[i], c, m);
}

void quote_column(char *buf, size_t len, const struct column *c)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], d[UNIT_BUFLEN], e[UNIT_BUFLEN];
	const char *how = c->collapsed ? "collapses" : "holds";

	if (!isfinite(c->worst) || !(c->worst_ref > 0)) {
		say(buf, len, "N=%u %s", c->nr, how);
		return;
	}
	fmt_rate(a, c->worst);
	fmt_size(b, (double)c->worst_key);
	fmt_rate(d, c->worst_ref);
	if (c->own) {
		say(buf, len, "N=%u %s: %s at %s, %.0f%% of its best, %s at %s",
		    c->nr, how, a, b, 100 * c->worst / c->worst_ref, d,
		    fmt_size(e, (double)c->ref_key));
		return;
	}
	say(buf, len, "N=%u %s: %s at %s, %.0f%% of the %s %s runs reach",
	    c->nr, how, a, b, 100 * c->worst / c->worst_ref, d,
	    c->against_linear ? "linear" : "other");
}

static uint64_t table_group(const struct table *t)
{
	return t->erasesize ? t->erasesize : t->nrows ? t->rows[0].key : 0;
}

static size_t gather(const struct table *tabs, size_t n, struct column *c)
{
	size_t i, m = 0;
	unsigned j;

	for (i = 0; i < n; i++) {
		const struct table *t = &tabs[i];

		if (t->kind == TAB_OPENAU && t->open_au_nr && m < MAX_COLS) {
			c[m++] = (struct column){ .t = t, .nr = t->open_au_nr,
				.random = t->random, .group = table_group(t) };
		}
		if (t->kind != TAB_SWEEP)
			continue;
		for (j = 0; j < t->ncols && j < TABLE_MAXCOLS && m < MAX_COLS;
		     j++) {
			c[m++] = (struct column){ .t = t, .col = j,
				.nr = t->col_nr[j], .random = t->random,
				.group = table_group(t) };
		}
	}
	return m;
}

/* The open-AU runs of the tables, each judged; NULL without memory. */
struct column *judged_columns(const struct table *tabs, size_t n, size_t *m)
{
	struct column *c = calloc(MAX_COLS, sizeof(*c));

	if (!c)
		return NULL;
	*m = gather(tabs, n, c);
	judge_columns(c, *m);
	return c;
}
