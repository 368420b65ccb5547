// SPDX-License-Identifier: GPL-2.0
/*
 * Alignment-test verdicts from one -a table: the erase block and page
 * size from the steps between the levels of its diff column.  Several
 * tables are read together in align_join.c.
 */
#include <math.h>
#include <string.h>

#include "analysis/internal.h"
#include "analysis/stats.h"
#include "lib/units.h"

/* How sure a step is: its levels this many standard errors apart. */
#define Z_MEDIUM 4.0
#define Z_HIGH 6.0
/*
 * An erase step is sure only where every level above it is this many
 * times every level below: a step between levels of like height is a
 * read-ahead edge or noise as often as a unit.
 */
#define LEVELS_APART 1.5
/*
 * A floor of two rows is two steps where the lower lies within
 * FLOOR_ZERO of the step from zero and the upper FLOOR_PARTWAY or more
 * up it (seed 000: 2.5µs and 52.5µs under 272µs).
 */
#define FLOOR_ZERO 0.05
#define FLOOR_PARTWAY 0.15
/* A lone floor row further from zero than this share of the step above
 * it may be noise. */
#define LONE_FLOOR 0.1

/* The step below level s: where it is and how sure. */
struct step {
	size_t a, b;		/* lowest row above it, highest below */
	double up, lo;		/* the levels either side */
	double z;		/* their distance in standard errors */
	double pos;		/* log-likelihood of its place, the worse
				 * edge row against a row up or down */
	int peak;		/* level s: one pasted row above both sides */
};

/*
 * The rows either side of the step below level s.  A disturbed row
 * between them sides with a level when its whole range does, else the
 * step could be at either side of it.
 */
static void step_at(const struct family *f, size_t s, int live,
		    struct step *st)
{
	size_t i, a = f->n, b = f->n;
	double mid, su, sl;

	for (i = 0; i < f->n; i++) {
		if (f->bad[i])
			continue;
		if (f->seg[i] == s)
			a = i;
		else if (f->seg[i] == s + 1 && b == f->n)
			b = i;
	}
	st->up = f->lvl[s];
	st->lo = f->lvl[s + 1];
	mid = (st->up + st->lo) / 2;
	while (a + 1 < b && f->d[a + 1] - f->w[a + 1] > mid)
		a++;
	while (b > a + 1 && f->d[b - 1] + f->w[b - 1] < mid)
		b--;
	/* a lowest row above that sits nearer the level below is below */
	if (st->up > st->lo && b == a + 1 && a > 0 && f->seg[a - 1] == s &&
	    !f->bad[a - 1] &&
	    f->d[a] - f->w[a] < mid) {
		b = a;
		a--;
	}
	st->a = a;
	st->b = b;
	st->z = (st->up - st->lo) / level_se(f, s, s + 1);
	su = f->sd[s];
	sl = f->sd[s + 1];
	st->pos = fmin(edge_llr(edge_value(f, a, st->up, st->lo), st->up, su,
				st->lo, sl),
		       edge_llr(edge_value(f, b, st->up, st->lo), st->lo, sl,
				st->up, su));
	if (b > a + 1)
		st->pos = 0;
	st->peak = !live && f->nclean[s] == 1 && s > 0 &&
		   f->lvl[s - 1] < st->up;
}

enum confidence step_sureness(double z, double pos)
{
	if (z < Z_MEDIUM || pos < POS_MEDIUM)
		return CONF_LOW;
	return z < Z_HIGH || pos < POS_HIGH ? CONF_MEDIUM : CONF_HIGH;
}

/* How sure a step makes a value, before what is particular to it. */
static enum confidence step_conf(const struct family *f, size_t s,
				 const struct step *st)
{
	enum confidence c = step_sureness(st->z, st->pos);

	if (st->peak || f->nclean[s] < 2 || f->nclean[s + 1] < 2)
		c = conf_min(c, CONF_MEDIUM);
	return c;
}

static void log_step(struct step_read *sr, const struct step *st,
		     enum confidence by_step, enum confidence c)
{
	sr->z = st->z;
	sr->pos = st->pos;
	sr->noise = c == by_step && c < CONF_HIGH;
}

/* Quote the rows on either side of a step. */
static void quote_step(char *buf, size_t len, const struct family *f,
		       const struct step *st)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN], d[UNIT_BUFLEN];

	say(buf, len, "diff %s at %s vs %s at %s", fmt_time(a, f->d[st->a]),
	    fmt_size(b, (double)f->key[st->a]), fmt_time(c, f->d[st->b]),
	    fmt_size(d, (double)f->key[st->b]));
}

/* Smallest key of level s. */
static uint64_t seg_low_key(const struct family *f, size_t s)
{
	size_t i = seg_first(f, s + 1);

	return i ? f->key[i - 1] : f->key[0];
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
void cross_check(struct verdict *v, const struct analysis_ctx *ctx)
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

static void inverted(const struct family *f, struct align_read *r)
{
	struct verdict *v = &r->erase;
	char a[UNIT_BUFLEN];
	long at = erase_step(f, 1);
	struct step st;

	if (at < 0) {
		say(v->evidence, sizeof(v->evidence),
		    "no step in diff from 128KiB to 64MiB");
		return;
	}
	step_at(f, (size_t)at, r->live, &st);
	set_value(v, f->key[st.a], CONF_LOW);
	r->ekey = v->value;
	r->estep = st.lo - st.up;
	quote_step(v->evidence, sizeof(v->evidence), f, &st);
	say(v->evidence, sizeof(v->evidence), "inverted: diff rises below %s",
	    fmt_size(a, (double)v->value));
}

/* Clean rows at the levels down to s. */
static size_t rows_above(const struct family *f, size_t s)
{
	size_t i, n = 0;

	for (i = 0; i <= s; i++)
		n += f->nclean[i];
	return n;
}

static void erase_verdict(const struct family *f, struct align_read *r)
{
	double above = INFINITY, below = -INFINITY;
	struct verdict *v = &r->erase;
	long at = erase_step(f, 0);
	enum confidence c;
	struct step st;
	size_t s;

	if (at < 0) {
		inverted(f, r);
		return;
	}
	step_at(f, (size_t)at, r->live, &st);
	for (s = 0; s < f->nseg; s++) {
		if (s <= (size_t)at)
			above = fmin(above, f->lvl[s]);
		else
			below = fmax(below, f->lvl[s]);
	}
	c = step_conf(f, (size_t)at, &st);
	/* every level above the step must clear every level below it */
	if (above <= below || above < LEVELS_APART * below)
		c = CONF_LOW;
	if (f->nseg > 4)
		c = conf_min(c, CONF_MEDIUM);
	if (f->odd != 1)
		c = conf_min(c, CONF_MEDIUM);
	/*
	 * The first rows of a run alone are no level (they may be the run
	 * warming up); crossing a boundary costs time, so a step from about
	 * nothing down to rows that read faster across it than beside it is
	 * noise.  Not a unit of 2^n bytes, whatever the places say.
	 */
	r->eveto = rows_above(f, (size_t)at) < 3 ||
		   st.up < 3 * f->sd[at] || st.lo < -2 * f->sd[at + 1];
	if (r->eveto)
		c = CONF_LOW;
	log_step(&r->es, &st, step_conf(f, (size_t)at, &st), c);
	set_value(v, f->key[st.a], c);
	r->ekey = v->value;
	r->estep = st.up - st.lo;
	r->ebelow = st.lo;
	quote_step(v->evidence, sizeof(v->evidence), f, &st);
}

/*
 * The page level: the lowest level clearly above every level under it
 * (the floor, which need not be near zero: a constant offset of ~40µs
 * is common, and a lone row of the floor may sit a little apart).
 */
static long page_level(const struct family *f)
{
	size_t s, q, top;

	for (s = f->nseg - 1; s-- > 0;) {
		for (q = top = s + 1; q < f->nseg; q++)
			if (f->lvl[q] > f->lvl[top])
				top = q;
		if (f->lvl[s] > f->lvl[top] && clear_step(f, s, top))
			return (long)s;
	}
	return -1;
}

/* Clean rows of the floor, under level pg. */
static size_t floor_rows(const struct family *f, size_t pg)
{
	size_t s, n = 0;

	for (s = pg + 1; s < f->nseg; s++)
		n += f->nclean[s];
	return n;
}

/*
 * A second, larger step at 2 or 4 times the page is a multi-plane
 * card's group of pages read at once, not the page (PLANE_SHARE); at
 * other multiples it may be a secondary page size.
 */
static void group_note(struct align_read *r, uint64_t page, uint64_t key)
{
	char a[UNIT_BUFLEN];
	uint64_t k = page ? key / page : 0;

	if (k >= 2 && k <= PLANES_MAX && !(k & (k - 1)) && key % page == 0) {
		r->pgroup = key;
		say(r->page.note, sizeof(r->page.note), "second, larger step "
		    "at %s: reads %llu pages at once (multi-plane)",
		    fmt_size(a, (double)key), (unsigned long long)k);
		return;
	}
	say(r->page.note, sizeof(r->page.note), "second step at %s "
	    "(multi-plane or secondary page size)", fmt_size(a, (double)key));
}

/*
 * A floor of two rows, the lower near zero and the upper partway up
 * (seed 000's 52.5µs at 4KiB over 2.5µs at 2KiB, 272µs above): two
 * steps; the page is the smaller, or the one above it.  Say the
 * smaller, unsure, and name the other.
 */
static void floor_edge(const struct family *f, size_t pg,
		       const struct step *st, struct align_read *r)
{
	double low = INFINITY;
	size_t i;

	for (i = st->b; i < f->n; i++)
		if (!f->bad[i])
			low = fmin(low, f->d[i]);
	if (floor_rows(f, pg) != 2 ||
	    fabs(low) > FLOOR_ZERO * (st->up - low) ||
	    f->d[st->b] - low < FLOOR_PARTWAY * (st->up - low))
		return;
	r->page.value = f->key[st->b];
	r->page.conf = CONF_LOW;
	r->pplane = 1;
	group_note(r, r->page.value, f->key[st->a]);
}

/*
 * The first k rows under the step, how far they stand above the median
 * of the (up to 3) rows under those (*stand, over *fl) and its standard
 * error (*se).  0: too few rows to tell.
 */
static int plane_gap(const struct family *f, const struct step *st,
		     size_t k, double *fl, double *stand, double *se)
{
	double top = 0, below[3];
	size_t i, m = 0, n = 0;

	for (i = st->b; i < f->n && m < k; i++) {
		if (f->bad[i])
			continue;
		top += f->d[i];
		m++;
	}
	for (; i < f->n && n < 3; i++)
		if (!f->bad[i])
			below[n++] = f->d[i];
	if (m < k || !n)
		return 0;
	*fl = median(below, n);
	*stand = top / (double)m - *fl;
	*se = f->sd[f->seg[st->b]] * sqrt(1.0 / (double)m + 1.0 / (double)n);
	return 1;
}

/*
 * The rows under the page step against the rows under those: one row
 * (a group of 2 pages) or two (of 4: both boundaries inside it) standing
 * above them (PLANE_SHARE) may be a multi-plane card's own page step,
 * which the levels took for the floor.
 */
static int plane_stands(const struct family *f, const struct step *st,
			size_t k)
{
	double fl, stand, se;

	if (!plane_gap(f, st, k, &fl, &stand, &se))
		return 0;
	return stand >= ABS_MIN && stand >= PLANE_SHARE * (st->up - fl) &&
	       stand >= PLANE_Z * se;
}

/*
 * The row under the step could hide a multi-plane card's own page step
 * in its scatter (PLANE_HIDE_Z).  A floor below zero is the scatter's
 * too: a hidden step would stand over zero.
 */
static int plane_hidden(const struct family *f, const struct step *st)
{
	double fl, stand, se;

	if (st->b >= f->n || f->bad[st->b] ||
	    !plane_gap(f, st, 1, &fl, &stand, &se))
		return 0;
	if (fl < 0) {
		stand += fl;
		fl = 0;
	}
	return stand + PLANE_HIDE_Z * se >= PLANE_SHARE * (st->up - fl);
}

static int plane_under(const struct family *f, const struct step *st)
{
	return st->b < f->n && !f->bad[st->b] &&
	       (plane_stands(f, st, 1) || plane_stands(f, st, 2));
}

/*
 * A floor standing above zero by PLANE_SHARE of the step or more:
 * an offset of the card's, or the further pages of a multi-plane group
 * whose first page lies below the smallest boundary read.
 */
static int floor_raised(const struct family *f, size_t pg,
			const struct step *st)
{
	double fl = f->lvl[f->nseg - 1];

	return floor_rows(f, pg) >= 2 && fl >= ABS_MIN &&
	       fl >= PLANE_SHARE * st->up &&
	       fl >= PLANE_Z * level_se(f, f->nseg - 1, f->nseg - 1);
}

/* A page that may be a multi-plane card's group of pages: low. */
static void plane_low(struct align_read *r)
{
	r->pplane = 1;
	r->page.conf = CONF_LOW;
}

static void floor_unsure(const struct family *f, struct align_read *r)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	plane_low(r);
	say(r->page.note, sizeof(r->page.note), "the floor under it stands "
	    "at %s, down to %s: an offset, or a smaller page read several "
	    "at a time (multi-plane)", fmt_time(a, f->lvl[f->nseg - 1]),
	    fmt_size(b, (double)f->key[f->n - 1]));
}

static void plane_unsure(const struct family *f, const struct step *st,
			 struct align_read *r)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	plane_low(r);
	say(r->page.note, sizeof(r->page.note), "diff %s at %s stands above "
	    "the floor under it: the page may be %s, read 2 at a time "
	    "(multi-plane)", fmt_time(a, f->d[st->b]),
	    fmt_size(b, (double)f->key[st->b]), b);
}

static void plane_masked(const struct family *f, const struct step *st,
			 struct align_read *r)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	plane_low(r);
	say(r->page.note, sizeof(r->page.note), "the scatter at %s (%s) "
	    "could hide a smaller page read 2 or 4 at a time (multi-plane)",
	    fmt_size(a, (double)f->key[st->b]),
	    fmt_time(b, f->sd[f->seg[st->b]]));
}

static void page_verdict(const struct family *f, struct align_read *r)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	struct verdict *v = &r->page;
	const struct verdict *erase = &r->erase;
	int erase_ok = !erase->is_null && erase->type == V_BYTES;
	long at = page_level(f);
	enum confidence c;
	struct step st;
	size_t pg;

	if (at < 0) {
		say(v->evidence, sizeof(v->evidence),
		    "no floor: diff still %s at %s, the smallest boundary",
		    fmt_time(a, f->d[f->n - 1]),
		    fmt_size(b, (double)f->key[f->n - 1]));
		return;
	}
	pg = (size_t)at;
	step_at(f, pg, r->live, &st);
	if (f->key[st.a] >= ERASE_MIN ||
	    (erase_ok && f->key[st.a] >= erase->value)) {
		say(v->evidence, sizeof(v->evidence),
		    "no page-size step below the erase-size step");
		return;
	}
	c = step_conf(f, pg, &st);
	/*
	 * a lone floor row away from zero may be noise, or a multi-plane
	 * card's own page step
	 */
	if (floor_rows(f, pg) < 2) {
		c = conf_min(c, CONF_MEDIUM);
		if (fabs(st.lo) > LONE_FLOOR * st.up) {
			c = CONF_LOW;
			r->pplane = st.lo > 0;
		}
	}
	/*
	 * A 3x2^n page is only as believable as the 3x2^n erase block of
	 * the same table that it divides.
	 */
	if (f->odd != 1)
		c = erase_ok && erase->conf >= CONF_MEDIUM &&
		    erase->value % f->key[st.a] == 0 ? conf_down(c) : CONF_LOW;
	/* a step from about nothing down to a floor below zero is noise */
	r->pveto = f->odd == 1 && (st.up < 3 * f->sd[pg] ||
				   st.lo < -2 * f->sd[pg + 1]);
	if (r->pveto)
		c = CONF_LOW;
	set_value(v, f->key[st.a], c);
	floor_edge(f, pg, &st, r);
	if (!r->pplane && plane_under(f, &st))
		plane_unsure(f, &st, r);
	if (!r->pplane && plane_hidden(f, &st))
		plane_masked(f, &st, r);
	if (!r->pplane && floor_raised(f, pg, &st))
		floor_unsure(f, r);
	log_step(&r->ps, &st, step_conf(f, pg, &st), v->conf);
	r->pkey = v->value;
	r->pstep = st.up - st.lo;
	r->plevel = st.up;
	r->pbelow = st.lo;
	quote_step(v->evidence, sizeof(v->evidence), f, &st);
	if (pg >= 1 && seg_low_key(f, pg - 1) < ERASE_MIN &&
	    f->lvl[pg - 1] > f->lvl[pg] && !r->pplane)
		group_note(r, v->value, seg_low_key(f, pg - 1));
}

/*
 * Places that step best at a multi-plane group (u->half): the row fit's
 * page a half or a quarter of it is the page, as sure as its own step;
 * else the page may be smaller than any unit they show.  1: the row
 * fit's page stands, its places say no more.
 */
static int plane_places(const struct unit_read *u, struct align_read *r)
{
	struct verdict *v = &r->page;

	/* the group the row fit saw as a second step: the page stands */
	if (r->pgroup && u->unit == r->pgroup)
		return 1;
	if (!u->half)
		return 0;
	if (!v->is_null && (v->value == u->half || 2 * v->value == u->half)) {
		if (!r->pgroup && !r->pplane)
			group_note(r, v->value, u->unit);
		return 1;
	}
	r->pplane = 1;
	return 0;
}

/* A page that may be half its value: low, whatever its places say. */
static void plane_cap(struct align_read *r)
{
	char a[UNIT_BUFLEN];

	if (!r->pplane || r->page.is_null || r->page.conf <= CONF_LOW)
		return;
	r->page.conf = CONF_LOW;
	r->ps.noise = 0;
	if (!r->page.note[0])
		say(r->page.note, sizeof(r->page.note), "its places step at "
		    "%s too: the page may be that, read 2 at a time "
		    "(multi-plane)", fmt_size(a, (double)(r->page.value / 2)));
}

/*
 * A live 2^n table: the unit its places step at (u), against the row
 * fit's v.  The averaged rows cannot tell a unit of v from one of 3v,
 * which the places tell by many rows; v or 2v they tell by one, which
 * the row fit weighs better.  Places that cannot tell leave v unsure,
 * and places sure of another unit than a sure fit make both unsure.
 */
static uint64_t by_places(const struct unit_read *u, struct verdict *v,
			  int veto, struct step_read *sr)
{
	int same = !v->is_null && (v->value == u->unit ||
				   3 * v->value == u->unit);
	enum confidence c = u->conf, pos = u->pos;

	if (c < CONF_MEDIUM || !u->unit) {
		if (v->is_null)
			return 0;
		v->conf = conf_min(v->conf, CONF_LOW);
		sr->noise = 0;
		say(v->note, sizeof(v->note), "%s", u->unit || c < CONF_MEDIUM ?
		    "its places cannot tell it from a 3x2^n unit of three "
		    "times the size" : "its places step alike");
		return 0;
	}
	if (same && v->conf > pos)
		pos = v->conf;
	c = conf_min(c, pos);
	/*
	 * A 2^n unit steps whole rows, which the row fit weighs against
	 * their scatter (a run that drifts moves whole rows too): without
	 * its step the places alone are not enough.
	 */
	if (odd_part(u->unit) == 1 && (v->value != u->unit || veto))
		c = conf_min(c, CONF_LOW);
	if (!v->is_null && !same)
		c = v->conf >= CONF_MEDIUM && c >= CONF_MEDIUM ? CONF_LOW :
		    conf_min(c, CONF_MEDIUM);
	if (v->is_null)
		v->evidence[0] = 0;
	if (c != v->conf || u->unit != v->value)
		sr->noise = 0;
	set_value(v, u->unit, c);
	say(v->evidence, sizeof(v->evidence), "%s", u->why);
	return u->unit;
}

/*
 * Places whose unit's odd multiples barely step: the page is u->wider or
 * larger, past the units they try; a smaller page is no more than low.
 */
static void wider_cap(const struct unit_read *u, struct align_read *r)
{
	struct verdict *v = &r->page;
	char a[UNIT_BUFLEN];

	if (!u->wider || v->is_null || v->value >= u->wider)
		return;
	v->conf = conf_min(v->conf, CONF_LOW);
	r->ps.noise = 0;
	say(v->note, sizeof(v->note), "places at odd multiples of it step "
	    "little: the page may be %s or larger",
	    fmt_size(a, (double)u->wider));
}

static void flat(const struct family *f, struct align_read *r)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	double lo = f->d[0], hi = f->d[0];
	size_t i;

	for (i = 1; i < f->n; i++) {
		lo = fmin(lo, f->d[i]);
		hi = fmax(hi, f->d[i]);
	}
	say(r->erase.evidence, sizeof(r->erase.evidence),
	    "flat: diff between %s and %s at every boundary",
	    fmt_time(a, lo), fmt_time(b, hi));
	memcpy(r->page.evidence, r->erase.evidence, sizeof(r->page.evidence));
}

void family_verdicts(const struct table *t, uint64_t odd,
		     struct align_read *r)
{
	struct verdict *erase = &r->erase, *page = &r->page;
	struct family *f = &r->f;
	struct unit_read pu, eu;

	memset(r, 0, sizeof(*r));
	verdict_init(erase, V_BYTES);
	verdict_init(page, V_BYTES);
	r->odd = odd;
	r->t = t;
	r->live = t->nkept > 0;
	family_read(t, odd, f);
	if (f->n < 4) {
		say(erase->evidence, sizeof(erase->evidence),
		    "too few boundaries");
		say(page->evidence, sizeof(page->evidence),
		    "too few boundaries");
		return;
	}
	if (f->nseg == 1) {
		flat(f, r);
	} else {
		erase_verdict(f, r);
		page_verdict(f, r);
	}
	/* a 2^n unit or a 3x2^n one: each place of a live run tells */
	if (odd == 1 && r->live) {
		place_units(t, f, &pu, &eu);
		r->eunit = by_places(&eu, erase, r->eveto, &r->es);
		if (!plane_places(&pu, r))
			r->punit = by_places(&pu, page, r->pveto, &r->ps);
		wider_cap(&pu, r);
	}
	plane_cap(r);
}
