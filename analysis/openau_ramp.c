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
enum { COL_COARSE_NS, COL_COARSE_BPS, COL_FINE_NS, COL_FINE_BPS, COL_RANDOM };

/* What a ramp's rows of one order say. */
struct ramp_read {
	unsigned held;		/* most streams held before the limit found */
	unsigned limit;		/* streams whose collapse was confirmed */
	unsigned unconfirmed;	/* a collapse whose drop did not recover */
	const struct table_row *ok, *bad;	/* rows quoted */
};

/* Judged rows of one order: 1 collapsed, 0 held, -1 other or unjudged. */
static int judge_row(struct ramp_best *b, const struct table_row *r,
		     int random)
{
	const double ns[RAMP_NPARTS] = { r->v[COL_COARSE_NS],
					 r->v[COL_FINE_NS] };
	int j = ramp_judge(b, ns);

	return (r->v[COL_RANDOM] != 0) == random ? j : -1;
}

/*
 * Walk the rows as the live run did (ramp.c: ramp_up()): a collapse one
 * stream past a step that held, then the drop and the re-add.
 */
static void read_rows(const struct table *t, int random, struct ramp_read *x)
{
	struct ramp_best b = { { 0 } };
	int j[3];
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = &t->rows[i];

		j[0] = judge_row(&b, r, random);
		if (j[0] == 0 && r->key > x->held) {
			x->held = (unsigned)r->key;
			x->ok = r;
		}
		if (j[0] != 1 || r->key != (uint64_t)x->held + 1 || !x->ok)
			continue;
		x->bad = r;
		/* a drop that did not recover, or rows cut before the
		 * re-add: not confirmed */
		x->unconfirmed = (unsigned)r->key;
		if (i + 2 >= t->nrows)
			return;
		j[1] = judge_row(&b, &t->rows[i + 1], random);
		j[2] = judge_row(&b, &t->rows[i + 2], random);
		if (t->rows[i + 1].key != r->key - 1 || j[1] != 0)
			return;
		x->unconfirmed = 0;
		if (t->rows[i + 2].key == r->key && j[2] == 1) {
			x->limit = x->held;
			return;
		}
		/* not the limit: the re-added stream held, and the ramp
		 * went on from there */
		i += 2;
		if (j[2] == 0 && t->rows[i].key > x->held) {
			x->held = (unsigned)t->rows[i].key;
			x->ok = &t->rows[i];
		}
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
		say(e, n, "the collapse at %u streams was not confirmed (no "
		    "recovery when a stream was dropped, or the rows end)",
		    x->unconfirmed);
	else
		say(e, n, "no confirmed collapse up to the largest step run");
}

/*
 * A random ramp fills AUs backwards, which is not -O --random's order:
 * on simulated cards it held past their random slots, so its count is
 * only a pointer to the -O --random runs that decide it.
 */
static void random_pointer(const struct ramp_read *x, struct verdict *v)
{
	if (!x->held) {
		say(v->evidence, sizeof(v->evidence), "random ramp: "
		    "collapsed with one stream; not a count: confirm with "
		    "-O --random --open-au-nr=1");
		return;
	}
	say(v->evidence, sizeof(v->evidence), "random ramp: held up to %u "
	    "streams; not a count: confirm with -O --random "
	    "--open-au-nr=%u and %u", x->held, x->held, x->held + 1);
}

void ramp_family(const struct table *tabs, size_t n, int random,
		 struct verdict *v)
{
	struct ramp_read x = { 0 };
	size_t i;

	if (v->type != V_NONE)
		return;
	for (i = 0; i < n && (tabs[i].kind != TAB_RAMP ||
			      tabs[i].random != random); i++)
		;
	if (i == n)
		return;
	verdict_init(v, V_COUNT);
	read_rows(&tabs[i], random, &x);
	if (random)
		random_pointer(&x, v);
	else
		linear_verdict(&x, v);
}
