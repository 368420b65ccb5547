// SPDX-License-Identifier: GPL-2.0
/*
 * The page from write times, where the -a reads gave none.  A card
 * programs whole pages: a write of part of one makes it read the page
 * back and program it whole, which takes longer than a write of the
 * whole page.  In an -O run that held, a write of half a size taking
 * clearly longer than a write of the size, and every smaller write no
 * quicker, marks that size as the unit the card programs (an "effective"
 * page).  Seen on a USB stick whose -a table shows no page
 * (tests/real/007: 16KiB writes 5.2ms, 32KiB ones 3.0ms; the expert
 * reads "page size looks like 32 KB effective").  Only low: one kind of
 * evidence, which a card with a larger internal write unit would show at
 * that unit too.
 */
#include <stdlib.h>

#include "analysis/internal.h"
#include "lib/units.h"

/*
 * A half-size write taking this many times as long as the whole one: a
 * read-modify-write.  Between runs of one card the time of a row moves
 * by some percent; a pause of the card in one row is what the second
 * run agreeing rules out.
 */
#define RMW_LONGER 1.3
/* Runs that held and show the same unit: one run could hold a pause. */
#define RMW_RUNS 2

/* The time one write of row i takes (in seconds), -1 where unknown. */
static double write_time(const struct column *c, size_t i)
{
	double rate = cell(c, i);

	return rate > 0 ? (double)c->t->rows[i].key / rate : -1;
}

/*
 * The size of c whose half takes RMW_LONGER times as long and below
 * which no write is quicker: 0 where none, UINT64_MAX where the run
 * shows two (it tells nothing then).
 */
static uint64_t rmw_unit(const struct column *c)
{
	const struct table *t = c->t;
	uint64_t unit = 0;
	size_t i, j;

	for (i = 0; i + 1 < t->nrows; i++) {
		double whole = write_time(c, i), half = write_time(c, i + 1);
		int quicker = 0;

		if (whole <= 0 || half <= 0 ||
		    t->rows[i + 1].key * 2 != t->rows[i].key ||
		    half < RMW_LONGER * whole)
			continue;
		for (j = i + 2; j < t->nrows; j++)
			quicker |= write_time(c, j) < whole;
		if (quicker)
			continue;
		if (unit)
			return UINT64_MAX;
		unit = t->rows[i].key;
	}
	return unit;
}

/*
 * The one unit the linear runs that held show, where at least RMW_RUNS
 * show it and none that reaches below it shows another or none.
 */
static uint64_t agreed_unit(const struct column *c, size_t m, size_t *runs)
{
	uint64_t unit = 0, lowest_none = UINT64_MAX, u, last;
	size_t i;

	*runs = 0;
	for (i = 0; i < m; i++) {
		if (c[i].random || c[i].collapsed || c[i].t->nrows < 2)
			continue;
		u = rmw_unit(&c[i]);
		last = c[i].t->rows[c[i].t->nrows - 1].key;
		if (!u && last < lowest_none)
			lowest_none = last;
		if (!u)
			continue;
		if (u == UINT64_MAX || (unit && u != unit))
			return 0;
		unit = u;
		(*runs)++;
	}
	if (*runs < RMW_RUNS || lowest_none < unit)
		return 0;
	return unit;
}

void family_page_writes(const struct table *tabs, size_t n,
			const struct analysis_ctx *ctx, struct analysis *out)
{
	struct verdict *v = &out->page_size;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	struct column *c;
	uint64_t unit;
	size_t m, runs;

	(void)ctx;
	if (v->type != V_NONE && !v->is_null && v->conf > CONF_INCONCLUSIVE)
		return;
	c = judged_columns(tabs, n, &m);
	if (!c)
		return;
	unit = agreed_unit(c, m, &runs);
	free(c);
	if (!unit)
		return;
	if (v->type == V_NONE)
		verdict_init(v, V_BYTES);
	set_value(v, unit, CONF_LOW);
	v->at_least = v->at_most = 0;
	say(v->evidence, sizeof(v->evidence), "from writes: in %zu -O runs "
	    "that held, a write of %s takes %.0f%% longer or more than one "
	    "of %s, and no smaller write is quicker: the card programs %s "
	    "at a time", runs, fmt_size(a, (double)unit / 2),
	    100 * (RMW_LONGER - 1), fmt_size(b, (double)unit), b);
}
