// SPDX-License-Identifier: GPL-2.0
/* Find-FAT verdicts: the AUs that behave unlike the rest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "stats.h"
#include "units.h"

/*
 * Each AU's typical rate relative to the fastest AU of each row (the
 * median over the write sizes), and the AUs sorted by it.
 */
struct fat_eval {
	unsigned nc, nuse;	/* AUs, and those not collapsed */
	int skip[TABLE_MAXCOLS];	/* collapsed: left out */
	size_t rows;
	double lvl[TABLE_MAXCOLS];
	unsigned order[TABLE_MAXCOLS];	/* by lvl, slowest first */
	double cut;		/* between the slow and the fast group */
	unsigned nslow;
	double gap;		/* fast group's slowest / slow's fastest */
};

static double rel(const struct table *t, size_t i, unsigned j, unsigned nc)
{
	double top = 0;
	unsigned k;

	for (k = 0; k < nc; k++)
		if (t->rows[i].v[k] > top)
			top = t->rows[i].v[k];
	return top > 0 ? t->rows[i].v[j] / top : NAN;
}

static void fat_scan(const struct table *t, struct fat_eval *e)
{
	double r[STATS_MAX];
	unsigned j, k;
	size_t i, n;

	for (j = 0; j < e->nc; j++) {
		if (e->skip[j])
			continue;
		for (i = 0, n = 0; i < t->nrows && n < STATS_MAX; i++) {
			double x = rel(t, i, j, e->nc);

			if (isfinite(x))
				r[n++] = x;
		}
		e->rows = n;
		e->lvl[j] = median(r, n);
		for (k = e->nuse; k && e->lvl[e->order[k - 1]] > e->lvl[j];
		     k--)
			e->order[k] = e->order[k - 1];
		e->order[k] = j;
		e->nuse++;
	}
	e->gap = 1;
	for (k = 0; k + 1 < e->nuse; k++) {
		double g = e->lvl[e->order[k + 1]] / e->lvl[e->order[k]];

		if (g > e->gap) {
			e->gap = g;
			e->nslow = k + 1;
			e->cut = sqrt(e->lvl[e->order[k + 1]] *
				      e->lvl[e->order[k]]);
		}
	}
}

/* Rows in which AU j is on its group's side of the cut. */
static size_t consistent(const struct table *t, const struct fat_eval *e,
			 unsigned j, int slow)
{
	size_t i, n = 0;

	for (i = 0; i < t->nrows; i++) {
		double x = rel(t, i, j, e->nc);

		n += isfinite(x) && (slow ? x < e->cut : x > e->cut);
	}
	return n;
}

/*
 * A slow AU whose writes get slower and slower with smaller sizes is
 * not special but collapsed: with --random, the AUs the card has no
 * random-capable slot left for copy on every write.  A FAT area costs
 * a constant factor.
 */
static int collapses(const struct table *t, const struct fat_eval *e,
		     unsigned j)
{
	size_t last = t->nrows;

	while (last > 2 && !isfinite(rel(t, last - 1, j, e->nc)))
		last--;
	return last > 2 && rel(t, last - 1, j, e->nc) <
			   0.5 * rel(t, 1, j, e->nc);
}

static void fat_table(const struct table *t, struct verdict *v)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	struct fat_eval e;
	unsigned k, lo, hi, j, ncoll = 0;
	int slow;
	size_t worst;

	verdict_init(v, V_LIST);
	memset(&e, 0, sizeof(e));
	e.nc = t->ncols < TABLE_MAXCOLS ? t->ncols : TABLE_MAXCOLS;
	for (j = 0; t->random && j < e.nc; j++) {
		e.skip[j] = collapses(t, &e, j);
		ncoll += e.skip[j];
	}
	fat_scan(t, &e);
	if (ncoll)
		say(v->evidence, sizeof(v->evidence),
		    "%u AU%s collapse%s at small writes: random-capable slots "
		    "ran out, not FAT", ncoll, ncoll > 1 ? "s" : "",
		    ncoll > 1 ? "" : "s");
	/*
	 * The first AU written takes the one random slot a card may have;
	 * a later AU that alone copes is special.
	 */
	if (e.nuse == 1 && ncoll >= 2 && e.rows >= 3 && e.order[0]) {
		v->is_null = 0;
		v->list[v->nlist++] = e.order[0];
		v->conf = CONF_MEDIUM;
		say(v->evidence, sizeof(v->evidence),
		    "AU %u alone takes writes in any order", e.order[0]);
		return;
	}
	if (e.nuse < 2 && ncoll && e.rows >= 3) {
		v->is_null = 0;
		v->conf = CONF_LOW;
		return;
	}
	if (e.nuse < 3 || e.rows < 3) {
		say(v->evidence, sizeof(v->evidence), "too few AUs or sizes");
		return;
	}
	v->is_null = 0;
	if (e.gap < 1.1) {
		v->conf = e.rows >= 4 ? CONF_MEDIUM : CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "no AU differs by 10%% from the others in %zu sizes",
		    e.rows);
		return;
	}
	/*
	 * The smaller group is special; of two equal ones, or where
	 * collapsed AUs were left out, the slower (a FAT area writes its
	 * pages slower, seed 002).
	 */
	slow = 2 * e.nslow <= e.nuse || ncoll;
	lo = slow ? 0 : e.nslow;
	hi = slow ? e.nslow : e.nuse;
	worst = e.rows;
	for (k = lo; k < hi; k++) {
		j = e.order[k];
		v->list[v->nlist++] = j;
		if (consistent(t, &e, j, slow) < worst)
			worst = consistent(t, &e, j, slow);
	}
	/* list the AUs in order */
	for (k = 1; k < v->nlist; k++)
		for (j = k; j && v->list[j - 1] > v->list[j]; j--) {
			uint64_t x = v->list[j];

			v->list[j] = v->list[j - 1];
			v->list[j - 1] = x;
		}
	j = (unsigned)v->list[0];
	v->conf = e.gap >= 1.25 && 10 * worst >= 9 * e.rows ? CONF_HIGH :
		  e.gap >= 1.25 && 10 * worst >= 7 * e.rows ? CONF_MEDIUM :
		  CONF_LOW;
	if (2 * e.nslow == e.nuse || ncoll)
		v->conf = CONF_LOW;
	say(v->evidence, sizeof(v->evidence),
	    "AU %u at %s: %s vs %s for the fastest; %s by %.0f%% in %zu of "
	    "%zu sizes", j, fmt_size(a, (double)t->rows[0].key),
	    fmt_rate(b, t->rows[0].v[j]),
	    fmt_rate(c, t->rows[0].v[j] / rel(t, 0, j, e.nc)),
	    slow ? "slower" : "faster",
	    100 * (slow ? 1 - 1 / e.gap : e.gap - 1), worst, e.rows);
	if (2 * e.nslow == e.nuse)
		say(v->evidence, sizeof(v->evidence),
		    "half the AUs differ from the other half");
}

void analyze_fat(const struct table *tabs, size_t n, struct verdict *v)
{
	struct verdict cur;
	size_t i;

	verdict_init(v, V_NONE);
	for (i = 0; i < n; i++) {
		if (tabs[i].kind != TAB_FAT)
			continue;
		fat_table(&tabs[i], &cur);
		if (v->type == V_NONE || cur.conf > v->conf ||
		    (cur.conf == v->conf && cur.nlist > v->nlist))
			*v = cur;
	}
}
