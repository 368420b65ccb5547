// SPDX-License-Identifier: GPL-2.0
/*
 * Alignment-test verdicts: the erase block and page size from the steps
 * in the diff column of -a tables.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "stats.h"
#include "units.h"

#define MAX_ROWS 64		/* boundaries of one align family */
#define MAX_SEGS 5		/* diff levels looked for, before merging */
/* Allocation groups and maxalign rows sit above any real erase block. */
#define ERASE_MAX (64ULL << 20)

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

static void claim(struct verdict *v, const char *what, uint64_t bytes,
		  const char *src)
{
	char b[UNIT_BUFLEN];

	if (bytes)
		say(v->evidence, sizeof(v->evidence), "%s %s%s%s%s %s", what,
		    fmt_size(b, (double)bytes), src ? " (" : "",
		    src ? src : "", src ? ")" : "",
		    bytes == v->value ? "agrees" : "differs");
}

/*
 * What the card and the kernel claim, each with where it came from.  Only
 * the card's own AU_SIZE raises the confidence: preferred_erase_size is
 * often the kernel's guess from the capacity (4 MiB for any card of 1 GiB
 * or more), and the queue's discard_granularity copies it.
 */
static void claims_check(struct verdict *v, const struct analysis_ctx *ctx)
{
	const char *src = ctx->preferred_erase_src;
	int card_au = ctx->au_size ? ctx->au_size == v->value :
		      src && !strcmp(src, "SSR AU_SIZE") &&
		      ctx->preferred_erase == v->value;

	note_claims(v, ctx);
	claim(v, "SSR AU_SIZE", ctx->au_size, NULL);
	claim(v, "sysfs preferred_erase_size", ctx->preferred_erase,
	      src ? src : "source unknown");
	claim(v, "discard_granularity", ctx->discard_granularity, NULL);
	if (card_au && v->conf == CONF_MEDIUM)
		v->conf = CONF_HIGH;
}

/*
 * The device size is evidence, not a test: real cards often hold a
 * number of AUs that is not whole (seed 003's 15719727104 bytes are not
 * even a multiple of 1 MiB).
 */
static void cross_check(struct verdict *v, const struct analysis_ctx *ctx)
{
	char a[UNIT_BUFLEN];
	uint64_t e = v->value, p2;

	if (!ctx)
		return;
	if (ctx->dev_size) {
		p2 = ctx->dev_size & -ctx->dev_size;
		if (ctx->dev_size % e)
			say(v->evidence, sizeof(v->evidence),
			    "device size %llu is not a multiple of it "
			    "(largest power of two dividing it: %s)",
			    (unsigned long long)ctx->dev_size,
			    fmt_size(a, (double)p2));
		else
			say(v->evidence, sizeof(v->evidence),
			    "device size is a multiple of it");
	}
	claims_check(v, ctx);
}

/* A page (64 KiB or less) read at k x 2^n boundaries steps at k x page. */
#define PAGE_MAX (64 * KIB)

/*
 * The largest clear drop at a boundary of erase-block size, or -1.  A
 * drop where a page could step (3x2^n rows put a 64 KiB page at 192 KiB)
 * yields to a clear drop above it: the erase block is the larger unit.
 */
static long erase_step(const struct family *f, int rise)
{
	double best = 0;
	long at = -1, top = -1;
	size_t s;

	for (s = 0; s + 1 < f->nseg; s++) {
		double step = f->lvl[s] - f->lvl[s + 1];
		uint64_t k = seg_low_key(f, s);

		if (rise)
			step = -step;
		if (k < ERASE_MIN || k > ERASE_MAX || step <= 0 ||
		    !clear_step(f, s, s + 1))
			continue;
		if (top < 0)
			top = (long)s;
		if (step > best) {
			best = step;
			at = (long)s;
		}
	}
	if (at >= 0 && seg_low_key(f, (size_t)at) /
	    odd_part(seg_low_key(f, (size_t)at)) <= PAGE_MAX)
		return top;
	return at;
}

static void erase_verdict(const struct family *f, struct verdict *v,
			  uint64_t odd, double *step, double *below_lvl)
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
			    "no step in diff from 128KiB to 64MiB");
			return;
		}
		set_value(v, seg_low_key(f, (size_t)at), CONF_LOW);
		*step = f->lvl[at + 1] - f->lvl[at];
		quote_step(v->evidence, sizeof(v->evidence), f, (size_t)at);
		say(v->evidence, sizeof(v->evidence),
		    "inverted: diff rises below %s", fmt_size(a, v->value));
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
	*step = f->lvl[at] - f->lvl[at + 1];
	*below_lvl = f->lvl[at + 1];
	quote_rows(v->evidence, sizeof(v->evidence), f, last);
}

/*
 * The largest distance of the floor segment's rows from its level: a
 * floor need not be near zero (a constant offset of ~40µs is common).
 */
static double floor_spread(const struct family *f, size_t fl)
{
	double m = 0;
	size_t i;

	for (i = f->start[fl]; i < f->start[fl + 1]; i++)
		m = fmax(m, fabs(f->d[i] - f->lvl[fl]));
	return m;
}

static void page_verdict(const struct family *f, struct verdict *v,
			 const struct verdict *erase, uint64_t odd,
			 double *step)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	size_t fl = f->nseg - 1, pg;
	int erase_ok = !erase->is_null && erase->type == V_BYTES;
	enum confidence c;
	double edge;

	/* the floor: no boundary effect, the lowest level by a clear step */
	if (f->nseg < 2 || f->lvl[fl - 1] <= f->lvl[fl] ||
	    f->lvl[fl - 1] - f->lvl[fl] < fmax(3 * seg_noise(f, fl),
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
	if (f->lvl[pg] - f->lvl[fl] < 4 * floor_spread(f, fl) ||
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
	/*
	 * The floor's top row partway up, or the page level's lowest row
	 * nearer the floor: the page may be the size below or above.
	 */
	edge = f->d[f->start[fl]];
	if (edge - f->lvl[fl] > 0.15 * (f->lvl[pg] - f->lvl[fl]))
		c = CONF_LOW;
	edge = f->d[f->start[fl] - 1];
	if (f->lvl[pg] - edge > 0.5 * (f->lvl[pg] - f->lvl[fl]))
		c = CONF_LOW;
	set_value(v, seg_low_key(f, pg), c);
	*step = f->lvl[pg] - f->lvl[fl];
	quote_step(v->evidence, sizeof(v->evidence), f, pg);
	if (pg >= 1 && seg_low_key(f, pg - 1) < ERASE_MIN &&
	    f->lvl[pg - 1] > f->lvl[pg])
		say(v->note, sizeof(v->note),
		    "second step at %s (multi-plane or secondary page size)",
		    fmt_size(a, (double)seg_low_key(f, pg - 1)));
}

/* One -a table read by one family of boundaries. */
struct align_read {
	struct verdict erase, page;
	double estep, pstep;	/* the diff steps they rest on */
	double plevel;		/* the page's diff level */
	uint64_t odd;		/* 1: 2^n boundaries, 3: 3x2^n */
	/* what each place told of the 2^n steps: 1 or 3 times; 0: nothing */
	unsigned emul, pmul;
};

/* A 2^n step that each place's samples tell apart from a 3x2^n one. */
static unsigned by_places(const struct table *t, struct verdict *v,
			  uint64_t hi, double below)
{
	char why[200] = "";
	unsigned m;

	if (v->is_null)
		return 0;
	m = place_multiple(t, v->value, hi, below, why, sizeof(why));
	/* a live table whose places cannot tell 2^n from 3x2^n apart */
	if (!m && t->nkept) {
		v->conf = conf_min(v->conf, CONF_LOW);
		say(v->note, sizeof(v->note), "its places cannot tell it from "
		    "a 3x2^n unit of three times the size");
	}
	if (!m)
		return 0;
	v->value *= m;
	say(v->evidence, sizeof(v->evidence), "%s", why);
	return m;
}

static void family_verdicts(const struct table *t, uint64_t odd,
			    const struct analysis_ctx *ctx,
			    struct align_read *r)
{
	struct verdict *erase = &r->erase, *page = &r->page;
	static struct family f;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	double below = 0;
	uint64_t hi;
	size_t i;

	verdict_init(erase, V_BYTES);
	verdict_init(page, V_BYTES);
	r->odd = odd;
	r->estep = r->pstep = r->plevel = 0;
	r->emul = r->pmul = 0;
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
	erase_verdict(&f, erase, odd, &r->estep, &below);
	page_verdict(&f, page, erase, odd, &r->pstep);
	r->plevel = r->pstep + f.lvl[f.nseg - 1];
	if (odd != 1) {
		if (!erase->is_null)
			cross_check(erase, ctx);
		return;
	}
	/* the page's rows end where the erase block's begin */
	hi = erase->is_null ? ERASE_MIN : erase->value;
	r->emul = by_places(t, erase, UINT64_MAX, below);
	r->pmul = by_places(t, page, hi, f.lvl[f.nseg - 1]);
	if (!erase->is_null)
		cross_check(erase, ctx);
}

static size_t family_size(const struct table *t, uint64_t odd)
{
	size_t i, n = 0;

	for (i = 0; i < t->nrows; i++)
		n += odd_part(t->rows[i].key) == odd;
	return n;
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
			struct align_read *r)
{
	struct align_read r3;

	family_verdicts(t, main_family(t), ctx, r);
	if (r->odd != 1 || !r->erase.is_null)
		return;
	/* a table mixing 2^n and 3*2^n boundaries: 12 MiB units? */
	family_verdicts(t, 3, ctx, &r3);
	if (!r3.erase.is_null)
		*r = r3;
}

/*
 * The 2^n and 3x2^n readings of one card, v2 and v3 = 3 * v2: on a
 * 3x2^n card only every third 2^n boundary is one, so the 3x2^n step is
 * three times the 2^n step; on a 2^n card every 3x2^n boundary is a 2^n
 * one too and the steps are the same.  The loser drops to low.
 */
static void read_together(struct verdict *v2, struct verdict *v3, double r)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	struct verdict *win = v3, *lose = v2;

	if (v2->is_null || v3->is_null || v3->value != 3 * v2->value ||
	    !(r > 0))
		return;
	if (r < 1.5)
		win = v2, lose = v3;
	say(win->evidence, sizeof(win->evidence),
	    "the step at %s is %.1f times the one at %s",
	    fmt_size(a, (double)v3->value), r,
	    fmt_size(b, (double)v2->value));
	lose->conf = CONF_LOW;
	if (r >= 1.5 && r < 2.2) {
		win->conf = CONF_LOW;
		return;
	}
	win->conf = conf_min(CONF_HIGH, v2->conf > v3->conf ?
			     v2->conf : v3->conf);
	if (win->conf < CONF_MEDIUM)
		win->conf = CONF_MEDIUM;
}

/*
 * 3x2^n boundaries alone cannot tell a unit of 3E from one of E: every
 * place of a 3x2^n row at or above 3E is a boundary of both.
 */
static void undecided(struct verdict *v, const char *what)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	uint64_t x = v->value;

	if (v->is_null)
		return;
	verdict_init(v, V_BYTES);
	say(v->evidence, sizeof(v->evidence), "a step at %s: the %s is %s "
	    "or %s, which 3x2^n boundaries alone cannot tell apart; try -a "
	    "--blocksize=1k", fmt_size(a, (double)x), what,
	    fmt_size(a, (double)x), fmt_size(b, (double)(x / 3)));
}

/*
 * The pages' steps, or their levels where those say less: small 3 KiB
 * reads straddle 4 KiB pages unevenly, which can sink the 3x2^n floor
 * below zero and inflate its step.
 */
static double page_ratio(const struct align_read *r2,
			 const struct align_read *r3)
{
	double s = r3->pstep / r2->pstep, l = r3->plevel / r2->plevel;

	return l > 0 && l < s ? l : s;
}

/*
 * One family alone: 3x2^n boundaries cannot tell E from 3E; 2^n
 * boundaries can where each place was kept, and otherwise the value is
 * lowered where the device size leaves room for 3E.
 */
static void one_family(struct align_read *r, const struct analysis_ctx *ctx)
{
	uint64_t size = ctx ? ctx->dev_size : 0;

	if (r->odd == 3) {
		undecided(&r->erase, "erase block");
		undecided(&r->page, "page");
		return;
	}
	if (r->erase.is_null || r->emul || r->odd != 1 || !size ||
	    odd_part(size) % 3)
		return;
	r->erase.conf = CONF_LOW;
	if (!r->pmul)
		r->page.conf = conf_min(r->page.conf, CONF_LOW);
	say(r->erase.note, sizeof(r->erase.note),
	    "the device size has a factor of 3: a 3x2^n erase block would "
	    "look the same here; try -a --blocksize=3k");
}

/* Several tables: the surest wins; a sure disagreement lowers it. */
static void combine(struct verdict *out, const struct align_read *r,
		    size_t n, int page)
{
	char a[UNIT_BUFLEN];
	size_t i, best = 0;

#define PICK(i) (page ? &r[i].page : &r[i].erase)
	for (i = 1; i < n; i++)
		if (PICK(i)->conf > PICK(best)->conf)
			best = i;
	*out = *PICK(best);
	if (out->is_null)
		return;
	for (i = 0; i < n; i++) {
		const struct verdict *v = PICK(i);

		if (i == best || v->is_null || v->value == out->value ||
		    v->conf < CONF_MEDIUM)
			continue;
		/* one of the two was misread: neither is sure */
		out->conf = CONF_LOW;
		say(out->evidence, sizeof(out->evidence),
		    "another -a table suggests %s %s",
		    page ? "page size" : "erase size",
		    fmt_size(a, (double)v->value));
	}
#undef PICK
}

void analyze_align(const struct table *tabs, size_t n,
		   const struct analysis_ctx *ctx, struct analysis *out)
{
	struct align_read *r = calloc(2 * n, sizeof(*r));
	size_t i, j, m = 0, fam[4] = { 0 };

	if (!r)
		return;
	for (i = 0; i < n; i++) {
		if (tabs[i].kind != TAB_ALIGN)
			continue;
		align_table(&tabs[i], ctx, &r[m]);
		fam[r[m].odd == 1 ? 1 : r[m].odd == 3 ? 3 : 0]++;
		m++;
		/* a table with both families of boundaries: read both */
		if (r[m - 1].odd == 1 && family_size(&tabs[i], 3) >= 4) {
			family_verdicts(&tabs[i], 3, ctx, &r[m++]);
			fam[3]++;
		}
	}
	for (i = 0; i < m; i++) {
		if (!(fam[1] && fam[3]))
			one_family(&r[i], ctx);
		for (j = 0; j < m; j++) {
			if (r[i].odd != 1 || r[j].odd != 3)
				continue;
			read_together(&r[i].erase, &r[j].erase,
				      r[j].estep / r[i].estep);
			read_together(&r[i].page, &r[j].page,
				      page_ratio(&r[i], &r[j]));
		}
	}
	if (m) {
		combine(&out->erase_size, r, m, 0);
		combine(&out->page_size, r, m, 1);
	}
	free(r);
}
