// SPDX-License-Identifier: GPL-2.0
/*
 * Open-AU verdicts from a ramp (-O --ramp): its rows in the order run,
 * each step judged again from its medians with the live run's own rule
 * (lib/ramp_rule.h), so a pasted table gives the verdict the run gave.  The
 * count is exact only where N held, N + 1 collapsed, and dropping the
 * newest stream recovered and adding it back collapsed again; else a
 * bound, or nothing.
 */
#include <math.h>

#include "analysis/internal.h"
#include "lib/ramp_rule.h"
#include "lib/units.h"

/* A row's values (lib/table.h, TAB_RAMP). */
enum { COL_COARSE_NS, COL_COARSE_BPS, COL_FINE_NS, COL_FINE_BPS };

/* What a ramp's rows of one order say. */
struct ramp_read {
	unsigned held;		/* most streams held before the limit found */
	unsigned limit;		/* streams whose collapse was confirmed */
	unsigned unconfirmed;	/* a step that did not hold, unconfirmed */
	int collapsed;		/* it collapsed, not only unclear */
	const struct table_row *ok, *bad;	/* rows quoted */
};

/*
 * A row of the order wanted, judged; RAMP_UNJUDGED for the other.  The
 * first random row is judged against the linear one before it, the
 * random rows after it against the random ones (*first: still to come).
 */
static enum ramp_judged judge_row(struct ramp_best *b,
				  const struct table_row *r, int random,
				  int *first)
{
	const double ns[RAMP_NPARTS] = { r->v[COL_COARSE_NS],
					 r->v[COL_FINE_NS] };
	enum ramp_judged j;

	if (r->v[RAMP_ORDER] != 0 && *first) {
		*first = 0;
		j = ramp_judge_random_first(b, ns);
	} else {
		j = ramp_judge(b, ns);
	}
	return (r->v[RAMP_ORDER] != 0) == random ? j : RAMP_UNJUDGED;
}

/*
 * Walk the rows as the live run did (ramp.c: ramp_up()): a step one
 * stream past a step that held does not hold; then the drop must hold
 * and the re-add must not.  Exact only where the first step and the
 * re-add both collapsed; an unclear one leaves a bound.
 */
static void read_rows(const struct table *t, int random, struct ramp_read *x)
{
	struct ramp_best b = { { 0 } };
	enum ramp_judged j, drop, again;
	int first = 1;
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = &t->rows[i];

		j = judge_row(&b, r, random, &first);
		if (j == RAMP_HELD_STEP && r->key > x->held) {
			x->held = (unsigned)r->key;
			x->ok = r;
		}
		if (j == RAMP_HELD_STEP || j == RAMP_UNJUDGED || !x->ok ||
		    r->key != (uint64_t)x->held + 1)
			continue;
		x->bad = r;
		x->collapsed = j == RAMP_COLLAPSED;
		/* not confirmed unless the drop and the re-add say so */
		x->unconfirmed = (unsigned)r->key;
		if (i + 2 >= t->nrows)
			return;
		drop = judge_row(&b, &t->rows[i + 1], random, &first);
		again = judge_row(&b, &t->rows[i + 2], random, &first);
		if (t->rows[i + 1].key != r->key - 1 ||
		    drop != RAMP_HELD_STEP || t->rows[i + 2].key != r->key)
			return;
		if (again != RAMP_HELD_STEP) {
			if (j == RAMP_COLLAPSED && again == RAMP_COLLAPSED) {
				x->unconfirmed = 0;
				x->limit = x->held;
			}
			return;
		}
		/* no limit: the re-added stream held, and the ramp went on */
		x->unconfirmed = 0;
		i += 2;
		x->held = (unsigned)t->rows[i].key;
		x->ok = &t->rows[i];
	}
}

static void quote(char *buf, size_t len, const char *what,
		  const struct table_row *r)
{
	char t[UNIT_BUFLEN], f[UNIT_BUFLEN];

	say(buf, len, "%s %llu streams: %s coarse, %s fine per write", what,
	    (unsigned long long)r->key, fmt_time(t, r->v[COL_COARSE_NS]),
	    fmt_time(f, r->v[COL_FINE_NS]));
}

static void linear_verdict(const struct ramp_read *x, struct verdict *v)
{
	char *e = v->evidence;
	size_t n = sizeof(v->evidence);

	if (x->limit) {
		set_value(v, x->limit, CONF_MEDIUM);
		quote(e, n, "ramp: holds at", x->ok);
		quote(e, n, "collapses at", x->bad);
		say(e, n, "confirmed by dropping the newest stream and adding "
		    "it back");
		return;
	}
	if (!x->held) {
		say(e, n, "ramp: collapsed with one stream: no open AU to "
		    "count against (is --erasesize right?)");
		return;
	}
	set_value(v, x->held, x->unconfirmed ? CONF_LOW : CONF_MEDIUM);
	v->at_least = 1;
	quote(e, n, "ramp: holds at", x->ok);
	if (x->unconfirmed)
		say(e, n, "%u streams did not hold, but no collapse was "
		    "confirmed (unclear, no recovery when a stream was "
		    "dropped, or the rows end)", x->unconfirmed);
	else
		say(e, n, "no confirmed collapse up to the largest step run");
}

/*
 * A random ramp fills AUs backwards, which is not -O --random's order,
 * and a card that copies little of an AU it closes shows one stream past
 * its random slots as a small rise of a round's mean (on simulated cards
 * merge=10, 16 slots: a fifth): its count is low at best, a pointer to
 * the -O --random runs that decide it.
 */
static void random_verdict(const struct ramp_read *x, struct verdict *v)
{
	char *e = v->evidence;
	size_t n = sizeof(v->evidence);

	if (!x->held) {
		say(e, n, "random ramp: one random stream is more than %.0f "
		    "times as slow as a linear one (no random slot, or dear "
		    "random writes); confirm with -O --random "
		    "--open-au-nr=1", RAMP_NO_SLOT);
		return;
	}
	set_value(v, x->held, CONF_LOW);
	v->at_least = !x->limit;
	quote(e, n, "random ramp: holds at", x->ok);
	if (x->limit)
		quote(e, n, "collapses at", x->bad);
	else
		say(e, n, "no confirmed collapse after it");
	say(e, n, "confirm with -O --random --open-au-nr=%u and %u", x->held,
	    x->held + 1);
}

/* The first ramp of this order; NULL: none. */
static const struct table *first_ramp(const struct table *tabs, size_t n,
				      int random)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tabs[i].kind == TAB_RAMP && tabs[i].random == random)
			return &tabs[i];
	return NULL;
}

void ramp_family(const struct table *tabs, size_t n, int random,
		 struct verdict *v)
{
	const struct table *t = first_ramp(tabs, n, random);
	struct ramp_read x = { 0 };

	if (v->type != V_NONE || !t)
		return;
	verdict_init(v, V_COUNT);
	read_rows(t, random, &x);
	if (random)
		random_verdict(&x, v);
	else
		linear_verdict(&x, v);
}

/*
 * The first ramp of this order, where its step one stream past the most
 * that held (*limit) collapsed, not only unclear, confirmed or not (the
 * survey's ramp stops there); NULL: none.  Its rows quoted go to buf.
 */
const struct table *ramp_collapse(const struct table *tabs, size_t n,
				  int random, unsigned *limit, char *buf,
				  size_t len)
{
	const struct table *t = first_ramp(tabs, n, random);
	struct ramp_read x = { 0 };

	if (!t)
		return NULL;
	read_rows(t, random, &x);
	if (!x.held || !x.collapsed || (!x.limit && !x.unconfirmed))
		return NULL;
	*limit = x.held;
	quote(buf, len, random ? "random ramp: holds at" : "ramp: holds at",
	      x.ok);
	quote(buf, len, "collapses at", x.bad);
	return t;
}
