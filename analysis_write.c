// SPDX-License-Identifier: GPL-2.0
/*
 * Minimum full-speed write: the smallest size a write can have without
 * wasting time on a partly written page, from a run that did not
 * collapse.
 */
#include <math.h>

#include "analysis_int.h"
#include "stats.h"
#include "units.h"

/*
 * Lower is better: linear before random, then the run reaching the
 * smaller size (one that stops short cannot show a smaller minimum),
 * small N, then more rows.
 */
static int worse_run(const struct column *a, const struct column *b)
{
	unsigned na = a->nr ? a->nr : 2, nb = b->nr ? b->nr : 2;
	uint64_t la = a->t->rows[a->t->nrows - 1].key;
	uint64_t lb = b->t->rows[b->t->nrows - 1].key;

	if (a->random != b->random)
		return a->random > b->random;
	if (la != lb)
		return la > lb;
	if (na != nb)
		return na > nb;
	return a->t->nrows < b->t->nrows;
}

/* Time of one write of row i, in ns. */
static double write_ns(const struct column *c, size_t i)
{
	return (double)c->t->rows[i].key / cell(c, i) * 1e9;
}

/*
 * Cost per byte of the rows above row i: the median slope of the time of
 * one write against its size, robust to one odd row.
 */
static double slope_above(const struct column *c, size_t i, size_t *n)
{
	double sl[STATS_MAX];
	size_t j;

	*n = 0;
	for (j = 0; j + 1 < i && *n < STATS_MAX; j++)
		sl[(*n)++] = (write_ns(c, j) - write_ns(c, j + 1)) /
			     (double)(c->t->rows[j].key -
				      c->t->rows[j + 1].key);
	return median(sl, *n);
}

/*
 * Above the page, a write of half the size takes the command overhead
 * plus half the work: its time falls along a line.  Below the page a
 * write still programs a whole page, so its time stops falling.  Row i
 * is below the page when its time fell by clearly less than the line of
 * the rows above predicts; returns that share (1: on the line).
 */
static double fall_share(const struct column *c, size_t i, size_t *n)
{
	double b = slope_above(c, i, n), want;

	want = b * (double)(c->t->rows[i - 1].key - c->t->rows[i].key);
	if (!(want > 0))
		return 1;
	return (write_ns(c, i - 1) - write_ns(c, i)) / want;
}

/*
 * Below the page every halving of the size slows writes further; a slow
 * row that smaller writes outrun is a dip, not the page.
 */
static int recovers(const struct column *c, size_t i, size_t rows)
{
	size_t j;

	for (j = i + 1; j < rows; j++)
		if (cell(c, j) > 1.25 * cell(c, i))
			return 1;
	return 0;
}

static const struct column *pick_run(const struct column *c, size_t m,
				     size_t *nbad)
{
	const struct column *best = NULL;
	size_t i;

	*nbad = 0;
	for (i = 0; i < m; i++) {
		if (c[i].t->nrows < 4)
			continue;
		if (c[i].collapsed) {
			(*nbad)++;
			continue;
		}
		if (!best || worse_run(best, &c[i]))
			best = &c[i];
	}
	return best;
}

void min_write_verdict(const struct column *c, size_t m, struct verdict *v)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], d[UNIT_BUFLEN], e[UNIT_BUFLEN];
	const struct column *run;
	size_t i, n = 0, nbad, rows, dip = 0;
	double share = 1, least = 1;

	run = pick_run(c, m, &nbad);
	if (!run) {
		if (!nbad)
			return;
		verdict_init(v, V_BYTES);
		say(v->evidence, sizeof(v->evidence),
		    "every run collapsed: no full-speed write to measure");
		return;
	}
	verdict_init(v, V_BYTES);
	rows = run->t->nrows;
	while (rows > 2 && !isfinite(cell(run, rows - 1)))
		rows--;
	for (i = 2; i < rows; i++) {
		share = fall_share(run, i, &n);
		if (share >= 0.7) {
			least = fmin(least, share);
			continue;
		}
		if (!recovers(run, i, rows))
			break;
		dip = i;
	}
	if (i == rows) {
		/* a step that fell short of the line may hide a page */
		set_value(v, run->t->rows[rows - 1].key,
			  least >= 0.9 ? CONF_MEDIUM : CONF_LOW);
		say(v->evidence, sizeof(v->evidence),
		    "write time falls with the size down to %s (%s)",
		    fmt_size(a, (double)v->value),
		    fmt_rate(b, cell(run, rows - 1)));
		say(v->note, sizeof(v->note), "smallest size measured");
	} else {
		set_value(v, run->t->rows[i - 1].key,
			  share < 0.2 && n >= 3 ? CONF_HIGH :
			  share < 0.4 ? CONF_MEDIUM : CONF_LOW);
		say(v->evidence, sizeof(v->evidence),
		    "%s at %s, %s at %s: a write of %s takes about as long "
		    "as one of %s", fmt_rate(a, cell(run, i - 1)),
		    fmt_size(b, (double)v->value), fmt_rate(d, cell(run, i)),
		    fmt_size(e, (double)run->t->rows[i].key), e, b);
	}
	say(v->evidence, sizeof(v->evidence), "%s run, N=%u",
	    run->random ? "random" : "linear", run->nr);
	if (dip) {
		v->conf = conf_down(v->conf);
		say(v->evidence, sizeof(v->evidence),
		    "a dip at %s recovers below it",
		    fmt_size(a, (double)run->t->rows[dip].key));
	}
}
