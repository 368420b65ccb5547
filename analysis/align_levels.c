// SPDX-License-Identifier: GPL-2.0
/*
 * The diff column of an -a table read as levels: one family of
 * boundaries (k x 2^n for one odd k), largest first, its rows cleaned of
 * what the card's state did to them, fitted with a few flat levels.
 *
 * A row's diff is on - (pre + post) / 2 of reads taken one after the
 * other.  A baseline that shifts between them (seed 002's rows move by
 * 10-25 %), or a burst of slow reads in pre or post, moves the diff by
 * at most half of what it does to pre - post, which otherwise stays the
 * same from row to row (0, or a read-ahead edge above a zone size).  A
 * row whose pre - post departs from both its neighbours' is disturbed:
 * its diff is known only to within half of that, so it sets no level.
 * Live runs keep each place's reads: a burst at one place is left out
 * of its row instead.
 */
#include <math.h>
#include <string.h>

#include "analysis/internal.h"
#include "analysis/stats.h"

/* A place whose reads this far off its row's (a fraction of the read
 * time) is a burst: boundaries cost less, housekeeping more. */
#define BURST_FRAC 0.35
/* The fewest places a row keeps when bursts are left out. */
#define PLACES_KEPT 5
/* Disturbed: pre - post this many of its scatters from its neighbours'. */
#define ASYM_Z 3.0
/* Disturbed: places this many times as scattered as a typical row's. */
#define SPREAD_Z 4.0
/*
 * Diffs are fitted on a scale linear up to about this (ns) and
 * logarithmic above: steps are relative (1.2ms vs 1.3ms is noise, 15µs
 * vs 0 is not).
 */
#define LOG_KNEE 2000.0
/* Levels apart by less than this share of the larger are one level. */
#define STEP_SHARE 0.2
/*
 * A diff (pre and post averaged, minus on) carries the noise of one and
 * a half reads, pre - post that of two, post that of one.
 */
#define DIFF_READS 1.5
#define ASYM_READS 2.0

/*
 * The places of a live row that a burst hit: far off the others (a
 * fraction of the read time), and alone in that.  gone[k] set for each;
 * dk[k] and ak[k] get each place's diff and pre - post.
 */
void burst_places(const struct table *t, const struct table_row *r,
		  double *dk, double *ak, int *gone)
{
	unsigned np = t->nkept / 3, k, keep = np;
	const double *v = r->v + t->kept_from;
	double dev[TABLE_MAXCOLS], base[2 * TABLE_MAXCOLS], md, ma, b;

	for (k = 0; k < np; k++) {
		dk[k] = v[np + k] - (v[k] + v[2 * np + k]) / 2;
		ak[k] = v[k] - v[2 * np + k];
		base[2 * k] = v[k];
		base[2 * k + 1] = v[2 * np + k];
		gone[k] = 0;
	}
	md = median(dk, np);
	ma = median(ak, np);
	b = median(base, 2 * np);
	for (k = 0; k < np; k++)
		dev[k] = isfinite(dk[k]) ? fabs(dk[k] - md) +
					   fabs(ak[k] - ma) / 2 : 0;
	while (keep > PLACES_KEPT) {
		unsigned w = np;
		double second = 0;

		for (k = 0; k < np; k++)
			if (!gone[k] && (w == np || dev[k] > dev[w]))
				w = k;
		for (k = 0; k < np; k++)
			if (!gone[k] && k != w)
				second = fmax(second, dev[k]);
		if (!(dev[w] >= BURST_FRAC * b && dev[w] >= 2 * second))
			break;
		gone[w] = 1;
		keep--;
	}
}

/* Scatter of n values about m, robustly (a spike or two do not count). */
static double mad_scatter(const double *x, size_t n, double m)
{
	double r[MAX_ROWS] = { 0 };
	size_t i;

	for (i = 0; i < n; i++)
		r[i] = fabs(x[i] - m);
	/* the median of the rows sits closer to them than their level */
	return MAD_SD * median(r, n) * sqrt((double)n / (double)(n - 1));
}

/*
 * A live row from its places, less those a burst hit: their median, as a
 * shift of the baseline during the row moves some places only (those
 * read on one side of it).
 */
static void place_values(const struct table *t, const struct table_row *r,
			 double *d, double *asym, double *spread)
{
	double dk[TABLE_MAXCOLS], ak[TABLE_MAXCOLS];
	double kd[TABLE_MAXCOLS], ka[TABLE_MAXCOLS];
	int gone[TABLE_MAXCOLS];
	unsigned k, keep = 0;

	burst_places(t, r, dk, ak, gone);
	for (k = 0; k < t->nkept / 3; k++) {
		if (gone[k] || !isfinite(dk[k]))
			continue;
		kd[keep] = dk[k];
		ka[keep++] = ak[k];
	}
	*d = keep ? median(kd, keep) : r->v[3];
	*asym = keep ? median(ka, keep) : r->v[0] - r->v[2];
	*spread = keep > 1 ? mad_scatter(kd, keep, *d) : NAN;
}

static int live(const struct table *t)
{
	return t->nkept >= 3 && t->nkept % 3 == 0 && t->nkept <= TABLE_MAXCOLS;
}

static void insert_row(struct family *f, uint64_t key, double d, double a,
		       double post, double spread)
{
	size_t j;

	/* sorted by descending key whatever the input order */
	for (j = 0; j < f->n && f->key[j] > key; j++)
		;
	if (j < f->n && f->key[j] == key)
		return;
	memmove(f->key + j + 1, f->key + j, (f->n - j) * sizeof(f->key[0]));
	memmove(f->d + j + 1, f->d + j, (f->n - j) * sizeof(f->d[0]));
	memmove(f->asym + j + 1, f->asym + j, (f->n - j) * sizeof(f->asym[0]));
	memmove(f->post + j + 1, f->post + j, (f->n - j) * sizeof(f->post[0]));
	memmove(f->spread + j + 1, f->spread + j,
		(f->n - j) * sizeof(f->spread[0]));
	f->spread[j] = spread;
	f->key[j] = key;
	f->d[j] = d;
	f->asym[j] = a;
	f->post[j] = post;
	f->n++;
}

static void family_rows(const struct table *t, uint64_t odd,
			struct family *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->odd = odd;
	for (i = 0; i < t->nrows && f->n < MAX_ROWS; i++) {
		const struct table_row *r = &t->rows[i];
		double d = r->v[3], a = r->v[0] - r->v[2], spread = NAN;

		if (odd_part(r->key) != odd || !isfinite(d))
			continue;
		if (live(t))
			place_values(t, r, &d, &a, &spread);
		insert_row(f, r->key, d, a, r->v[2], spread);
	}
}

/* Robust scatter of one value from the differences of neighbours. */
static double pair_scatter(const double *x, size_t n, const int *skip)
{
	double dif[MAX_ROWS];
	size_t i, j, m = 0;

	for (i = 0; i < n; i = j) {
		for (; i < n && (skip[i] || !isfinite(x[i])); i++)
			;
		for (j = i + 1; j < n && (skip[j] || !isfinite(x[j])); j++)
			;
		if (j < n)
			dif[m++] = fabs(x[i] - x[j]);
	}
	return m ? MAD_SD * median(dif, m) / M_SQRT2 : 0;
}

/*
 * Disturbed rows: pre - post off from what the rows about it have, by
 * more than those rows scatter (a read-ahead edge makes pre - post step
 * once, at a zone size; a unit of 3x2^n bytes read at 2^n boundaries
 * makes it differ from row to row).  Their diff is off by up to half
 * that departure (w).
 */
static void flag_disturbed(struct family *f)
{
	int none[MAX_ROWS] = { 0 };
	double near[4], res[4], mid[MAX_ROWS], sc[MAX_ROWS], all[MAX_ROWS];
	/* what matters is a diff moved by more than its scatter */
	double least = fmax(3 * pair_scatter(f->d, f->n, none), ABS_MIN);
	double typical;
	size_t i, j, k, m, n = 0;

	for (i = 0; i < f->n; i++) {
		sc[i] = NAN;
		if (!isfinite(f->asym[i]))
			continue;
		for (j = i > 2 ? i - 2 : 0, m = 0; j < f->n && j <= i + 2; j++)
			if (j != i && isfinite(f->asym[j]))
				near[m++] = f->asym[j];
		if (m < 2)
			continue;
		mid[i] = median(near, m);
		for (k = 0; k < m; k++)
			res[k] = fabs(near[k] - mid[i]);
		sc[i] = MAD_SD * median(res, m);
		all[n++] = fabs(f->asym[i] - mid[i]);
	}
	/* a few rows about one are few: their scatter is at least typical */
	typical = MAD_SD * median(all, n);
	for (i = 0; i < f->n; i++) {
		double dev = fabs(f->asym[i] - mid[i]);

		if (!isfinite(sc[i]) || dev < least ||
		    dev < ASYM_Z * fmax(sc[i], typical))
			continue;
		f->bad[i] = 1;
		f->w[i] = dev / 2;
	}
}

/*
 * Live rows whose places disagree far more than the other rows' do: the
 * baseline shifted while the row was read, for a while shorter than a
 * round of its reads, so that some places kept their best from the
 * shifted reads and others not (the row's pre - post need not show it).
 * Their median is known only to within that scatter.
 */
static void flag_spread(struct family *f)
{
	double all[MAX_ROWS], typical;
	size_t i, n = 0;

	for (i = 0; i < f->n; i++)
		if (isfinite(f->spread[i]))
			all[n++] = f->spread[i];
	if (n < 4)
		return;
	typical = median(all, n);
	for (i = 0; i < f->n; i++) {
		if (!(f->spread[i] > SPREAD_Z * typical) ||
		    f->spread[i] < ABS_MIN)
			continue;
		f->bad[i] = f->apart[i] = 1;
		f->w[i] = fmax(f->w[i], f->spread[i]);
	}
}

static double seg_cost(const double *d, size_t a, size_t b)
{
	double m = median(d + a, b - a), c = 0;
	size_t i;

	for (i = a; i < b; i++)
		c += fabs(d[i] - m);
	return c;
}

/*
 * Best piecewise-constant fit of the clean rows with k segments (least
 * absolute error), on a log-like scale (LOG_KNEE) that stays linear
 * around zero, where diffs can be negative.  seg[] gets each clean row's
 * segment.
 */
static size_t fit_levels(const double *x, size_t n, size_t k, size_t *seg)
{
	double cost[MAX_ROWS + 1][MAX_ROWS + 1];
	double best[MAX_SEGS + 1][MAX_ROWS + 1], t[MAX_ROWS];
	size_t from[MAX_SEGS + 1][MAX_ROWS + 1];
	size_t s, i, j;

	if (k > n)
		k = n;
	for (i = 0; i < n; i++)
		t[i] = asinh(x[i] / LOG_KNEE);
	for (i = 0; i < n; i++)
		for (j = i + 1; j <= n; j++)
			cost[i][j] = seg_cost(t, i, j);
	for (j = 1; j <= n; j++) {
		best[1][j] = cost[0][j];
		from[1][j] = 0;
	}
	for (s = 2; s <= k; s++) {
		for (j = s; j <= n; j++) {
			best[s][j] = INFINITY;
			for (i = s - 1; i < j; i++) {
				double c = best[s - 1][i] + cost[i][j];

				if (c < best[s][j]) {
					best[s][j] = c;
					from[s][j] = i;
				}
			}
		}
	}
	for (s = k, j = n; s > 0; s--) {
		for (i = from[s][j]; i < j; i++)
			seg[i] = s - 1;
		j = from[s][j];
	}
	return k;
}

/*
 * Levels, scatters and clean-row counts of the segments.  A level's rows
 * show its scatter when there are enough of them; the rows under the top
 * level (the page's and the floor's, read alike) show one scatter for
 * all, which a level of few rows takes.  The rows above an erase block
 * scatter more (a slow AU, a longer read).
 */
static void seg_levels(struct family *f)
{
	double x[MAX_ROWS];
	int skip[MAX_ROWS];
	size_t s, i, m;

	for (i = 0; i < f->n; i++)
		skip[i] = f->bad[i] || (f->nseg > 1 && f->seg[i] == 0);
	f->quiet = fmax(fmax(pair_scatter(f->d, f->n, skip), f->read_sd),
			SIGMA_MIN);
	for (s = 0; s < f->nseg; s++) {
		for (i = 0, m = 0; i < f->n; i++)
			if (!f->bad[i] && f->seg[i] == s)
				x[m++] = f->d[i];
		f->lvl[s] = median(x, m);
		f->nclean[s] = m;
		if (m >= 6 || (s == 0 && m >= 4))
			f->sd[s] = fmax(mad_scatter(x, m, f->lvl[s]),
					s ? f->quiet / 2 : SIGMA_MIN);
		else
			f->sd[s] = f->quiet;
	}
}

/* Rows of segment s: [seg_first(s), seg_first(s + 1)). */
size_t seg_first(const struct family *f, size_t s)
{
	size_t i;

	for (i = 0; i < f->n && f->seg[i] < s; i++)
		;
	return i;
}

/*
 * Segments s and t differ clearly: their levels are apart by more than
 * what their rows' scatter leaves open, and by a fifth of the larger
 * (steps are relative).
 */
int clear_step(const struct family *f, size_t s, size_t t)
{
	double a = f->lvl[s], b = f->lvl[t], need;

	need = LEVEL_Z * level_se(f, s, t);
	need = fmax(need, fmax(ABS_MIN, STEP_SHARE * fmax(fabs(a), fabs(b))));
	return fabs(a - b) >= need;
}

/* Standard error of the difference of the levels of s and t. */
double level_se(const struct family *f, size_t s, size_t t)
{
	double ns = f->nclean[s] ? (double)f->nclean[s] : 1;
	double nt = f->nclean[t] ? (double)f->nclean[t] : 1;

	return MEDIAN_SE * sqrt(f->sd[s] * f->sd[s] / ns +
			   f->sd[t] * f->sd[t] / nt);
}

/* Join segment s with the count - 1 after it. */
static void merge_at(struct family *f, size_t s, size_t count)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->seg[i] >= s + count)
			f->seg[i] -= count - 1;
		else if (f->seg[i] > s)
			f->seg[i] = s;
	}
	f->nseg -= count - 1;
	seg_levels(f);
}

/* Join levels that do not differ clearly, and lone spikes. */
static void merge_levels(struct family *f)
{
	for (;;) {
		size_t s, best = 0;
		double bd = INFINITY;

		for (s = 1; s + 1 < f->nseg; s++) {
			if (f->nclean[s] <= 1 && f->nclean[s - 1] > 1 &&
			    f->nclean[s + 1] > 1 && !clear_step(f, s - 1, s + 1))
				break;
		}
		if (s + 1 < f->nseg) {
			merge_at(f, s - 1, 3);
			continue;
		}
		for (s = 0; s + 1 < f->nseg; s++) {
			double d = fabs(f->lvl[s] - f->lvl[s + 1]);

			if (!clear_step(f, s, s + 1) && d < bd) {
				bd = d;
				best = s;
			}
		}
		if (!isfinite(bd))
			return;
		merge_at(f, best, 2);
	}
}

/* Segments of the clean rows; a disturbed row joins the one above it. */
static void segment(struct family *f)
{
	double x[MAX_ROWS];
	size_t seg[MAX_ROWS], i, m = 0, s = 0;

	for (i = 0; i < f->n; i++)
		if (!f->bad[i])
			x[m++] = f->d[i];
	f->nseg = m ? fit_levels(x, m, MAX_SEGS, seg) : 1;
	for (i = 0, m = 0; i < f->n; i++) {
		if (!f->bad[i])
			s = seg[m++];
		f->seg[i] = s;
	}
	seg_levels(f);
	merge_levels(f);
}

void family_read(const struct table *t, uint64_t odd, struct family *f)
{
	int bad[MAX_ROWS];
	size_t i;

	family_rows(t, odd, f);
	if (!f->n)
		return;
	flag_disturbed(f);
	flag_spread(f);
	for (i = 0; i < f->n; i++)
		bad[i] = f->bad[i];
	/*
	 * A diff's scatter from its reads': post ends at no boundary, so
	 * its rows differ by the noise alone, and the baseline's shifts
	 * between rows; pre - post by the noise of two reads where the diff
	 * has that of one and a half, and the read-ahead edges.  The less
	 * of the two.
	 */
	f->read_sd = fmin(sqrt(DIFF_READS) * pair_scatter(f->post, f->n, bad),
			  sqrt(DIFF_READS / ASYM_READS) *
			  pair_scatter(f->asym, f->n, bad));
	f->sigma = fmax(pair_scatter(f->d, f->n, bad), SIGMA_MIN);
	segment(f);
}

/*
 * Log-likelihood that a row at x belongs to the level near rather than
 * to far, each of whose rows scatter by sn and sf: the side is the
 * nearer one (a level's scatter is mostly its rows a slow AU or a burst
 * raised, so the tighter one tells how far a row strays).  A row beyond
 * near says no more than one at near, and no row more than LLR_MAX
 * either way: one burst of slow reads can put any row anywhere.
 */
double edge_llr(double x, double near, double sn, double far, double sf)
{
	double sd = fmin(sn, sf), l;

	if ((x - near) * (near - far) > 0)
		x = near;
	l = ((x - far) * (x - far) - (x - near) * (x - near)) / (2 * sd * sd);
	return fmax(fmin(l, LLR_MAX), -LLR_MAX);
}

/*
 * A row's diff as evidence of its side of a step between up and lo: a
 * disturbed row's diff may be anywhere within w of it, so it says as
 * little as the value in that range nearest the middle.
 */
double edge_value(const struct family *f, size_t i, double up, double lo)
{
	double mid = (up + lo) / 2;

	return fmax(f->d[i] - f->w[i], fmin(f->d[i] + f->w[i], mid));
}

/*
 * The step at boundary key, whether the fit put one there or not: up to
 * eight clean rows from key up to below limit (above an erase block a
 * slow AU raises many a row) against up to three below it, and how well
 * the two rows next to it side with their levels.
 */
int measure_at(const struct family *f, uint64_t key, uint64_t limit,
	       struct local_step *m)
{
	double up[8], lo[3], su, sl;
	int skip[MAX_ROWS];
	size_t i, j, nu = 0, nl = 0;

	for (i = 0; i < f->n && f->key[i] != key; i++)
		;
	if (i + 1 >= f->n)
		return 0;
	su = f->sd[f->seg[i]];
	sl = f->sd[f->seg[i + 1]];
	m->nrow = 0;
	m->at_bad = f->bad[i];
	for (j = i + 1; j-- > 0 && nu < 8 && (j == i || f->key[j] < limit);) {
		if (f->bad[j])
			continue;
		if (m->nrow < 4)
			m->row[m->nrow++] = f->d[j];
		up[nu++] = f->d[j];
	}
	for (j = i + 1; j < f->n && nl < 3; j++)
		if (!f->bad[j])
			lo[nl++] = f->d[j];
	if (!nu || !nl)
		return 0;
	m->up = median(up, nu);
	m->lo = median(lo, nl);
	m->se = MEDIAN_SE * sqrt(su * su / (double)nu + sl * sl / (double)nl);
	/*
	 * The rows below alone where there are enough: those above may be a
	 * 3x2^n unit's, uneven.  Else the reads' own scatter: the segment's
	 * and the family's take in such uneven rows too, which then make a
	 * 3x2^n page look no surer than noise.
	 */
	for (j = 0; j < f->n; j++)
		skip[j] = j <= i || f->bad[j];
	m->sd_lo = i + 6 < f->n ? fmax(pair_scatter(f->d, f->n, skip),
				       SIGMA_MIN) : fmax(f->read_sd, SIGMA_MIN);
	m->floor = f->lvl[f->nseg - 1];
	m->under = edge_value(f, i + 1, m->up, m->lo);
	m->pos_up = edge_llr(edge_value(f, i, m->up, m->lo), m->up, su,
			     m->lo, sl);
	m->pos_lo = edge_llr(edge_value(f, i + 1, m->up, m->lo), m->lo, sl,
			     m->up, su);
	return 1;
}
