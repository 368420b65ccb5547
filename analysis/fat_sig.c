// SPDX-License-Identifier: GPL-2.0
/*
 * Whether some AUs of a linear -f table stand apart from the others by
 * more than the table's own scatter: a test of significance.
 *
 * In a linear run the order of the writes never matters, so AUs of one
 * kind measure alike at every size up to noise: the jitter of each write
 * and the card's housekeeping pauses, which only ever slow a write down.
 * The model is log rate = size level + AU group offset + noise.  Cells
 * far below their AU's and their size's level are pauses and are set
 * aside; the rest give the scatter, and a t test tells how likely an
 * offset as clear as the one seen would be among AUs of one kind.  A
 * FAT area is one run of AUs, so the candidate splits are a run of AUs
 * against the rest, and the chance is multiplied by their number: the
 * table chose among them.  Each size measured adds its cells to the
 * evidence, so the chance falls (and the verdict grows surer) with every
 * size that shows the same offset.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fat_area.h"
#include "analysis/internal.h"
#include "analysis/stats.h"

/*
 * AUs of one kind differ by a few percent (an erase when another AU
 * closes, the place of a remapped block): only a difference beyond this
 * one can make an AU special.
 */
#define FAT_ALIKE	log(1.05)
/* A cell this many scatters below its fit is a pause. */
#define FAT_PAUSE	3.0
/* The standard error of the upper quartile of n normal values, in
 * sigmas over the root of n. */
#define UQ_SE		1.36

struct grid {
	size_t nr;		/* rows measured in every column */
	unsigned nc;
	double *x;		/* log rate, NAN: a pause set aside */
	double lvl[TABLE_MAXCOLS];	/* column levels */
};

static double *at(const struct grid *g, size_t i, unsigned j)
{
	return &g->x[i * g->nc + j];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of n values, reordering them. */
static double mid(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Row and column levels (the row's median, the column's upper quartile
 * against it, a few rounds), then the cells far below their fit set
 * aside as pauses.
 */
static void clean(struct grid *g)
{
	double row[TABLE_MAXCOLS], col[STATS_MAX], *r, *lv = g->lvl;
	double *a = calloc(g->nr, sizeof(*a)), m, s;
	size_t i, n = g->nr * g->nc;
	unsigned j, round;

	r = calloc(n ? n : 1, sizeof(*r));
	if (!a || !r)
		goto out;
	memset(lv, 0, sizeof(g->lvl));
	for (round = 0; round < 3; round++) {
		for (i = 0; i < g->nr; i++) {
			for (j = 0; j < g->nc; j++)
				row[j] = *at(g, i, j) - lv[j];
			a[i] = mid(row, g->nc);
		}
		for (j = 0; j < g->nc; j++) {
			for (i = 0; i < g->nr; i++)
				col[i] = *at(g, i, j) - a[i];
			lv[j] = quantile(col, g->nr, FAT_LEVEL_Q);
		}
	}
	for (i = 0; i < n; i++)
		r[i] = g->x[i] - a[i / g->nc] - lv[i % g->nc];
	m = mid(r, n);
	for (i = 0; i < n; i++)
		r[i] = fabs(g->x[i] - a[i / g->nc] - lv[i % g->nc] - m);
	/* the median absolute deviation, scaled to a normal's sigma */
	s = fmax(MAD_SD * mid(r, n), FAT_SCATTER_MIN);
	for (i = 0; i < n; i++)
		if (g->x[i] - a[i / g->nc] - lv[i % g->nc] < m - FAT_PAUSE * s)
			g->x[i] = NAN;
out:
	free(a);
	free(r);
}

/* One split of the AUs: group s against the others. */
struct split_fit {
	double d;		/* offset of s, log */
	double se;		/* its standard error */
	double df;
	double scatter;
	double gap;		/* between the groups' levels, see below */
};

/*
 * Least squares on the cells left: each row its level, group s one
 * offset in every row.  The residuals (within the groups, and of each
 * row's offset about the common one) give the scatter.
 */
static int fit(const struct grid *g, uint64_t s, struct split_fit *f)
{
	double ss = 0, w = 0, wd = 0, dr[STATS_MAX], wr[STATS_MAX];
	double sum[2], sq[2], cnt[2], mean[2], v;
	size_t i, n = 0;
	unsigned j, k;
	int df = 0;

	for (i = 0; i < g->nr; i++) {
		memset(sum, 0, sizeof(sum));
		memset(sq, 0, sizeof(sq));
		memset(cnt, 0, sizeof(cnt));
		for (j = 0; j < g->nc; j++) {
			v = *at(g, i, j);
			if (isnan(v))
				continue;
			k = (s >> j) & 1;
			sum[k] += v;
			sq[k] += v * v;
			cnt[k]++;
		}
		if (!cnt[0] || !cnt[1])
			continue;
		for (k = 0; k < 2; k++) {
			mean[k] = sum[k] / cnt[k];
			ss += fmax(sq[k] - cnt[k] * mean[k] * mean[k], 0);
			df += (int)cnt[k] - 1;
		}
		dr[n] = mean[1] - mean[0];
		wr[n] = 1 / (1 / cnt[0] + 1 / cnt[1]);
		w += wr[n];
		wd += wr[n] * dr[n];
		n++;
	}
	if (!n)
		return -1;
	f->d = wd / w;
	for (i = 0; i < n; i++)
		ss += wr[i] * (dr[i] - f->d) * (dr[i] - f->d);
	df += (int)n - 1;
	if (df < 1)
		return -1;
	f->df = df;
	f->scatter = fmax(sqrt(ss / df), FAT_SCATTER_MIN);
	f->se = f->scatter / sqrt(w);
	return 0;
}

/*
 * The gap between the levels of the slower group's fastest AU and the
 * faster group's slowest: the offset as the AUs' faster sizes show it,
 * which an AU that a run of pauses slowed does not reach.
 */
static double level_gap(const struct grid *g, uint64_t slow)
{
	double lo = INFINITY, hi = -INFINITY;
	unsigned j;

	for (j = 0; j < g->nc; j++) {
		if ((slow >> j) & 1)
			hi = fmax(hi, g->lvl[j]);
		else
			lo = fmin(lo, g->lvl[j]);
	}
	return lo - hi;
}

/*
 * The chance of an offset this clear beyond FAT_ALIKE among alike AUs:
 * in the means, and in the AUs' faster sizes (the gap between levels,
 * each an upper quartile of n sizes: 1.36 scatters over the root of n
 * for a normal), each against its own standard error.
 */
static double chance(const struct split_fit *f, size_t n)
{
	double se_gap = UQ_SE * f->scatter * sqrt(2.0 / (double)n);
	double t = fmin((fabs(f->d) - FAT_ALIKE) / f->se,
			(f->gap - FAT_ALIKE) / se_gap);

	return t > 0 ? t_tail(t, f->df) : 1;
}

static void consider(const struct grid *g, uint64_t s, struct fat_sig *out,
		     double *best, double *bound)
{
	uint64_t all = g->nc >= 64 ? ~0ULL : (1ULL << g->nc) - 1;
	struct split_fit f;
	double p;

	if (fit(g, s, &f))
		return;
	f.gap = level_gap(g, f.d < 0 ? s : all & ~s);
	*bound = fmax(*bound, fabs(f.d) + f.se *
		      t_quantile(FAT_SIG_MEDIUM / out->tests, f.df));
	p = chance(&f, g->nr);
	if (p < *best || (p == *best && fabs(f.d) / f.se > out->t)) {
		*best = p;
		out->slow = f.d < 0 ? s : all & ~s;
		out->fast = all & ~out->slow;
		out->diff = fabs(f.d);
		out->scatter = f.scatter;
		out->t = fabs(f.d) / f.se;
	}
}

void fat_sig(const struct table *t, unsigned nc, size_t nr,
	     struct fat_sig *out)
{
	struct grid g = { .nc = nc };
	double best = 1, bound = 0, v;
	size_t i;
	unsigned j, lo, hi;
	uint64_t run;

	memset(out, 0, sizeof(*out));
	out->p = 1;
	out->bound = INFINITY;
	g.x = calloc(nr * nc + 1, sizeof(*g.x));
	if (!g.x || nc < 2)
		goto out;
	for (i = 0; i < nr; i++) {
		for (j = 0; j < nc; j++) {
			v = t->rows[i].v[j];
			if (!(v > 0 && isfinite(v)))
				break;
			*at(&g, g.nr, j) = log(v);
		}
		g.nr += j == nc;
	}
	out->rows = g.nr;
	if (g.nr < 2)
		goto out;
	clean(&g);
	/*
	 * Each run of AUs against the rest, once: a run that ends at the
	 * last AU is the same split as the run before it.
	 */
	out->tests = (nc - 1) + (nc - 1) * (nc - 2) / 2;
	for (lo = 0; lo < nc; lo++) {
		for (hi = lo; hi + 1 < nc; hi++) {
			run = (hi - lo + 1 >= 64 ? ~0ULL :
			       (1ULL << (hi - lo + 1)) - 1) << lo;
			consider(&g, run, out, &best, &bound);
		}
	}
	if (bound > 0) {
		out->p = fmin(1, best * out->tests);
		out->bound = bound;
	}
out:
	free(g.x);
}
