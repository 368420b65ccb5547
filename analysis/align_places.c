// SPDX-License-Identifier: GPL-2.0
/*
 * Alignment test, each place on its own: a live -a run keeps every
 * place's reads.  A read across a boundary at offset x is slower where
 * x is a multiple of a unit of the card, the page or the erase block: at
 * a 2^n row B at or above a unit of 2^n bytes every place is, for a unit
 * of 3x2^n bytes only the places at its multiples (about a third), which
 * the averaged rows cannot tell from a smaller step.  The page and the
 * erase block are the pair of units whose multiples fit where the places
 * step best; each is as sure as the best fit with another in its stead
 * is worse.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis/internal.h"
#include "analysis/stats.h"
#include "lib/units.h"

#define MAX_CELLS (MAX_ROWS * (TABLE_MAXCOLS / 3))
#define MAX_UNITS 24
/* Log-likelihood of the best unit over the next, for medium and high. */
#define UNIT_MEDIUM 4.0
#define UNIT_HIGH 8.0
/* ...of which one row whose places all change sides gives at most this */
#define ROW_MAX 6.0
/*
 * Places a unit needs at its multiples to be more than low: a few slow
 * places line up on the multiples of some large unit by chance (another
 * program's reads), on a small device or with a large block most of all.
 */
#define UNIT_CELLS 8
/* A row seen shifted says no more than this: a hint (see llr()). */
#define HINT_MAX 1.0

/*
 * Each place's diff at each 2^n row, where it was, and how far a shift
 * of the card's baseline inside its row may have moved it (w): such a
 * row sets no level, and counts only as far as it is off by more.
 */
struct cells {
	size_t n, rows, places;
	double d[MAX_CELLS], w[MAX_CELLS];
	uint64_t x[MAX_CELLS];
	unsigned place[MAX_CELLS];
	size_t row[MAX_CELLS];	/* 0 .. rows - 1 */
	int shifted[MAX_ROWS];
	int apart[MAX_ROWS];	/* shifted for some places only */
};

static double shifted(const struct family *f, uint64_t key, int *apart)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->key[i] != key)
			continue;
		*apart = f->apart[i];
		return f->bad[i] ? f->w[i] : 0;
	}
	return INFINITY;
}

static void collect(const struct table *t, const struct family *f,
		    struct cells *c)
{
	unsigned np = t->nkept / 3, k;
	size_t i;

	c->n = c->rows = 0;
	c->places = np;
	for (i = 0; i < t->nrows && c->rows < MAX_ROWS; i++) {
		const struct table_row *r = &t->rows[i];
		int apart = 0;
		double w = shifted(f, r->key, &apart);
		double dk[TABLE_MAXCOLS], ak[TABLE_MAXCOLS];
		int gone[TABLE_MAXCOLS];

		if (odd_part(r->key) != 1 || !isfinite(w))
			continue;
		burst_places(t, r, dk, ak, gone);
		for (k = 0; k < np && c->n < MAX_CELLS; k++) {
			double d = dk[k];

			if (!isfinite(d) || gone[k])
				continue;
			c->d[c->n] = d;
			c->w[c->n] = w;
			c->row[c->n] = c->rows;
			c->place[c->n] = k;
			c->x[c->n++] = t->kept_at[k] + r->key;
		}
		c->apart[c->rows] = apart;
		c->shifted[c->rows++] = w > 0;
	}
}

/* A page p and an erase block e (0: none): the places at multiples of
 * neither, of p alone, of e, each at their median. */
struct fit {
	uint64_t p, e;
	double lvl[3];
	size_t n[3];
	double cost;
	double row[MAX_ROWS];	/* the cost of each row */
	unsigned char used[MAX_ROWS];	/* groups its places fall in */
};

/*
 * What place_units() works in: some 470 KB, too much for the stack and
 * kept off static storage so that analyze() stays reentrant.
 */
struct places_work {
	struct cells c;
	struct fit all[MAX_UNITS][MAX_UNITS];
	double g[3][MAX_CELLS], r[MAX_CELLS];	/* fit_levels() scratch */
};

static int group(uint64_t x, uint64_t p, uint64_t e)
{
	if (e && x % e == 0)
		return 2;
	return p && x % p == 0;
}

/*
 * Each group at its median, each place off by its own median distance
 * from it (a place may read slower at every row: where it lies on the
 * device, not which boundary it crosses), a few rounds of each.
 */
static void fit_levels(struct places_work *w, struct fit *f, double *off)
{
	const struct cells *c = &w->c;
	double (*g)[MAX_CELLS] = w->g, *r = w->r;
	unsigned k, round;
	size_t i, m;

	for (k = 0; k < c->places; k++)
		off[k] = 0;
	for (round = 0; round < 3; round++) {
		f->n[0] = f->n[1] = f->n[2] = 0;
		for (i = 0; i < c->n; i++) {
			if (c->w[i] > 0)
				continue;
			k = (unsigned)group(c->x[i], f->p, f->e);
			g[k][f->n[k]++] = c->d[i] - off[c->place[i]];
		}
		for (k = 0; k < 3; k++)
			f->lvl[k] = median_sorting(g[k], f->n[k]);
		for (k = 0; k < c->places; k++) {
			for (i = 0, m = 0; i < c->n; i++)
				if (c->place[i] == k && c->w[i] <= 0)
					r[m++] = c->d[i] -
						 f->lvl[group(c->x[i], f->p,
							      f->e)];
			off[k] = m ? median_sorting(r, m) : 0;
		}
	}
}

static int fit_units(struct places_work *w, uint64_t p, uint64_t e,
		     struct fit *f)
{
	const struct cells *c = &w->c;
	double off[TABLE_MAXCOLS];
	size_t i, k;

	f->p = p;
	f->e = e;
	fit_levels(w, f, off);
	/* each unit present, and slower than what it is not */
	if ((p && (f->n[1] < 3 || !(f->lvl[1] > f->lvl[0]))) ||
	    (e && (f->n[2] < 3 || !(f->lvl[2] > f->lvl[p ? 1 : 0]))) ||
	    f->n[0] < 3)
		return 0;
	f->cost = 0;
	for (k = 0; k < c->rows; k++)
		f->row[k] = f->used[k] = 0;
	for (i = 0; i < c->n; i++) {
		int grp = group(c->x[i], p, e);

		f->row[c->row[i]] += fmax(fabs(c->d[i] - off[c->place[i]] -
					       f->lvl[grp]) - c->w[i], 0);
		f->used[c->row[i]] |= 1 << grp;
	}
	for (k = 0; k < c->rows; k++)
		f->cost += f->row[k];
	return 1;
}

/* Sizes k x 2^n in [lo, hi] for k = 1 and 3, after a leading 0 (none). */
static size_t sizes(uint64_t lo, uint64_t hi, uint64_t *u)
{
	uint64_t k, x;
	size_t n = 0;

	u[n++] = 0;
	for (k = 1; k <= 3; k += 2)
		for (x = k; x <= hi && n < MAX_UNITS; x <<= 1)
			if (x >= lo)
				u[n++] = x;
	return n;
}

/*
 * How much better fit b is than a, row by row, no row more than LLR_MAX:
 * the places of one row are read together, so a shift of the card's
 * baseline moves them all.  A row whose places all change sides says
 * no more than ROW_MAX (the row fit weighs such a row better), one that
 * was seen shifted no more than a hint; a row whose places split tells
 * by the difference between them, which such a shift leaves alone,
 * unless the shift took some of its places only (their scatter showed
 * it: align_levels.c, flag_spread()).
 */
static double llr(const struct cells *c, const struct fit *b,
		  const struct fit *a, double scale)
{
	double sum = 0;
	size_t k;

	if (!isfinite(a->cost))
		return INFINITY;
	for (k = 0; k < c->rows; k++) {
		int split = (b->used[k] & (b->used[k] - 1)) ||
			    (a->used[k] & (a->used[k] - 1));
		double cap = c->shifted[k] && (!split || c->apart[k]) ?
			     HINT_MAX : split ? LLR_MAX : ROW_MAX;

		sum += fmax(fmin((a->row[k] - b->row[k]) / scale, cap), -cap);
	}
	return sum;
}

static enum confidence llr_conf(double llr)
{
	return llr >= UNIT_HIGH ? CONF_HIGH :
	       llr >= UNIT_MEDIUM ? CONF_MEDIUM : CONF_LOW;
}

/* How much slower the places at multiples of the page or erase block
 * are than the rest. */
static double step_of(const struct fit *f, int page)
{
	size_t k = page ? 1 : 2;

	return f->lvl[k] - f->lvl[k - 1 - (!page && !f->p)];
}

static void explain(char *buf, size_t len, const struct fit *f, int page)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	say(buf, len, "places at multiples of %s step by %s over the rest",
	    fmt_size(a, (double)(page ? f->p : f->e)),
	    fmt_time(b, step_of(f, page)));
}

/* The unit sizes tried: pages in pu, erase blocks in eu, each after 0. */
struct unit_sizes {
	uint64_t pu[MAX_UNITS], eu[MAX_UNITS];
	size_t np, ne;
};

/* Fit every pair of units; the best one's indices, or 0 if none fits. */
static int best_fit(struct places_work *w, const struct unit_sizes *u,
		    size_t *bi, size_t *bj)
{
	double best = INFINITY;
	size_t i, j;

	for (i = 0; i < u->np; i++) {
		for (j = 0; j < u->ne; j++) {
			struct fit *x = &w->all[i][j];

			if (!fit_units(w, u->pu[i], u->eu[j], x))
				x->cost = INFINITY;
			if (x->cost < best) {
				best = x->cost;
				*bi = i;
				*bj = j;
			}
		}
	}
	return isfinite(best);
}

/*
 * How sure the best fit's page (erase: its erase block) is: against a
 * unit of the other family or none, and against another of its own.
 */
static void judge_unit(const struct places_work *w, const struct unit_sizes *u,
		       size_t bi, size_t bj, int erase, struct unit_read *r)
{
	const struct fit *b = &w->all[bi][bj];
	/* a Laplace fit: its scale is the mean distance from the levels,
	 * no finer than a row's least scatter */
	double scale = fmax(b->cost / (double)w->c.n, SIGMA_MIN);
	double pos = INFINITY, fam = INFINITY;
	uint64_t best_u = erase ? u->eu[bj] : u->pu[bi];
	size_t i, j;

	for (i = 0; i < u->np; i++) {
		for (j = 0; j < u->ne; j++) {
			uint64_t x = erase ? u->eu[j] : u->pu[i];
			double l;

			if ((erase ? j : i) == (erase ? bj : bi))
				continue;
			l = llr(&w->c, b, &w->all[i][j], scale);
			if (x && best_u && odd_part(x) == odd_part(best_u))
				pos = fmin(pos, l);
			else
				fam = fmin(fam, l);
		}
	}
	r->unit = best_u;
	r->pos = llr_conf(pos);
	r->conf = llr_conf(fam);
	/* below what timing resolves, or on a few places, no unit */
	if (step_of(b, !erase) < ABS_MIN || b->n[erase ? 2 : 1] < UNIT_CELLS)
		r->conf = conf_min(r->conf, CONF_LOW);
}

/*
 * Places at odd multiples of half the page unit p (none of e) against
 * those at no multiple of it: on a multi-plane card the unit the places
 * step best at is the group of pages read at once, and the page's own
 * boundaries inside it step too (PLANE_SHARE).  p / 2 if they do, else 0.
 */
static uint64_t half_unit(struct places_work *w, const struct fit *b)
{
	const struct cells *c = &w->c;
	uint64_t h = b->p / 2;
	double *in = w->g[0], *out = w->g[1], scale, step;
	size_t i, ni = 0, no = 0;

	if (!b->p || b->p % 2)
		return 0;
	for (i = 0; i < c->n; i++) {
		uint64_t x = c->x[i];

		if (c->w[i] > 0 || x % b->p == 0 || (b->e && x % b->e == 0))
			continue;
		if (x % h == 0)
			in[ni++] = c->d[i];
		else
			out[no++] = c->d[i];
	}
	/* a 3x2^n unit's half falls on two places of seven or so */
	if (ni < 2 || no < 3)
		return 0;
	scale = fmax(b->cost / (double)c->n, SIGMA_MIN);
	step = median_sorting(in, ni) - median_sorting(out, no);
	if (step >= ABS_MIN && step >= PLANE_SHARE * step_of(b, 1) &&
	    step >= PLANE_Z * scale * sqrt(1.0 / (double)ni +
					   1.0 / (double)no))
		return h;
	return 0;
}

/*
 * Places at odd multiples of the page unit p against those at multiples
 * of 2p (none of e), each over the places at no multiple of p: 2p if
 * the odd ones step by less than WIDER_SHARE of the even ones, else 0.
 */
static uint64_t wider_unit(struct places_work *w, const struct fit *b)
{
	const struct cells *c = &w->c;
	uint64_t p = b->p;
	double *odd = w->g[0], *even = w->g[1], *rest = w->g[2];
	double floor_lvl, odd_step, even_step;
	size_t i, no = 0, ne = 0, nr = 0;

	if (!p)
		return 0;
	for (i = 0; i < c->n; i++) {
		uint64_t x = c->x[i];

		if (c->w[i] > 0 || (b->e && x % b->e == 0))
			continue;
		if (x % (2 * p) == 0)
			even[ne++] = c->d[i];
		else if (x % p == 0)
			odd[no++] = c->d[i];
		else
			rest[nr++] = c->d[i];
	}
	if (no < 2 || ne < 3 || nr < 3)
		return 0;
	floor_lvl = median_sorting(rest, nr);
	odd_step = median_sorting(odd, no) - floor_lvl;
	even_step = median_sorting(even, ne) - floor_lvl;
	if (even_step >= ABS_MIN && odd_step < WIDER_SHARE * even_step)
		return 2 * p;
	return 0;
}

static void read_units(struct places_work *w, const struct table *t,
		       const struct family *f, struct unit_read *page,
		       struct unit_read *erase)
{
	struct unit_sizes u;
	size_t bi = 0, bj = 0;

	collect(t, f, &w->c);
	if (w->c.n < 20)
		return;
	u.np = sizes(4 * KIB, PAGE_MAX, u.pu);
	u.ne = sizes(ERASE_MIN, ERASE_MAX, u.eu);
	if (!best_fit(w, &u, &bi, &bj))
		return;
	judge_unit(w, &u, bi, bj, 0, page);
	judge_unit(w, &u, bi, bj, 1, erase);
	page->half = half_unit(w, &w->all[bi][bj]);
	page->wider = wider_unit(w, &w->all[bi][bj]);
	if (page->unit)
		explain(page->why, sizeof(page->why), &w->all[bi][bj], 1);
	if (erase->unit)
		explain(erase->why, sizeof(erase->why), &w->all[bi][bj], 0);
}

/*
 * The page and the erase block a live 2^n table's places step at (0:
 * none fits better than no unit), each with how much better it fits
 * than any other.  0 and inconclusive where the places cannot tell
 * (and without the memory to look).
 */
void place_units(const struct table *t, const struct family *f,
		 struct unit_read *page, struct unit_read *erase)
{
	struct places_work *w;

	page->unit = erase->unit = 0;
	page->half = erase->half = 0;
	page->wider = erase->wider = 0;
	page->conf = erase->conf = CONF_INCONCLUSIVE;
	page->pos = erase->pos = CONF_INCONCLUSIVE;
	page->why[0] = erase->why[0] = 0;
	if (t->kind != TAB_ALIGN || t->nkept < 6 || t->nkept % 3 ||
	    t->nkept > TABLE_MAXCOLS)
		return;
	w = malloc(sizeof(*w));
	if (!w)
		return;
	read_units(w, t, f, page, erase);
	free(w);
}
