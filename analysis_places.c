// SPDX-License-Identifier: GPL-2.0
/*
 * Alignment test, each place on its own: a live -a run keeps every
 * place's samples, and they tell a 2^n unit from a 3x2^n one read at
 * power-of-two boundaries.  At a boundary B >= v the places sit at
 * offsets o + B; a unit of v makes every place a boundary, a unit of 3v
 * only the places at multiples of 3v (about a third of them), which the
 * averaged table cannot tell from a smaller step.
 */
#include <math.h>

#include "analysis_int.h"
#include "stats.h"
#include "units.h"

/* Each place's diff at one row: on - (pre + post) / 2. */
static double place_diff(const struct table *t, const struct table_row *r,
			 unsigned k)
{
	unsigned np = t->nkept / 3;
	const double *v = r->v + t->kept_from;

	return v[np + k] - (v[k] + v[2 * np + k]) / 2;
}

/*
 * Sort the places of the 2^n rows in [v, hi) by whether they are
 * multiples of 3v: hit[] those that are, miss[] the others.
 */
static void split_places(const struct table *t, uint64_t v, uint64_t hi,
			 double *hit, size_t *nh, double *miss, size_t *nm)
{
	unsigned np = t->nkept / 3, k;
	size_t i;

	*nh = *nm = 0;
	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = &t->rows[i];

		if (odd_part(r->key) != 1 || r->key < v || r->key >= hi)
			continue;
		for (k = 0; k < np; k++) {
			double d = place_diff(t, r, k);

			if (!isfinite(d))
				continue;
			if ((t->kept_at[k] + r->key) % (3 * v) == 0) {
				if (*nh < STATS_MAX)
					hit[(*nh)++] = d;
			} else if (*nm < STATS_MAX) {
				miss[(*nm)++] = d;
			}
		}
	}
}

static double spread(const double *d, size_t n, double m)
{
	double res[STATS_MAX];
	size_t i;

	for (i = 0; i < n; i++)
		res[i] = fabs(d[i] - m);
	return 1.4826 * median(res, n);
}

/*
 * The unit behind a step at v seen in the 2^n rows [v, hi), below being
 * the level of the rows under v: 1 when every place steps, 3 when only
 * the multiples of 3v do, 0 when the places cannot tell (an averaged
 * table, too few of either kind, or in between).
 */
unsigned place_multiple(const struct table *t, uint64_t v, uint64_t hi,
			double below, char *why, size_t len)
{
	double hit[STATS_MAX], miss[STATS_MAX], mh, mm, noise, r;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	size_t nh, nm;

	if (t->kind != TAB_ALIGN || t->nkept < 3 || t->nkept % 3 || !v)
		return 0;
	split_places(t, v, hi, hit, &nh, miss, &nm);
	if (nh < 2 || nm < 2)
		return 0;
	mh = median(hit, nh) - below;
	mm = median(miss, nm) - below;
	noise = fmax(spread(hit, nh, mh + below), spread(miss, nm, mm + below));
	if (!(mh > 3 * noise) || !(mh > 3000.0))
		return 0;
	r = mm / mh;
	say(why, len, "places at multiples of %s step by %s, the other %zu "
	    "of %zu by %.0f%% of that", fmt_size(a, (double)(3 * v)),
	    fmt_time(b, mh), nm, nm + nh, 100 * r);
	if (r > 0.6)
		return 1;
	if (r >= 0.25)
		return 0;
	/* the pattern reaching the row under v: a unit of 3v/2 or less */
	split_places(t, v / 2, v, hit, &nh, miss, &nm);
	if (nh && nm && median(hit, nh) - median(miss, nm) > 0.5 * mh)
		return 0;
	return 3;
}
