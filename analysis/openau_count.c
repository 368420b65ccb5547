// SPDX-License-Identifier: GPL-2.0
/*
 * Open-AU verdicts: how many AUs the card keeps open, linear and random,
 * from -O runs and sweeps.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "analysis/internal.h"
#include "lib/units.h"

/* The group (erase size used) with the most distinct N of one order. */
static uint64_t pick_group(const struct column *c, size_t m, int random,
			   size_t *ngroups)
{
	uint64_t best = 0;
	size_t i, j, k, most = 0;

	*ngroups = 0;
	for (i = 0; i < m; i++) {
		size_t distinct = 0;

		if (c[i].random != random)
			continue;
		for (j = 0; j < i && (c[j].random != random ||
				      c[j].group != c[i].group); j++)
			;
		if (j < i)
			continue;
		(*ngroups)++;
		for (j = 0; j < m; j++) {
			if (c[j].random != random || c[j].group != c[i].group)
				continue;
			for (k = 0; k < j && (c[k].random != random ||
					      c[k].group != c[i].group ||
					      c[k].nr != c[j].nr); k++)
				;
			distinct += k == j;
		}
		if (distinct > most) {
			most = distinct;
			best = c[i].group;
		}
	}
	return best;
}

/* Per N: collapsed when most of its runs collapsed. */
struct nstate {
	unsigned nr;
	size_t fine, bad;
	size_t dipped;		/* runs that dipped or collapsed */
	const struct column *show;
};

static size_t by_nr(const struct column *c, size_t m, int random,
		    uint64_t group, struct nstate *s)
{
	size_t i, j, ns = 0;

	for (i = 0; i < m; i++) {
		if (c[i].random != random || c[i].group != group)
			continue;
		for (j = 0; j < ns && s[j].nr != c[i].nr; j++)
			;
		if (j == ns) {
			while (j && s[j - 1].nr > c[i].nr) {
				s[j] = s[j - 1];
				j--;
			}
			s[j] = (struct nstate){ .nr = c[i].nr };
			ns++;
		}
		if (c[i].collapsed)
			s[j].bad++;
		else
			s[j].fine++;
		s[j].dipped += c[i].collapsed || c[i].dip;
		if (!s[j].show || c[i].t->nrows > s[j].show->t->nrows)
			s[j].show = &c[i];
	}
	return ns;
}

/*
 * The first N that (mostly) collapsed, unless two larger N held: one run
 * collapsing among fine ones is an outlier (*odd, ns if none).  Returns
 * ns when every N held.
 */
static size_t edge(const struct nstate *s, size_t ns, size_t *odd)
{
	size_t i, j, held;

	*odd = ns;
	for (i = 0; i < ns; i++) {
		if (s[i].bad <= s[i].fine)
			continue;
		for (j = i + 1, held = 0; j < ns; j++)
			held += s[j].bad <= s[j].fine;
		if (held < 2)
			return i;
		if (*odd == ns)
			*odd = i;
	}
	return ns;
}

/*
 * Every N from some k on dips (a size of 64 KiB or more below half the
 * other runs) or collapses, no smaller N does, and two or more of those
 * held otherwise: a collapse that smaller writes recover from (they skip
 * the slots), the same in every run.  Returns k, or bad if none.
 */
static size_t dip_edge(const struct nstate *s, size_t ns, size_t bad)
{
	size_t k, i;

	for (k = 0; k < bad && 2 * s[k].dipped <= s[k].fine + s[k].bad; k++)
		;
	for (i = k; i < ns && 2 * s[i].dipped > s[i].fine + s[i].bad; i++)
		;
	return k + 2 <= bad && i == ns ? k : bad;
}

/*
 * How the erase size the runs used stands to the erase block an -a table
 * in the same analysis found: 0 not confirmed (no such verdict, or not
 * sure), 1 the same, k when the runs used k erase blocks per test AU,
 * ERASE_OTHER when neither.
 */
#define ERASE_OTHER UINT_MAX

static unsigned erase_factor(const struct verdict *erase, uint64_t group)
{
	if (!erase || erase->type == V_NONE || erase->is_null ||
	    erase->conf < CONF_MEDIUM || !erase->value)
		return 0;
	if (group % erase->value)
		return ERASE_OTHER;
	return group / erase->value <= UINT_MAX / 64 ?
	       (unsigned)(group / erase->value) : ERASE_OTHER;
}

/* What the runs by N say before the erase size is taken into account. */
struct reading {
	enum { ALL_FINE, NONE_FINE, EDGE } kind;
	unsigned lo, hi;	/* the largest N that held, the smallest that
				   collapsed (0 where there is none) */
	enum confidence conf;
	int shaky;		/* the one held only just, or the other only
				   just collapsed */
};

static uint64_t telling_top(const struct column *c)
{
	return open_au_telling_top(c->group, c->random);
}

/* Sizes from 64 KiB (a page cannot slow them) to telling_top(). */
static size_t telling_sizes(const struct column *c)
{
	uint64_t top = telling_top(c);
	size_t i, n = 0;

	for (i = 0; i < c->t->nrows; i++)
		n += c->t->rows[i].key <= top && c->t->rows[i].key >= PAGE_MAX;
	return n;
}

/* Run x at share of the other runs or less at a size telling its count. */
static int low_telling(const struct column *x, const struct column *c,
		       size_t m, double share)
{
	return telling_sizes(x) &&
	       low_within(x, c, m, PAGE_MAX, telling_top(x), share);
}

/*
 * A random run held, but at RANDOM_HOLD of the others or less at a size
 * where running out of random slots shows: a collapse thinned out by
 * the slots that held (seen on cards with fewer random slots than the N
 * that held), not a clear hold.
 */
#define RANDOM_HOLD 0.65
/* A run that held fully: at this share of the others or more. */
#define HELD_FULLY 0.9

static void unclear_hold(const struct column *show, const struct column *c,
			 size_t m, struct reading *r, struct verdict *v)
{
	if (!show->random || !low_telling(show, c, m, RANDOM_HOLD))
		return;
	r->conf = CONF_LOW;
	say(v->evidence, sizeof(v->evidence), "N=%u is at %.0f%% of the other "
	    "runs or less at a size where running out of random slots "
	    "shows: not clearly held", show->nr, 100 * RANDOM_HOLD);
}

/*
 * A shallow collapse at N (bad) that the next N deepens, after a run
 * that held at 90% of the others or more at every size telling its
 * count: the AUs past the limit cost more the more there are, as a
 * collapse does; a run within the limit dipping by chance would not be
 * followed by a deeper one, nor stand apart from a run that held fully.
 */
static int deepens(const struct nstate *s, size_t ns, size_t bad,
		   const struct column *c, size_t m)
{
	const struct column *x = s[bad].show, *y;

	if (bad + 1 >= ns || !s[bad + 1].bad || s[bad + 1].fine)
		return 0;
	y = s[bad + 1].show;
	return !y->weak && y->worst * x->worst_ref < x->worst * y->worst_ref &&
	       telling_sizes(s[bad - 1].show) &&
	       !low_telling(s[bad - 1].show, c, m, HELD_FULLY);
}

/*
 * A collapse pays an AU copy per write, so its rate falls with the write
 * size (about halving with it); a random run keeping FLAT_STEP of its
 * rate or more per halving from telling_top() down to 64 KiB is random
 * writes merged at a flat cost (seen at 25-60 % of the linear rate),
 * which a card within its random slots shows too.
 */
#define FLAT_STEP 0.85

static int flat_slow(const struct column *x)
{
	uint64_t top = telling_top(x);
	double hi = -1, lo = -1, need = 1;
	size_t i;

	if (!x->random || telling_sizes(x) < 2)
		return 0;
	for (i = 0; i < x->t->nrows; i++) {
		if (x->t->rows[i].key > top || x->t->rows[i].key < PAGE_MAX)
			continue;
		if (hi < 0)
			hi = cell(x, i);
		else
			need *= FLAT_STEP;
		lo = cell(x, i);
	}
	return hi > 0 && lo >= need * hi;
}

/*
 * A random collapse read at the largest size telling its count alone,
 * where the erase size leaves smaller ones: a card merging random writes
 * falls right there from the whole-AU rate to a flat 25-60 % of it (sim
 * rmerge=, 1 MiB AUs: 27 % at 128 KiB, keeping 2), as a collapse does.
 * Whether the rate goes on falling with the size tells them apart
 * (flat_slow()).
 */
static int one_telling_size(const struct column *x)
{
	return x->random && !x->against_linear && telling_sizes(x) == 1 &&
	       telling_top(x) > PAGE_MAX;
}

/*
 * A bound from an N that held stands on that run holding: a size of it
 * under this share of the other runs may be a collapse thinned out as
 * much as a pause.  Cards that copy a tenth of an AU they close show
 * such collapses: 64 % at N=64 (1 MiB AUs, small writes into a buffer,
 * keeping 7), 73 to 79 % at one past the limit in surveys stopped at
 * half their time (1 and 8 MiB AUs, keeping 6, 8 and 11 random), and
 * 56 % at N=9 where a budget cut a probe after its first slow row.
 */
#define HELD_CLEARLY 0.85

/*
 * Below a run that collapsed, a held run's dip that the sizes after it
 * made up for is a pause (SU04G held at 24 % at 2 MiB, keeping 2): only
 * a dip at its last size, which nothing after it shows to be one, has
 * not clearly held (last).
 */
static void held_clearly(const struct column *show, int last,
			 struct reading *r, struct verdict *v)
{
	const struct table *t = show->t;

	if (r->conf == CONF_LOW || show->own ||
	    show->worst >= HELD_CLEARLY * show->worst_ref ||
	    (last && show->worst_key != t->rows[t->nrows - 1].key))
		return;
	r->conf = CONF_LOW;
	say(v->evidence, sizeof(v->evidence), "N=%u not clearly held: a size "
	    "below %.0f%% of the others", show->nr, 100 * HELD_CLEARLY);
}

static void read_runs(const struct nstate *s, size_t ns, size_t bad,
		      const struct column *c, size_t m, struct reading *r,
		      struct verdict *v)
{
	const struct column *show;
	int weak;
	char a[UNIT_BUFLEN];

	if (bad == ns) {
		/* one N that held is a lower bound, as is the largest */
		show = s[ns - 1].show;
		*r = (struct reading){ ALL_FINE, show->nr, 0,
				       show->marginal || show->sags ?
				       CONF_LOW : CONF_MEDIUM, show->marginal };
		quote_column(v->evidence, sizeof(v->evidence), show);
		say(v->evidence, sizeof(v->evidence),
		    "no collapse up to the largest N tried");
		if (telling_sizes(show) < 3) {
			r->conf = CONF_LOW;
			say(v->evidence, sizeof(v->evidence), "only %zu "
			    "sizes where a collapse would show",
			    telling_sizes(show));
		}
		held_clearly(show, 0, r, v);
		unclear_hold(show, c, m, r, v);
		return;
	}
	if (bad == 0) {
		/* the smallest N tried collapsed: fewer than that */
		*r = (struct reading){ NONE_FINE, 0, s[0].nr,
				       s[0].show->weak ? CONF_LOW : CONF_MEDIUM,
				       s[0].show->weak };
		quote_column(v->evidence, sizeof(v->evidence), s[0].show);
		if (flat_slow(s[0].show)) {
			r->conf = CONF_LOW;
			say(v->evidence, sizeof(v->evidence), "its rate does "
			    "not fall with the size from %s: merged random "
			    "writes, not clearly a collapse",
			    fmt_size(a, (double)telling_top(s[0].show)));
		} else if (one_telling_size(s[0].show)) {
			r->conf = CONF_LOW;
			say(v->evidence, sizeof(v->evidence), "only %s shows "
			    "whether its rate falls with the size: merged "
			    "random writes look alike there",
			    fmt_size(a, (double)telling_top(s[0].show)));
		}
		return;
	}
	show = s[bad - 1].show;
	weak = s[bad].show->weak && !deepens(s, ns, bad, c, m);
	*r = (struct reading){ EDGE, s[bad - 1].nr, s[bad].nr,
			       s[bad].nr == s[bad - 1].nr + 1 ? CONF_HIGH :
			       CONF_MEDIUM, show->marginal || weak };
	if (weak)
		r->conf = conf_down(r->conf);
	if (show->marginal)
		r->conf = show->marginal > 1 ? CONF_LOW : conf_down(r->conf);
	/* runs repeated at both sides of the edge, all agreeing */
	else if (r->conf == CONF_MEDIUM && s[bad - 1].fine > 1 &&
		 s[bad].bad > 1 && !s[bad - 1].bad && !s[bad].fine)
		r->conf = CONF_HIGH;
	quote_column(v->evidence, sizeof(v->evidence), show);
	quote_column(v->evidence, sizeof(v->evidence), s[bad].show);
	/* the one that held is as low where the other collapsed */
	if (looks_collapsed(show, s[bad].show, c, m)) {
		r->conf = CONF_LOW;
		r->shaky = 1;
		say(v->evidence, sizeof(v->evidence),
		    "N=%u is as slow where N=%u collapses", s[bad - 1].nr,
		    s[bad].nr);
	}
	if (!show->random && bad + 1 < ns && s[bad + 1].bad &&
	    far_shallower(s[bad].show, s[bad + 1].show)) {
		r->conf = CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "N=%u collapses far less deeply than N=%u: the limit "
		    "may be above it", s[bad].nr, s[bad + 1].nr);
	}
	held_clearly(show, 1, r, v);
	unclear_hold(show, c, m, r, v);
}

/* The count as the runs give it: exact, or a bound. */
static void plain_count(const struct reading *r, struct verdict *v)
{
	if (r->kind == ALL_FINE) {
		set_value(v, r->lo, r->conf);
		v->at_least = 1;
	} else if (r->kind == NONE_FINE) {
		set_value(v, r->hi - 1, r->conf);
		v->at_most = r->hi > 1;
	} else {
		set_value(v, r->lo, r->conf);
		/* runs that held at lo and collapsed at hi prove no more */
		if (r->hi > r->lo + 1) {
			v->at_least = 1;
			v->upto = r->hi - 1;
		}
	}
}

/*
 * --random with --erasesize k erase blocks: each test AU takes k random
 * slots, so the runs count a k-th of them.
 */
static void scaled_random(const struct reading *r, unsigned k,
			  uint64_t group, struct verdict *v)
{
	char a[UNIT_BUFLEN];

	/*
	 * An error in the count is k times larger in the bound, and so is
	 * one in the erase verdict: a 3x2^n erase block read as 2^n (or a
	 * quarter of it) gives k three or four times too large.
	 */
	enum confidence conf = r->shaky || k > 2 ? CONF_LOW :
			       conf_min(r->conf, CONF_MEDIUM);

	say(v->evidence, sizeof(v->evidence),
	    "each test AU of %s is %u erase blocks, each taking a random "
	    "slot", fmt_size(a, (double)group), k);
	if (r->kind == NONE_FINE) {
		set_value(v, (uint64_t)k * r->hi - 1, conf);
		v->at_most = 1;
		return;
	}
	set_value(v, (uint64_t)k * r->lo, conf);
	v->at_least = 1;
	if (r->kind == EDGE)
		say(v->evidence, sizeof(v->evidence), "fewer than %llu",
		    (unsigned long long)k * r->hi);
}

/* The size from 64KiB up where column x writes slowest. */
static uint64_t slowest_size(const struct column *x)
{
	uint64_t at = 0;
	double low = INFINITY;
	size_t i;

	for (i = 0; i < x->t->nrows; i++)
		if (x->t->rows[i].key >= PAGE_MAX && cell(x, i) > 0 &&
		    cell(x, i) < low) {
			low = cell(x, i);
			at = x->t->rows[i].key;
		}
	return at;
}

/*
 * A test AU of k erase blocks: at sizes from an eighth of the test AU
 * down to an eighth of an erase block, the writes to each block go
 * backwards only once the block is whole (open_au_telling_top()), and
 * take no random slot.  Where the smallest N tried is slowest above an
 * eighth of an erase block, its slow rows are not random slots running
 * out (the first column of a sweep's row pays for the AUs the last one
 * of the row before left behind), and no bound rests on them.  On the accuracy suite's cards
 * (seed 1; 3 and 11 with -a at --count=32) each of the 4 "at most 1"
 * bounds that were wrong was slowest there, and none of the 150 right
 * ones.
 */
static int unshown_blocks(const struct reading *r, unsigned k,
			  uint64_t group, const struct column *first,
			  struct verdict *v)
{
	char a[UNIT_BUFLEN];
	uint64_t top = open_au_telling_top(group / k, 1);

	if (r->kind != NONE_FINE || (top && slowest_size(first) <= top))
		return 0;
	fmt_size(a, (double)group / k / 8);
	if (!top)
		say(v->evidence, sizeof(v->evidence),
		    "an eighth of each of its %u erase blocks is %s, below "
		    "64KiB: no size shows random slots running out", k, a);
	else
		say(v->evidence, sizeof(v->evidence),
		    "N=%u is slowest above %s, an eighth of each of its %u "
		    "erase blocks, where their writes go backwards only once "
		    "a block is whole: not random slots running out",
		    first->nr, a, k);
	return 1;
}

/*
 * --random with an erase size no -a table confirms: with --erasesize k
 * times the erase block a run counts a k-th of the random slots, so what
 * held is a lower bound and a collapse says nothing, unless the linear
 * count (random slots are open slots) closes the gap.
 */
static void unconfirmed_random(const struct reading *r, uint64_t group,
			       const struct verdict *lin, struct verdict *v)
{
	char a[UNIT_BUFLEN];

	fmt_size(a, (double)group);
	if (r->kind == NONE_FINE) {
		say(v->evidence, sizeof(v->evidence),
		    "no random slot if %s is the erase block, which no -a "
		    "table confirms (a larger one takes several slots per "
		    "test AU)", a);
		return;
	}
	set_value(v, r->lo, r->conf);
	v->at_least = 1;
	if (r->kind == ALL_FINE)
		return;
	if (lin && !lin->is_null && !lin->at_least && !lin->at_most &&
	    lin->conf >= CONF_MEDIUM && lin->value == r->lo) {
		v->at_least = 0;
		say(v->evidence, sizeof(v->evidence),
		    "no more than the %llu AUs open for linear writes",
		    (unsigned long long)lin->value);
		return;
	}
	say(v->evidence, sizeof(v->evidence),
	    "exactly %u if %s is the erase block, which no -a table "
	    "confirms (a larger one takes several slots per test AU)",
	    r->lo, a);
}

/*
 * A random run past the edge slow only at sizes whose order goes
 * backwards once the AU is whole, and at half the rate or more at those
 * whose order goes backwards before: writes in order past the open
 * limit collapse like that, and writes that small may have taken no
 * slot, in this run or in the one that held.  Random slots are open
 * slots, so there are fewer than the erase blocks of its N test AUs;
 * how many, it does not show.
 */
static void unshown_random(const struct reading *r, unsigned k,
			   const struct column *bad, struct verdict *v)
{
	char a[UNIT_BUFLEN];

	say(v->evidence, sizeof(v->evidence),
	    "N=%u is at half the rate or more at every size up to %s, "
	    "where random order goes backwards before the AU is whole: "
	    "what ran out may be the open AUs, not the random slots",
	    bad->nr, fmt_size(a, (double)telling_top(bad)));
	if (!k || k == ERASE_OTHER)
		return;
	set_value(v, (uint64_t)k * r->hi - 1, conf_min(r->conf, CONF_MEDIUM));
	v->at_most = 1;
}

/*
 * Random slots are open slots: random runs that held with more AUs than
 * the card keeps open for linear writes took no random slot at the
 * sizes they were read at, and show no more than the linear count.
 */
static void past_linear(const struct verdict *lin, struct verdict *v)
{
	if (!lin || lin->type == V_NONE || lin->is_null || lin->at_least ||
	    lin->at_most || lin->conf < CONF_MEDIUM || v->is_null ||
	    !v->at_least || v->value <= lin->value)
		return;
	say(v->evidence, sizeof(v->evidence),
	    "held past the %llu AUs open for linear writes: those writes "
	    "took no random slot", (unsigned long long)lin->value);
	set_value(v, lin->value, conf_min(lin->conf, CONF_MEDIUM));
	v->at_least = 0;
	v->at_most = 1;
	v->upto = 0;
}

/*
 * Random slots are open slots: random runs that clearly held with as
 * many AUs as the card keeps open for linear writes, in test AUs of the
 * erase block, reached the count; no random run above it need be made.
 * Runs that held only at low confidence may not have shown slots running
 * out at all (cards that copy a tenth of an AU and pay for random order
 * held at every N with no random slot): the linear count bounds them.
 * A run at the limit below HELD_FULLY of the others where slots running
 * out shows may be such a collapse (71 % at N=12 on a 2 MiB-AU card with
 * 2 random slots of 12 that copies a tenth of an AU): a bound too.
 */
static void at_linear(const struct verdict *lin, const struct column *show,
		      const struct column *c, size_t m, struct verdict *v)
{
	if (!lin || lin->type == V_NONE || lin->is_null || lin->at_least ||
	    lin->at_most || lin->conf < CONF_MEDIUM || v->is_null ||
	    !v->at_least || v->value != lin->value)
		return;
	say(v->evidence, sizeof(v->evidence),
	    "no more than the %llu AUs open for linear writes",
	    (unsigned long long)lin->value);
	if (v->conf >= CONF_MEDIUM && low_telling(show, c, m, HELD_FULLY)) {
		v->conf = CONF_LOW;
		say(v->evidence, sizeof(v->evidence), "N=%u below %.0f%% of "
		    "the others where running out of random slots shows: "
		    "not clearly held", show->nr, 100 * HELD_FULLY);
	}
	v->at_most = v->conf < CONF_MEDIUM;
	v->conf = conf_min(v->conf < CONF_MEDIUM ? CONF_MEDIUM : v->conf,
			   lin->conf);
	v->at_least = 0;
	v->upto = 0;
}

/* One order's runs of one erase size, read for their count. */
struct count_read {
	const struct column *c;
	size_t m;
	int random;
	const struct verdict *erase, *lin;	/* lin: random order's */
	uint64_t group;		/* the erase size the runs used */
	size_t ngroups;		/* how many they used */
	unsigned k;		/* erase blocks per test AU (erase_factor) */
	struct nstate s[MAX_COLS];
	size_t ns, bad, odd;	/* N read, the edge, an outlier (or ns) */
	int mixed;		/* runs of one N at the edge disagree */
	int contra;		/* larger N past the edge that hold */
	int dipped;		/* the edge is where every run dips */
	/* the edge is where every run held unclearly, or alike at one size */
	enum { EDGE_CLEAR, EDGE_UNCLEAR, EDGE_ALIKE } shallow;
};

/* Held, but below share of the others at a size telling its count. */
static int held_below(const struct column *x, double share)
{
	return !x->collapsed && !x->own && telling_sizes(x) &&
	       x->worst < share * x->worst_ref;
}

/*
 * Every linear N held, those from some k on (two at least) all below
 * HELD_UNDER of the others at some size, and those below k not: past a
 * limit every linear run misses at every write, so a collapse too
 * shallow to call (a card copying a tenth of an AU it closes early: 65 %
 * of the others) shows the same in every N above it, where a pause
 * strikes one run.  Returns k, or ns if none.
 */
#define HELD_UNDER 0.7

static size_t shallow_edge(const struct nstate *s, size_t ns)
{
	size_t k;

	for (k = ns; k && held_below(s[k - 1].show, HELD_UNDER); k--)
		;
	if (!k || k + 2 > ns)
		return ns;
	return k;
}

/*
 * Every linear N held, those from some k on (two at least) all below
 * SHALLOW_SAME of the others at the same size, as deep within
 * SAME_DEPTH, and those below k not: a collapse shallower still (79 %
 * at 256 KiB in every N from 13 to 64 on a 1 MiB-AU card keeping 6 that
 * copies a tenth of an AU it closes and takes writes of 128 KiB and
 * less into a buffer).  A pause does not strike every run at one size
 * and depth: one at 81 % in N=3 and a collapse at 58 % in N=11, both at
 * 512 KiB, on a card keeping 8, are not alike.  Returns k, or ns.
 */
#define SHALLOW_SAME 0.85
#define SAME_DEPTH 1.1

static double depth(const struct column *x)
{
	return x->worst / x->worst_ref;
}

static size_t same_edge(const struct nstate *s, size_t ns)
{
	uint64_t key = s[ns - 1].show->worst_key;
	double lo = 1, hi = 0;
	size_t k;

	for (k = ns; k && s[k - 1].show->worst_key == key &&
		     held_below(s[k - 1].show, SHALLOW_SAME); k--) {
		lo = fmin(lo, depth(s[k - 1].show));
		hi = fmax(hi, depth(s[k - 1].show));
	}
	if (!k || k + 2 > ns || hi > SAME_DEPTH * lo ||
	    depth(s[k - 1].show) < SHALLOW_SAME)
		return ns;
	return k;
}

static void find_edge(struct count_read *x)
{
	size_t i, dips;

	x->ns = by_nr(x->c, x->m, x->random, x->group, x->s);
	x->bad = edge(x->s, x->ns, &x->odd);
	dips = dip_edge(x->s, x->ns, x->bad);
	for (i = 0; i < x->ns; i++) {
		x->mixed |= x->s[i].fine && x->s[i].bad &&
			    (i + 1 == x->bad || i == x->bad);
		x->contra += i > x->bad && x->s[i].bad <= x->s[i].fine;
	}
	if (dips < x->bad) {
		x->odd = x->ns;
		x->dipped = 1;
		x->bad = dips;
	}
	/* in random order the AUs that keep their slots thin a collapse */
	if (x->random || x->bad < x->ns)
		return;
	x->bad = shallow_edge(x->s, x->ns);
	x->shallow = x->bad < x->ns ? EDGE_UNCLEAR : EDGE_CLEAR;
	if (x->bad == x->ns) {
		x->bad = same_edge(x->s, x->ns);
		x->shallow = x->bad < x->ns ? EDGE_ALIKE : EDGE_CLEAR;
	}
}

/*
 * Every N held, but the runs have no size where a collapse would show
 * (a run stopped early, or test AUs too small): holding says nothing of
 * the count, not even a bound.  The verdict abstains: unknown.
 */
static int untold(const struct count_read *x, struct verdict *v)
{
	if (x->bad < x->ns || telling_sizes(x->s[x->ns - 1].show))
		return 0;
	quote_column(v->evidence, sizeof(v->evidence), x->s[x->ns - 1].show);
	say(v->evidence, sizeof(v->evidence), "no size where a collapse "
	    "would show: the runs tell no count");
	return 1;
}

static void count_value(const struct count_read *x, struct verdict *v)
{
	const struct nstate *s = x->s;
	struct reading r;

	read_runs(s, x->ns, x->bad, x->c, x->m, &r, v);
	if (x->dipped) {
		/*
		 * In random order a run past the limit is thinned out by the
		 * AUs that keep their slots: one that only dips says little
		 * about where the limit is.
		 */
		r.conf = conf_min(r.conf, x->random ? CONF_LOW : CONF_MEDIUM);
		say(v->evidence, sizeof(v->evidence),
		    "from N=%u on every run dips below half the others at "
		    "some size: a collapse smaller writes recover from",
		    s[x->bad].nr);
	}
	if (x->shallow) {
		/*
		 * Two N or more past it all alike, and the N right below it
		 * held clearly: the edge is the limit; with N between them
		 * untried, any of those may be.  Behind by less, it may be.
		 */
		r.conf = x->shallow == EDGE_UNCLEAR &&
			 s[x->bad].nr == s[x->bad - 1].nr + 1 ? CONF_MEDIUM :
			 CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "from N=%u on every run held at under %.0f%% of the "
		    "others at %s: a collapse too shallow to call",
		    s[x->bad].nr, 100 * (x->shallow == EDGE_UNCLEAR ?
					  HELD_UNDER : SHALLOW_SAME),
		    x->shallow == EDGE_UNCLEAR ? "some size" :
		    "the same size");
	}
	/*
	 * In random order one AU past the limit costs only its writes that
	 * go backwards: a collapse thinned out by the AUs that are open.  A
	 * count that rests on a run that held only just is not sure.
	 */
	if (x->random && r.shaky)
		r.conf = CONF_LOW;
	if (x->random && r.kind == EDGE && telling_sizes(s[x->bad].show) &&
	    !low_telling(s[x->bad].show, x->c, x->m, DEEP))
		unshown_random(&r, x->k, s[x->bad].show, v);
	else if (!x->random || x->k == 1)
		plain_count(&r, v);
	else if (x->k == 0)
		unconfirmed_random(&r, x->group, x->lin, v);
	else if (x->k != ERASE_OTHER) {
		if (!unshown_blocks(&r, x->k, x->group, s[0].show, v))
			scaled_random(&r, x->k, x->group, v);
	}
	else
		plain_count(&r, v);
	if (x->random)
		past_linear(x->lin, v);
	if (x->random && x->k == 1)
		at_linear(x->lin, s[x->bad ? x->bad - 1 : 0].show, x->c, x->m,
			  v);
}

/* What the test AUs' size says of the count. */
static void count_scope(const struct count_read *x, struct verdict *v)
{
	const struct verdict *erase = x->erase;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	fmt_size(a, (double)x->group);
	/* a linear count holds for any AU that divides the erase size */
	if (x->bad < x->ns && x->s[x->bad].show->half_ok)
		say(v->note, sizeof(v->note),
		    "writes of half the erase size stay fast: the AU may be "
		    "smaller than %s", a);
	if (x->k > 1 && x->k != ERASE_OTHER && !x->random)
		say(v->evidence, sizeof(v->evidence),
		    "each test AU of %s is %u erase blocks written in order: "
		    "the count holds", a, x->k);
	/*
	 * Random order in some other unit: no telling how many slots it
	 * takes; even a low erase verdict that differs is reason to doubt.
	 */
	if (x->k == ERASE_OTHER || (!x->k && erase && erase->type != V_NONE &&
				    !erase->is_null &&
				    erase->value != x->group)) {
		/*
		 * What held stays a lower bound where the erase block read is
		 * smaller: each test AU takes a slot or more.
		 */
		if (x->random)
			v->conf = conf_min(v->conf, !x->k && v->at_least &&
					   erase->value < x->group ?
					   CONF_MEDIUM : CONF_LOW);
		say(v->evidence, sizeof(v->evidence),
		    "run with --erasesize=%s, but the erase block is %s (%s)",
		    a, fmt_size(b, (double)erase->value),
		    confidence_name(erase->conf));
	}
}

/*
 * An N that collapsed below two that held: an outlier, or the runs above
 * it held by chance.  The runs prove no more than the span from the N
 * below it to the count the edge gave.
 */
static void outlier_span(const struct count_read *x, struct verdict *v)
{
	unsigned below = x->odd ? x->s[x->odd - 1].nr : 0;
	uint64_t top = v->at_least ? v->upto : v->value;

	if (x->bad == x->ns || v->is_null || v->at_most || !top ||
	    below >= top)
		return;
	if (below) {
		set_value(v, below, v->conf);
		v->at_least = 1;
		v->upto = top;
	} else {
		set_value(v, top, v->conf);
		v->at_least = 0;
		v->at_most = 1;
		v->upto = 0;
	}
}

static void count_doubts(const struct count_read *x, struct verdict *v)
{
	char a[UNIT_BUFLEN];

	if (x->odd < x->ns) {
		v->conf = conf_down(v->conf);
		outlier_span(x, v);
		say(v->evidence, sizeof(v->evidence),
		    "N=%u collapses although two larger N hold: an outlier, "
		    "or they held by chance", x->s[x->odd].nr);
	}
	if (x->contra) {
		v->conf = CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "a larger N holds again");
	}
	if (x->mixed) {
		v->conf = conf_down(v->conf);
		say(v->evidence, sizeof(v->evidence), "runs disagree");
	}
	if (x->ngroups > 1) {
		v->conf = conf_min(v->conf, CONF_MEDIUM);
		say(v->evidence, sizeof(v->evidence),
		    "runs with %zu erase sizes, used %s", x->ngroups,
		    fmt_size(a, (double)x->group));
	}
}

static void open_au_verdict(const struct column *c, size_t m, int random,
			    const struct verdict *erase,
			    const struct verdict *lin, struct verdict *v)
{
	struct count_read x = { .c = c, .m = m, .random = random,
				.erase = erase, .lin = lin };

	verdict_init(v, V_COUNT);
	x.group = pick_group(c, m, random, &x.ngroups);
	x.k = erase_factor(erase, x.group);
	if (!x.ngroups) {
		v->type = V_NONE;
		return;
	}
	find_edge(&x);
	if (untold(&x, v))
		return;
	count_value(&x, v);
	count_scope(&x, v);
	count_doubts(&x, v);
}

/*
 * A random ramp collapsed one stream past k, and the -O --random runs
 * show it only thinned out: each from k + 1 on collapsed or held below
 * HELD_CLEARLY of the others at some size, none up to k collapsed.  A
 * random run one AU past the slots pays a copy only where that AU's
 * writes go backwards, spread over the AUs that keep theirs; the ramp's
 * round means see each copy (on sim cards keeping 1 of 7 and 1 of 24,
 * small writes buffered: N=2 at 85 and 50 % of the others, the ramp 1.7
 * times as slow per write at 2 streams).  The two readings agree on k
 * where the runs alone gave a bound, in AUs an -a table confirms are
 * the erase block.
 */
static int clearly_held(const struct column *x)
{
	return !x->collapsed && x->worst >= HELD_CLEARLY * x->worst_ref;
}

/* v leaves k open, and is a bound or unsure. */
static int leaves_open(const struct verdict *v, unsigned k)
{
	if (v->type == V_NONE || v->is_null)
		return 0;
	if (v->at_most)
		return v->value >= k;
	if (v->at_least)
		return (v->value <= k || v->conf == CONF_LOW) &&
		       (!v->upto || v->upto >= k);
	return v->value == k && v->conf < CONF_MEDIUM;
}

static void ramp_settles(const struct table *tabs, size_t n,
			 const struct column *c, size_t m,
			 const struct verdict *erase, struct verdict *v)
{
	char ramp[sizeof(v->evidence)] = "";
	const struct column *above = NULL;
	const struct table *t;
	unsigned k;
	size_t i;

	t = ramp_collapse(tabs, n, 1, &k, ramp, sizeof(ramp));
	/* a test AU of several erase blocks takes a slot for each */
	if (!t || !leaves_open(v, k) || erase_factor(erase, t->erasesize) != 1)
		return;
	for (i = 0; i < m; i++) {
		if (!c[i].random || c[i].group != t->erasesize)
			continue;
		if (c[i].nr <= k ? c[i].collapsed : clearly_held(&c[i]))
			return;
		if (c[i].nr == k + 1)
			above = &c[i];
	}
	if (!above)
		return;
	set_value(v, k, CONF_MEDIUM);
	v->at_least = v->at_most = 0;
	v->upto = 0;
	snprintf(v->evidence, sizeof(v->evidence), "%s", ramp);
	quote_column(v->evidence, sizeof(v->evidence), above);
	say(v->evidence, sizeof(v->evidence), "the -O runs show the ramp's "
	    "collapse thinned out: none from N=%u on held clearly, none "
	    "below it collapsed", k + 1);
}

/* The open-AU count of one order; random reads the linear one. */
static void count_family(const struct table *tabs, size_t n, int random,
			 struct analysis *out)
{
	struct verdict *v = random ? &out->open_au_random :
			    &out->open_au_linear;
	struct column *c;
	size_t m;

	verdict_init(v, V_NONE);
	c = judged_columns(tabs, n, &m);
	if (!c)
		return;
	open_au_verdict(c, m, random, &out->erase_size,
			random ? &out->open_au_linear : NULL, v);
	if (random)
		ramp_settles(tabs, n, c, m, &out->erase_size, v);
	free(c);
}

void family_open_au_linear(const struct table *tabs, size_t n,
			   const struct analysis_ctx *ctx,
			   struct analysis *out)
{
	(void)ctx;
	count_family(tabs, n, 0, out);
	ramp_family(tabs, n, 0, &out->open_au_linear);
}

void family_open_au_random(const struct table *tabs, size_t n,
			   const struct analysis_ctx *ctx,
			   struct analysis *out)
{
	(void)ctx;
	count_family(tabs, n, 1, out);
	ramp_family(tabs, n, 1, &out->open_au_random);
}
