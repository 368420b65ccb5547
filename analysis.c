// SPDX-License-Identifier: GPL-2.0
/*
 * Verdicts: the conclusions an expert draws from the result tables, each
 * with a confidence and the rows it rests on.  Pure functions, no I/O.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "units.h"

#define KIB 1024ULL
/* Erase blocks are 128 KiB or larger, pages 64 KiB or smaller. */
#define ERASE_MIN (128 * KIB)
#define MAX_ROWS 64		/* boundaries of one align family */
#define MAX_SEGS 5		/* diff levels looked for, before merging */
#define MAX_COLS 128		/* open-AU runs looked at */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of n finite values; sorts a copy. */
static double median(const double *v, size_t n)
{
	double tmp[MAX_ROWS * 2];
	size_t i, m = 0;

	for (i = 0; i < n && m < sizeof(tmp) / sizeof(tmp[0]); i++)
		tmp[m++] = v[i];
	if (!m)
		return NAN;
	qsort(tmp, m, sizeof(tmp[0]), cmp_double);
	return m % 2 ? tmp[m / 2] : (tmp[m / 2 - 1] + tmp[m / 2]) / 2;
}

static void say(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append to a verdict's evidence or note, "; "-separated. */
static void say(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(buf + n, "; ", 3);
		n += 2;
	}
	if (n >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static void verdict_init(struct verdict *v, enum verdict_type type)
{
	memset(v, 0, sizeof(*v));
	v->type = type;
	v->is_null = 1;
	v->conf = CONF_INCONCLUSIVE;
}

static void set_value(struct verdict *v, uint64_t value, enum confidence c)
{
	v->is_null = 0;
	v->value = value;
	v->conf = c;
}

static enum confidence conf_down(enum confidence c)
{
	return c > CONF_LOW ? c - 1 : c;
}

static enum confidence conf_min(enum confidence a, enum confidence b)
{
	return a < b ? a : b;
}

static uint64_t odd_part(uint64_t k)
{
	while (k && !(k & 1))
		k >>= 1;
	return k;
}

/* ---- alignment test: erase block and page size ---- */

/* One family of boundaries (k * 2^n for one odd k), largest first. */
struct family {
	size_t n;
	uint64_t key[MAX_ROWS];
	double d[MAX_ROWS];
	size_t nseg;
	size_t start[MAX_SEGS + 1];	/* segment s is [start[s], start[s+1]) */
	double lvl[MAX_SEGS];
	double noise;		/* typical distance of a row from its level */
};

static void family_rows(const struct table *t, uint64_t odd,
			struct family *f)
{
	size_t i, j;

	f->n = 0;
	for (i = 0; i < t->nrows && f->n < MAX_ROWS; i++) {
		const struct table_row *r = &t->rows[i];

		if (odd_part(r->key) != odd || !isfinite(r->v[3]))
			continue;
		/* keep it sorted by descending key whatever the input order */
		for (j = f->n; j && f->key[j - 1] < r->key; j--) {
			f->key[j] = f->key[j - 1];
			f->d[j] = f->d[j - 1];
		}
		if (j && f->key[j - 1] == r->key)
			continue;
		f->key[j] = r->key;
		f->d[j] = r->v[3];
		f->n++;
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
 * Best piecewise-constant fit with k segments (least absolute error).
 * Steps are relative (1.2ms vs 1.3ms is noise, 15µs vs 0 is not), so fit
 * on a log-like scale that stays linear around zero, where diffs can be
 * negative.
 */
static void fit_levels(struct family *f, size_t k)
{
	static double cost[MAX_ROWS + 1][MAX_ROWS + 1];
	double best[MAX_SEGS + 1][MAX_ROWS + 1], t[MAX_ROWS];
	size_t from[MAX_SEGS + 1][MAX_ROWS + 1];
	size_t s, i, j, n = f->n;

	for (i = 0; i < n; i++)
		t[i] = asinh(f->d[i] / 2000.0);
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
	f->nseg = k;
	f->start[k] = n;
	for (s = k, j = n; s > 0; s--) {
		f->start[s - 1] = from[s][j];
		j = from[s][j];
	}
}

static void seg_levels(struct family *f)
{
	size_t s;

	for (s = 0; s < f->nseg; s++)
		f->lvl[s] = median(f->d + f->start[s],
				   f->start[s + 1] - f->start[s]);
}

/*
 * Noise: spread of the rows around their level.  A step counts when it
 * is well above the noise and above what timer jitter alone gives.
 */
static void estimate_noise(struct family *f)
{
	double res[MAX_ROWS];
	size_t s, i;

	for (s = 0; s < f->nseg; s++)
		for (i = f->start[s]; i < f->start[s + 1]; i++)
			res[i] = fabs(f->d[i] - f->lvl[s]);
	f->noise = fmax(1.4826 * median(res, f->n), 500.0);
}

static double seg_noise(const struct family *f, size_t s)
{
	double res[MAX_ROWS];
	size_t i, n = f->start[s + 1] - f->start[s];

	if (n < 3)
		return f->noise;
	for (i = 0; i < n; i++)
		res[i] = fabs(f->d[f->start[s] + i] - f->lvl[s]);
	return fmax(1.4826 * median(res, n), 500.0);
}

/*
 * Levels a and b of segments s and t differ clearly: by more than the
 * noise of either, and by a fifth of the larger (steps are relative).
 */
static int clear_step(const struct family *f, size_t s, size_t t)
{
	double a = f->lvl[s], b = f->lvl[t];
	double need = fmax(3 * fmax(seg_noise(f, s), seg_noise(f, t)), 3000.0);

	need = fmax(need, 0.2 * fmax(fabs(a), fabs(b)));
	return fabs(a - b) >= need;
}

static void merge_at(struct family *f, size_t s, size_t count)
{
	size_t i;

	for (i = s + 1; i + count - 1 <= f->nseg; i++)
		f->start[i] = f->start[i + count - 1];
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
			if (f->start[s + 1] - f->start[s] == 1 &&
			    !clear_step(f, s - 1, s + 1))
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

/* Smallest key of segment s: the boundary a step below it is at. */
static uint64_t seg_low_key(const struct family *f, size_t s)
{
	return f->key[f->start[s + 1] - 1];
}

/* Quote the rows on either side of a step: row i is the last above it. */
static void quote_rows(char *buf, size_t len, const struct family *f,
		       size_t i)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN], d[UNIT_BUFLEN];

	say(buf, len, "diff %s at %s vs %s at %s", fmt_time(a, f->d[i]),
	    fmt_size(b, (double)f->key[i]), fmt_time(c, f->d[i + 1]),
	    fmt_size(d, (double)f->key[i + 1]));
}

static void quote_step(char *buf, size_t len, const struct family *f,
		       size_t s)
{
	quote_rows(buf, len, f, f->start[s + 1] - 1);
}

static void cross_check(struct verdict *v, const struct analysis_ctx *ctx,
			uint64_t odd)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	uint64_t e = v->value, p2;

	if (ctx && ctx->dev_size) {
		p2 = ctx->dev_size & -ctx->dev_size;
		if (ctx->dev_size % e) {
			v->conf = odd == 1 ? conf_down(v->conf) : CONF_LOW;
			say(v->evidence, sizeof(v->evidence),
			    "device size %llu is not a multiple of it "
			    "(largest power of two dividing it: %s)",
			    (unsigned long long)ctx->dev_size,
			    fmt_size(a, (double)p2));
		} else {
			say(v->evidence, sizeof(v->evidence),
			    "device size is a multiple of it");
		}
	}
	if (ctx && ctx->preferred_erase) {
		if (ctx->preferred_erase == e && v->conf == CONF_MEDIUM)
			v->conf = CONF_HIGH;
		say(v->evidence, sizeof(v->evidence),
		    "sysfs preferred_erase_size %s%s",
		    fmt_size(b, (double)ctx->preferred_erase),
		    ctx->preferred_erase == e ? " agrees" : " differs");
	}
}

/* The largest clear drop at a boundary of erase-block size, or -1. */
static long erase_step(const struct family *f, int rise)
{
	double best = 0;
	long at = -1;
	size_t s;

	for (s = 0; s + 1 < f->nseg; s++) {
		double step = f->lvl[s] - f->lvl[s + 1];

		if (rise)
			step = -step;
		if (seg_low_key(f, s) < ERASE_MIN || step <= 0 ||
		    !clear_step(f, s, s + 1))
			continue;
		if (step > best) {
			best = step;
			at = (long)s;
		}
	}
	return at;
}

static void erase_verdict(const struct family *f, struct verdict *v,
			  const struct analysis_ctx *ctx, uint64_t odd)
{
	double above = INFINITY, below = -INFINITY, edge;
	char a[UNIT_BUFLEN];
	size_t last;
	enum confidence c;
	long at = erase_step(f, 0);
	size_t s;

	if (at < 0) {
		at = erase_step(f, 1);
		if (at < 0) {
			say(v->evidence, sizeof(v->evidence),
			    "no step in diff at 128KiB or above");
			return;
		}
		set_value(v, seg_low_key(f, (size_t)at), CONF_LOW);
		quote_step(v->evidence, sizeof(v->evidence), f, (size_t)at);
		say(v->evidence, sizeof(v->evidence),
		    "inverted: diff rises below %s", fmt_size(a, v->value));
		cross_check(v, ctx, odd);
		return;
	}
	for (s = 0; s < f->nseg; s++) {
		if (s <= (size_t)at)
			above = fmin(above, f->lvl[s]);
		else
			below = fmax(below, f->lvl[s]);
	}
	/* every level above the step must clear every level below it */
	c = CONF_HIGH;
	/* the row at the step sits between the levels: which side is it? */
	edge = f->d[f->start[at + 1] - 1];
	if (above <= below || above < 1.5 * below)
		c = CONF_LOW;
	else if (f->start[at + 1] - f->start[at] < 2 ||
		 f->start[at + 2] - f->start[at + 1] < 2 || f->nseg > 4 ||
		 fabs(edge - f->lvl[at]) > fabs(edge - f->lvl[at + 1]))
		c = CONF_MEDIUM;
	/* the row at the edge looks like the level below: the step is above */
	last = f->start[at + 1] - 1;
	if (fabs(edge - f->lvl[at]) > fabs(edge - f->lvl[at + 1]) &&
	    f->start[at + 1] - f->start[at] >= 2)
		last--;
	/* a step the rows scatter across is not yet sure */
	if (f->lvl[at] - f->lvl[at + 1] <
	    4 * fmax(seg_noise(f, (size_t)at), seg_noise(f, (size_t)at + 1)))
		c = conf_min(c, CONF_MEDIUM);
	if (odd != 1)
		c = conf_min(c, CONF_MEDIUM);
	set_value(v, f->key[last], c);
	quote_rows(v->evidence, sizeof(v->evidence), f, last);
	cross_check(v, ctx, odd);
}

/* The largest distance from zero of the rows of the floor segment. */
static double floor_spread(const struct family *f, size_t fl)
{
	double m = 0;
	size_t i;

	for (i = f->start[fl]; i < f->start[fl + 1]; i++)
		m = fmax(m, fabs(f->d[i]));
	return m;
}

static void page_verdict(const struct family *f, struct verdict *v,
			 const struct verdict *erase, uint64_t odd)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	size_t fl = f->nseg - 1, pg;
	int erase_ok = !erase->is_null && erase->type == V_BYTES;
	enum confidence c;

	/* the floor: no boundary effect, diff near zero */
	if (f->nseg < 2 || f->lvl[fl - 1] <= f->lvl[fl] ||
	    fabs(f->lvl[fl]) >= fmax(3 * seg_noise(f, fl),
				     0.1 * f->lvl[fl - 1])) {
		say(v->evidence, sizeof(v->evidence),
		    "no floor: diff still %s at %s, the smallest boundary",
		    fmt_time(a, f->d[f->n - 1]),
		    fmt_size(b, (double)f->key[f->n - 1]));
		return;
	}
	pg = fl - 1;
	if (seg_low_key(f, pg) >= ERASE_MIN ||
	    (erase_ok && seg_low_key(f, pg) >= erase->value)) {
		say(v->evidence, sizeof(v->evidence),
		    "no page-size step below the erase-size step");
		return;
	}
	c = f->start[fl + 1] - f->start[fl] >= 2 &&
	    f->start[pg + 1] - f->start[pg] >= 2 ? CONF_HIGH : CONF_MEDIUM;
	/*
	 * A page step not well clear of the floor's scatter may be noise;
	 * so may one lone floor row that is not close to zero.
	 */
	if (f->lvl[pg] < 4 * floor_spread(f, fl) ||
	    (f->start[fl + 1] - f->start[fl] < 2 &&
	     fabs(f->lvl[fl]) > 0.1 * f->lvl[pg]))
		c = CONF_LOW;
	/*
	 * A 3x2^n page is only as believable as the 3x2^n erase block of
	 * the same table that it divides.
	 */
	if (odd != 1)
		c = erase_ok && erase->conf >= CONF_MEDIUM &&
		    erase->value % seg_low_key(f, pg) == 0 ?
		    conf_down(c) : CONF_LOW;
	set_value(v, seg_low_key(f, pg), c);
	quote_step(v->evidence, sizeof(v->evidence), f, pg);
	if (pg >= 1 && seg_low_key(f, pg - 1) < ERASE_MIN &&
	    f->lvl[pg - 1] > f->lvl[pg])
		say(v->note, sizeof(v->note),
		    "second step at %s (multi-plane or secondary page size)",
		    fmt_size(a, (double)seg_low_key(f, pg - 1)));
}

static void family_verdicts(const struct table *t, uint64_t odd,
			    const struct analysis_ctx *ctx,
			    struct verdict *erase, struct verdict *page)
{
	static struct family f;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	size_t i;

	verdict_init(erase, V_BYTES);
	verdict_init(page, V_BYTES);
	family_rows(t, odd, &f);
	if (f.n < 4) {
		say(erase->evidence, sizeof(erase->evidence),
		    "too few boundaries");
		say(page->evidence, sizeof(page->evidence),
		    "too few boundaries");
		return;
	}
	fit_levels(&f, f.n < MAX_SEGS ? f.n : MAX_SEGS);
	seg_levels(&f);
	estimate_noise(&f);
	merge_levels(&f);
	if (f.nseg == 1) {
		double lo = f.d[0], hi = f.d[0];

		for (i = 1; i < f.n; i++) {
			lo = fmin(lo, f.d[i]);
			hi = fmax(hi, f.d[i]);
		}
		say(erase->evidence, sizeof(erase->evidence),
		    "flat: diff between %s and %s at every boundary",
		    fmt_time(a, lo), fmt_time(b, hi));
		memcpy(page->evidence, erase->evidence, sizeof(page->evidence));
		return;
	}
	erase_verdict(&f, erase, ctx, odd);
	page_verdict(&f, page, erase, odd);
}

/* Boundaries of one table: powers of two if there are enough, or the
 * largest family (3*2^n from --blocksize=3072, 5*2^n from 10240). */
static uint64_t main_family(const struct table *t)
{
	uint64_t odds[MAX_ROWS], best = 1;
	size_t cnt[MAX_ROWS] = { 0 }, n = 0, i, j, most = 0;

	for (i = 0; i < t->nrows; i++) {
		uint64_t o = odd_part(t->rows[i].key);

		for (j = 0; j < n && odds[j] != o; j++)
			;
		if (j == n && n == MAX_ROWS)
			continue;
		if (j == n)
			odds[n++] = o;
		cnt[j]++;
	}
	for (j = 0; j < n; j++) {
		if (odds[j] == 1 && cnt[j] >= 5)
			return 1;
		if (cnt[j] > most) {
			most = cnt[j];
			best = odds[j];
		}
	}
	return best;
}

static void align_table(const struct table *t, const struct analysis_ctx *ctx,
			struct verdict *erase, struct verdict *page)
{
	uint64_t odd = main_family(t);
	struct verdict e3, p3;

	family_verdicts(t, odd, ctx, erase, page);
	if (odd != 1 || !erase->is_null)
		return;
	/* a table mixing 2^n and 3*2^n boundaries: 12 MiB units? */
	family_verdicts(t, 3, ctx, &e3, &p3);
	if (!e3.is_null)
		*erase = e3;
}

/* Several tables: the surest wins; a sure disagreement lowers it. */
static void combine(struct verdict *out, const struct verdict *v, size_t n,
		    const char *what)
{
	char a[UNIT_BUFLEN];
	size_t i, best = 0;

	for (i = 1; i < n; i++)
		if (v[i].conf > v[best].conf)
			best = i;
	*out = v[best];
	if (out->is_null)
		return;
	for (i = 0; i < n; i++) {
		if (i == best || v[i].is_null || v[i].value == out->value ||
		    v[i].conf < CONF_MEDIUM)
			continue;
		out->conf = conf_down(out->conf);
		say(out->evidence, sizeof(out->evidence),
		    "another -a table suggests %s %s", what,
		    fmt_size(a, (double)v[i].value));
	}
}

static void analyze_align(const struct table *tabs, size_t n,
			  const struct analysis_ctx *ctx, struct analysis *out)
{
	struct verdict *e = calloc(n, sizeof(*e)), *p = calloc(n, sizeof(*p));
	size_t i, m = 0;

	if (!e || !p)
		goto out;
	for (i = 0; i < n; i++) {
		if (tabs[i].kind != TAB_ALIGN)
			continue;
		align_table(&tabs[i], ctx, &e[m], &p[m]);
		m++;
	}
	if (m) {
		combine(&out->erase_size, e, m, "erase size");
		combine(&out->page_size, p, m, "page size");
	}
out:
	free(e);
	free(p);
}

/* ---- open-AU tests: how many AUs stay open, smallest fast write ---- */

/* One open-AU run: write size -> rate, largest size first. */
struct column {
	const struct table *t;
	unsigned col;		/* value column within t */
	unsigned nr;
	int random;
	uint64_t group;		/* erase size it was run with */
	int collapsed;
	int marginal;		/* 1: a smaller size below 50 %, 2: 25 % */
	uint64_t worst_key;	/* lowest rate relative to the card's best */
	double worst, worst_ref;
};

static double cell(const struct column *c, size_t i)
{
	return c->t->rows[i].v[c->col];
}

static uint64_t table_group(const struct table *t)
{
	return t->erasesize ? t->erasesize : t->nrows ? t->rows[0].key : 0;
}

static size_t gather(const struct table *tabs, size_t n, struct column *c)
{
	size_t i, m = 0;
	unsigned j;

	for (i = 0; i < n; i++) {
		const struct table *t = &tabs[i];

		if (t->kind == TAB_OPENAU && t->open_au_nr && m < MAX_COLS) {
			c[m++] = (struct column){ .t = t, .nr = t->open_au_nr,
				.random = t->random, .group = table_group(t) };
		}
		if (t->kind != TAB_SWEEP)
			continue;
		for (j = 0; j < t->ncols && j < TABLE_MAXCOLS && m < MAX_COLS;
		     j++) {
			c[m++] = (struct column){ .t = t, .col = j,
				.nr = t->col_nr[j], .random = t->random,
				.group = table_group(t) };
		}
	}
	return m;
}

/*
 * What the card manages at this write size when nothing gets in its way:
 * the best rate any run (open-AU, sweep column, median find-FAT AU)
 * reached.
 */
static double healthy_rate(const struct table *tabs, size_t n, uint64_t key)
{
	double best = NAN;
	size_t i, r;
	unsigned j;

	for (i = 0; i < n; i++) {
		const struct table *t = &tabs[i];

		for (r = 0; r < t->nrows; r++) {
			const double *v = t->rows[r].v;
			double x = NAN;

			if (t->rows[r].key != key)
				continue;
			if (t->kind == TAB_OPENAU)
				x = v[0];
			else if (t->kind == TAB_FAT && t->ncols)
				x = median(v, t->ncols < TABLE_MAXCOLS ?
					   t->ncols : TABLE_MAXCOLS);
			for (j = 0; t->kind == TAB_SWEEP && j < t->ncols &&
			     j < TABLE_MAXCOLS; j++)
				if (isfinite(v[j]) && !(v[j] <= x))
					x = v[j];
			if (isfinite(x) && !(x <= best))
				best = x;
		}
	}
	return best;
}

/* Rates halving with each halving of large writes: every write copies
 * a whole AU. */
static int halves(const struct column *c)
{
	double top = 0;
	size_t i, run = 0;

	for (i = 0; i < c->t->nrows; i++)
		top = fmax(top, cell(c, i));
	for (i = 0; i + 1 < c->t->nrows; i++) {
		double a = cell(c, i), b = cell(c, i + 1);

		if (c->t->rows[i + 1].key >= ERASE_MIN && b <= 0.65 * a &&
		    b < 0.5 * top)
			run++;
		else
			run = 0;
		if (run >= 3)
			return 1;
	}
	return 0;
}

/*
 * A run whose own writes of 64 KiB or more (page-sized or larger on any
 * card) fall to a fifth of its best has collapsed, even when every run
 * it could be compared with collapsed too.
 */
static int drops(const struct column *c)
{
	double top = 0;
	size_t i;

	for (i = 0; i < c->t->nrows; i++)
		top = fmax(top, cell(c, i));
	for (i = 1; i < c->t->nrows; i++)
		if (c->t->rows[i].key >= 65536 && cell(c, i) < 0.2 * top)
			return 1;
	return 0;
}

/*
 * A run collapses when its writes (all but the whole-AU one) fall far
 * below the healthy rate: at half of the sizes below 50 %, or at two
 * below 25 % (a dip that deep is not noise).
 */
static void judge(struct column *c, const struct table *tabs, size_t n)
{
	size_t i, nk = 0, low = 0, severe = 0;

	c->worst = INFINITY;
	for (i = 1; i < c->t->nrows; i++) {
		double x = cell(c, i), ref;

		ref = healthy_rate(tabs, n, c->t->rows[i].key);
		if (!isfinite(x) || !(ref > 0))
			continue;
		nk++;
		low += x < 0.5 * ref;
		severe += x < 0.25 * ref;
		/* the big writes of a fine run may still be slow (seed 001) */
		if (i >= 2)
			c->marginal += x < 0.5 * ref ? 1 + (x < 0.25 * ref) : 0;
		if (x / ref < c->worst / c->worst_ref || !nk ||
		    !isfinite(c->worst)) {
			c->worst = x;
			c->worst_ref = ref;
			c->worst_key = c->t->rows[i].key;
		}
	}
	c->collapsed = (nk && 2 * low >= nk) || severe >= 2 || halves(c) ||
		       drops(c);
}

static void quote_column(char *buf, size_t len, const struct column *c)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], d[UNIT_BUFLEN];

	if (!isfinite(c->worst)) {
		say(buf, len, "N=%u %s", c->nr,
		    c->collapsed ? "collapses" : "fine");
		return;
	}
	say(buf, len, "N=%u %s: %s at %s (%.0f%% of %s)", c->nr,
	    c->collapsed ? "collapses" : "fine", fmt_rate(a, c->worst),
	    fmt_size(b, (double)c->worst_key), 100 * c->worst / c->worst_ref,
	    fmt_rate(d, c->worst_ref));
}

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
		if (!s[j].show || c[i].t->nrows > s[j].show->t->nrows)
			s[j].show = &c[i];
	}
	return ns;
}

static void open_au_verdict(const struct column *c, size_t m, int random,
			    struct verdict *v)
{
	struct nstate s[MAX_COLS];
	size_t ngroups, ns, i, bad;
	uint64_t group = pick_group(c, m, random, &ngroups);
	enum confidence conf;
	int mixed = 0, contra = 0;
	char a[UNIT_BUFLEN];

	verdict_init(v, V_COUNT);
	if (!ngroups) {
		v->type = V_NONE;
		return;
	}
	ns = by_nr(c, m, random, group, s);
	for (bad = 0; bad < ns && s[bad].bad <= s[bad].fine; bad++)
		;
	for (i = 0; i < ns; i++) {
		mixed |= s[i].fine && s[i].bad && (i + 1 == bad || i == bad);
		contra |= i > bad && s[i].bad <= s[i].fine;
	}
	if (bad == ns) {
		set_value(v, s[ns - 1].nr, ns > 1 ? CONF_MEDIUM : CONF_LOW);
		v->at_least = 1;
		quote_column(v->evidence, sizeof(v->evidence), s[ns - 1].show);
		say(v->evidence, sizeof(v->evidence),
		    "no collapse up to the largest N tried");
	} else if (bad == 0) {
		set_value(v, 0, CONF_MEDIUM);
		quote_column(v->evidence, sizeof(v->evidence), s[0].show);
	} else {
		conf = s[bad].nr == s[bad - 1].nr + 1 ? CONF_HIGH : CONF_MEDIUM;
		if (s[bad - 1].show->marginal)
			conf = s[bad - 1].show->marginal > 1 ? CONF_LOW :
			       conf_down(conf);
		set_value(v, s[bad - 1].nr, conf);
		quote_column(v->evidence, sizeof(v->evidence), s[bad - 1].show);
		quote_column(v->evidence, sizeof(v->evidence), s[bad].show);
	}
	if (mixed || contra) {
		v->conf = contra ? CONF_LOW : conf_down(v->conf);
		say(v->evidence, sizeof(v->evidence), "runs disagree");
	}
	if (ngroups > 1) {
		v->conf = conf_min(v->conf, CONF_MEDIUM);
		say(v->evidence, sizeof(v->evidence),
		    "runs with %zu erase sizes, used %s", ngroups,
		    fmt_size(a, (double)group));
	}
}

/* Lower is better: linear before random, small N, then more rows. */
static int worse_run(const struct column *a, const struct column *b)
{
	unsigned na = a->nr ? a->nr : 2, nb = b->nr ? b->nr : 2;

	if (a->random != b->random)
		return a->random > b->random;
	if (na != nb)
		return na > nb;
	return a->t->nrows < b->t->nrows;
}

static void min_write_verdict(const struct table *tabs, size_t n,
			      struct verdict *v)
{
	struct column best = { 0 }, c;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], d[UNIT_BUFLEN];
	size_t i, at = 0, dips = 0;
	double top = 0;
	int found = 0;

	verdict_init(v, V_NONE);
	for (i = 0; i < n; i++) {
		if (tabs[i].kind != TAB_OPENAU || tabs[i].nrows < 2)
			continue;
		c = (struct column){ .t = &tabs[i], .nr = tabs[i].open_au_nr,
				     .random = tabs[i].random };
		if (!found || worse_run(&best, &c))
			best = c;
		found = 1;
	}
	if (!found)
		return;
	verdict_init(v, V_BYTES);
	for (i = 0; i < best.t->nrows; i++)
		top = fmax(top, cell(&best, i));
	for (i = 0; i < best.t->nrows; i++)
		if (cell(&best, i) >= 0.8 * top)
			at = i;
	for (i = 0; i < at; i++)
		dips += !(cell(&best, i) >= 0.8 * top);
	set_value(v, best.t->rows[at].key,
		  dips ? (dips <= 2 ? CONF_MEDIUM : CONF_LOW) : CONF_HIGH);
	if (best.t->nrows < 4)
		v->conf = conf_min(v->conf, CONF_LOW);
	say(v->evidence, sizeof(v->evidence), "%s at %s is %.0f%% of best %s",
	    fmt_rate(a, cell(&best, at)), fmt_size(b, (double)v->value),
	    100 * cell(&best, at) / top, fmt_rate(d, top));
	if (at + 1 < best.t->nrows)
		say(v->evidence, sizeof(v->evidence), "%s at %s",
		    fmt_rate(a, cell(&best, at + 1)),
		    fmt_size(b, (double)best.t->rows[at + 1].key));
	else
		say(v->note, sizeof(v->note), "smallest size measured");
	say(v->evidence, sizeof(v->evidence), "%s run, N=%u",
	    best.random ? "random" : "linear", best.nr);
	if (dips)
		say(v->evidence, sizeof(v->evidence),
		    "%zu larger size%s below 80%%", dips, dips > 1 ? "s" : "");
}

static void analyze_open_au(const struct table *tabs, size_t n,
			    struct analysis *out)
{
	struct column *c = calloc(MAX_COLS, sizeof(*c));
	size_t m, i;

	verdict_init(&out->open_au_linear, V_NONE);
	verdict_init(&out->open_au_random, V_NONE);
	min_write_verdict(tabs, n, &out->min_full_speed_write);
	if (!c)
		return;
	m = gather(tabs, n, c);
	for (i = 0; i < m; i++)
		judge(&c[i], tabs, n);
	open_au_verdict(c, m, 0, &out->open_au_linear);
	open_au_verdict(c, m, 1, &out->open_au_random);
	free(c);
}

/* ---- find-FAT: AUs that behave unlike the rest ---- */

struct fat_eval {
	unsigned hits[TABLE_MAXCOLS];	/* rows where column j stands out */
	int dir[TABLE_MAXCOLS];		/* +1 faster, -1 slower */
	size_t rows, cells, odd;
};

static void fat_scan(const struct table *t, struct fat_eval *e)
{
	unsigned nc = t->ncols < TABLE_MAXCOLS ? t->ncols : TABLE_MAXCOLS, j;
	size_t i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < t->nrows; i++) {
		const double *v = t->rows[i].v;
		double m = median(v, nc);

		if (!(m > 0))
			continue;
		e->rows++;
		for (j = 0; j < nc; j++) {
			int d = v[j] < 0.75 * m ? -1 : v[j] > 1.33 * m;

			e->cells++;
			if (!d)
				continue;
			e->odd++;
			e->hits[j] += !e->dir[j] || e->dir[j] == d;
			e->dir[j] = d;
		}
	}
}

static void fat_table(const struct table *t, struct verdict *v)
{
	struct fat_eval e;
	size_t noise = 0, special = 0;
	unsigned j, nc = t->ncols < TABLE_MAXCOLS ? t->ncols : TABLE_MAXCOLS;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];

	verdict_init(v, V_LIST);
	fat_scan(t, &e);
	if (nc < 3 || e.rows < 3) {
		say(v->evidence, sizeof(v->evidence), "too few AUs or sizes");
		return;
	}
	v->is_null = 0;
	for (j = 0; j < nc; j++) {
		if (2 * e.hits[j] > e.rows) {
			v->list[v->nlist++] = j;
			special += e.hits[j];
		}
	}
	noise = e.odd - special;
	if (v->nlist) {
		j = (unsigned)v->list[0];
		v->conf = 10 * e.hits[j] >= 9 * e.rows ? CONF_HIGH : CONF_MEDIUM;
		say(v->evidence, sizeof(v->evidence),
		    "AU %u at %s: %s vs median %s; %s in %u of %zu sizes", j,
		    fmt_size(a, (double)t->rows[0].key),
		    fmt_rate(b, t->rows[0].v[j]),
		    fmt_rate(c, median(t->rows[0].v, nc)),
		    e.dir[j] < 0 ? "slower" : "faster", e.hits[j], e.rows);
	} else {
		v->conf = e.rows >= 4 ? CONF_MEDIUM : CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "no AU differs by 25%% in most of %zu sizes", e.rows);
	}
	if (20 * noise > e.cells) {
		v->conf = CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "noisy: %zu of %zu cells off by 25%%", noise, e.cells);
	}
}

static void analyze_fat(const struct table *tabs, size_t n, struct verdict *v)
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

void analyze(const struct table *tabs, size_t ntabs,
	     const struct analysis_ctx *ctx, struct analysis *out)
{
	char a[UNIT_BUFLEN];

	memset(out, 0, sizeof(*out));
	verdict_init(&out->erase_size, V_NONE);
	verdict_init(&out->page_size, V_NONE);
	analyze_align(tabs, ntabs, ctx, out);
	if (out->erase_size.is_null && ctx && ctx->dev_size) {
		if (out->erase_size.type == V_NONE)
			out->erase_size.type = V_BYTES;
		say(out->erase_size.evidence, sizeof(out->erase_size.evidence),
		    "largest power of two dividing the device size: %s",
		    fmt_size(a, (double)(ctx->dev_size & -ctx->dev_size)));
	}
	analyze_open_au(tabs, ntabs, out);
	analyze_fat(tabs, ntabs, &out->fat_aus);
}

const char *confidence_name(enum confidence c)
{
	static const char *const names[] = {
		[CONF_INCONCLUSIVE] = "inconclusive", [CONF_LOW] = "low",
		[CONF_MEDIUM] = "medium", [CONF_HIGH] = "high",
	};

	return c <= CONF_HIGH ? names[c] : "?";
}

/* ---- output ---- */

struct named {
	const char *key;
	const struct verdict *v;
};

static void names(const struct analysis *a, struct named n[6])
{
	n[0] = (struct named){ "erase_size", &a->erase_size };
	n[1] = (struct named){ "page_size", &a->page_size };
	n[2] = (struct named){ "open_au_linear", &a->open_au_linear };
	n[3] = (struct named){ "open_au_random", &a->open_au_random };
	n[4] = (struct named){ "min_full_speed_write",
			       &a->min_full_speed_write };
	n[5] = (struct named){ "fat_aus", &a->fat_aus };
}

static void value_text(const struct verdict *v, char *buf, size_t len)
{
	size_t i, n;

	if (v->is_null) {
		snprintf(buf, len, "unknown");
	} else if (v->type == V_BYTES) {
		fmt_size(buf, (double)v->value);
	} else if (v->type == V_COUNT) {
		snprintf(buf, len, "%s%llu", v->at_least ? "at least " : "",
			 (unsigned long long)v->value);
	} else if (!v->nlist) {
		snprintf(buf, len, "none");
	} else {
		for (i = 0, n = 0; i < v->nlist && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%llu", i ? "," : "",
				      (unsigned long long)v->list[i]);
	}
}

/*
 * One line per derived verdict:
 *
 *   <prefix><key>: <value> (<confidence>) -- <evidence>[; note: <note>]
 *
 * key as in the JSON; value a size ("4MiB"), a count ("6", "at least
 * 7"), an AU list ("1", "0,3", "none") or "unknown".
 */
void analysis_print(FILE *f, const struct analysis *a, const char *prefix)
{
	struct named n[6];
	char val[UNIT_BUFLEN * 4];
	size_t i;

	names(a, n);
	for (i = 0; i < 6; i++) {
		const struct verdict *v = n[i].v;

		if (v->type == V_NONE)
			continue;
		value_text(v, val, sizeof(val));
		fprintf(f, "%s%s: %s (%s) -- %s%s%s\n", prefix ? prefix : "",
			n[i].key, val, confidence_name(v->conf),
			v->evidence[0] ? v->evidence : "no evidence",
			v->note[0] ? "; note: " : "", v->note);
	}
}

/*
 * "analysis": {"<key>": {"value": ..., "confidence": ..., "evidence":
 * ..., "note": ...|null}, ...} with all six keys always present; open-AU
 * verdicts also carry "at_least".  value is null when not derivable.
 */
void analysis_json(struct json *j, const struct analysis *a)
{
	struct named n[6];
	size_t i, k;

	names(a, n);
	json_open(j, "analysis", '{');
	for (i = 0; i < 6; i++) {
		const struct verdict *v = n[i].v;
		int none = v->type == V_NONE || v->is_null;

		json_open(j, n[i].key, '{');
		if (none) {
			json_null(j, "value");
		} else if (i == 5) {
			json_open(j, "value", '[');
			for (k = 0; k < v->nlist; k++)
				json_u64(j, NULL, v->list[k]);
			json_close(j, ']');
		} else {
			json_u64(j, "value", v->value);
		}
		if (i == 2 || i == 3)
			json_bool(j, "at_least", !none && v->at_least);
		json_str(j, "confidence", confidence_name(none && v->type ==
				V_NONE ? CONF_INCONCLUSIVE : v->conf));
		json_str(j, "evidence", v->evidence[0] ? v->evidence :
			 "no table for it");
		json_str(j, "note", v->note[0] ? v->note : NULL);
		json_close(j, '}');
	}
	json_close(j, '}');
}
