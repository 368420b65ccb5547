// SPDX-License-Identifier: GPL-2.0
/*
 * Several -a tables of one card read together.  A unit of 2^n bytes v
 * makes every 2^n row from v up step, and the 3x2^n rows from 3v up; a
 * unit of 3v steps the same 3x2^n rows, but only about a third of the
 * places of the 2^n rows (those at multiples of 3v), so their averaged
 * step is about a third as large.  Each step one table finds is looked
 * for in the other table, where it must be too: a unit is the one both
 * tables show at the same boundary, and the ratio of their steps tells
 * v from 3v.  Tables measured alike that agree make a verdict surer;
 * ones that disagree make it less sure.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "analysis/stats.h"
#include "lib/units.h"

/*
 * A 2^n row's step over the 3x2^n step: about 1 for a 2^n unit (0.6 at
 * the least, where a read-ahead edge lowers the rows above a zone size),
 * 1/7 to 3/7 for a 3x2^n one; told apart at SHARE_MID, and sure as far
 * as the noise keeps each from the other.
 */
#define SHARE_2N 0.6
#define SHARE_3N (3.0 / 7)
#define SHARE_MID 0.5
/* ...but at least 1/7 (one place in seven steps) */
#define SHARE_MIN 0.14
/* ...and their step there must stand this many standard errors clear. */
#define PART_Z 3.0
/* A step counts when this many standard errors (and ABS_MIN) high. */
#define SEEN_Z 4.0
/* No table may say a step is elsewhere by more than this (log). */
#define POS_EACH 2.0
/*
 * A 2^n unit's 3x2^n rows step as much as its 2^n rows: apart by more
 * than three standard errors and this share of the step, they are
 * another unit's.
 */
#define SAME_STEP 0.5

/* One candidate unit: v (2^n) or 3v, as the two tables show it. */
struct cand {
	uint64_t v;
	struct local_step m2, m3;
	double d2, d3;		/* the steps compared */
	int level;		/* they are levels over zero: a page's */
	int page;		/* a page's candidate, not an erase block's */
	int seen2, seen3;
};

static int seen(const struct local_step *m, double d)
{
	return d >= SEEN_Z * m->se && d >= ABS_MIN;
}

/* A page's rows end where the erase block's begin. */
static uint64_t limit(const struct align_read *r, int page, uint64_t none)
{
	if (!page)
		return UINT64_MAX;
	return r->erase.is_null ? none : r->ekey;
}

/*
 * The steps at v in the 2^n table and at 3v in the 3x2^n one.  A page
 * compares levels where that says less: small 3 KiB reads straddle 4
 * KiB pages unevenly, which can sink the 3x2^n rows below a page under
 * zero and inflate its step.
 */
static int measure(const struct align_read *r2, const struct align_read *r3,
		   uint64_t v, int page, struct cand *c)
{
	memset(c, 0, sizeof(*c));
	c->v = v;
	c->page = page;
	if (!measure_at(&r2->f, v, limit(r2, page, ERASE_MIN), &c->m2) ||
	    !measure_at(&r3->f, 3 * v, limit(r3, page, 3 * ERASE_MIN), &c->m3))
		return 0;
	c->d2 = c->m2.up - c->m2.lo;
	c->d3 = c->m3.up - c->m3.lo;
	if (page && c->m3.up > 0 && c->m3.up < c->d3 && c->m2.up > 0 &&
	    c->m3.up / c->m2.up < c->d3 / c->d2) {
		c->d3 = c->m3.up;
		c->d2 = c->m2.up;
		c->level = 1;
	}
	c->seen2 = seen(&c->m2, c->d2);
	c->seen3 = seen(&c->m3, c->d3);
	return 1;
}

static enum confidence pos_conf(double pos)
{
	return pos >= POS_HIGH ? CONF_HIGH :
	       pos >= POS_MEDIUM ? CONF_MEDIUM : CONF_LOW;
}

/* Standard error of the 2^n step, from the scatter of the rows below. */
static double part_se(const struct cand *c)
{
	return MEDIAN_SE * c->m2.sd_lo *
	       sqrt(1.0 / (double)c->m2.nrow + 1.0 / 3);
}

/*
 * The largest share of the 3x2^n step that a 2^n row from v up steps by:
 * about 1 for a 2^n unit, 3/7 or less for a 3x2^n one (the share of
 * places at multiples of 3v differs from row to row, so the rows are
 * read one by one, not by their level).  One row of three or more may
 * stand out (a burst, a slow AU).
 */
static double top_share(const struct cand *c)
{
	double base = c->level ? 0 : c->m2.lo, q[4];
	size_t j, n = c->m2.nrow;

	for (j = 0; j < n; j++)
		q[j] = (c->m2.row[j] - base) / c->d3;
	sort_values(q, n);
	return q[n - 1 - (n >= 3)];
}

/*
 * The 2^n step stands above the most a 3x2^n unit gives it (SHARE_3N of
 * the 3x2^n step) by z standard errors of their difference, taken where
 * a 3x2^n unit would put it: the ratio's own error, read at the ratio
 * measured, would grow with it and hold the clearest 2^n units low.
 */
static int over_3n(const struct cand *c, double z)
{
	return c->d2 - SHARE_3N * c->d3 >
	       z * hypot(c->m2.se, SHARE_3N * c->m3.se);
}

/*
 * What the pair says of candidate c: the unit (v or 3v; 0 where neither
 * table shows a step) and how sure.  places: what the 2^n table's
 * places said (1: v, 3: 3v, 0: nothing).
 */
static uint64_t decide(const struct cand *c, unsigned places,
		       enum confidence *conf)
{
	double base = c->level ? 0 : c->m2.lo, hi, s = c->m2.sd_lo / c->d3;
	double q = c->d2 / c->d3;
	double edge = (c->m2.row[0] - base) / c->d3;
	double under = (c->m2.under - base) / c->d3;
	/* the tables together rule out a step a row up, and a row down */
	double pos = fmin(c->m2.pos_up + c->m3.pos_up,
			  c->m2.pos_lo + c->m3.pos_lo);
	uint64_t unit = 0;

	*conf = CONF_LOW;
	if (!(c->seen2 || c->seen3) || !(c->d3 > 0))
		return 0;
	hi = top_share(c);
	if (c->seen2 && q > SHARE_MID) {
		/* a 2^n unit: the 2^n rows step as much */
		unit = c->v;
		*conf = over_3n(c, 3) ? CONF_HIGH :
			over_3n(c, 2) ? CONF_MEDIUM : CONF_LOW;
		/*
		 * The 3x2^n rows from 3v up are boundaries of v too: they
		 * step as much, over the rows under them or over the floor
		 * (rows under them may be slow for another unit).
		 */
		if (fmin(fabs(c->d3 - c->d2),
			 fabs(c->m3.up - c->m3.floor - c->d2)) >
		    fmax(3 * hypot(c->m2.se, c->m3.se), SAME_STEP * c->d2))
			*conf = CONF_LOW;
	} else if (c->seen3 && c->m2.nrow >= 2) {
		/* a 3x2^n unit: each 2^n row from v up steps by 1/7 to 3/7 */
		unit = 3 * c->v;
		*conf = hi + 3 * s < SHARE_2N ? CONF_HIGH :
			hi + 2 * s < SHARE_2N ? CONF_MEDIUM : CONF_LOW;
		/*
		 * Rows stepping by more, or by nothing (else the 3x2^n step
		 * may be no unit at all), the row at v not stepping, or the
		 * one under it stepping: not what a unit of 3v does.
		 */
		if (hi - 2 * s > SHARE_3N || hi + 2 * s < SHARE_MIN ||
		    hi * c->d3 < PART_Z * part_se(c) ||
		    edge + 2 * s < SHARE_MIN || under - 2 * s > SHARE_MIN)
			*conf = CONF_LOW;
		/* the 2^n rows step at a third of their places, unevenly */
		pos = fmin(c->m3.pos_up, c->m3.pos_lo);
	} else if (places) {
		/* the places can tell what the averages cannot */
		unit = places * c->v;
		*conf = CONF_MEDIUM;
	} else {
		unit = q > SHARE_MID ? c->v : 3 * c->v;
	}
	if (places && places * c->v != unit)
		*conf = CONF_LOW;
	/*
	 * A disturbed 2^n row at v leaves the rows from v up those from 2v
	 * up: the 2^n table cannot tell v from 2v, and the 3x2^n row at 3v
	 * decides alone.  A page's step is a few times the noise of a row
	 * (a card with 8KiB pages read as 4KiB at medium: its 4KiB row
	 * disturbed, its 12KiB row 9us high on a 20us step); an erase
	 * block's is tens of times it.
	 */
	if (c->page && unit == c->v && c->m2.at_bad)
		*conf = CONF_LOW;
	/* neither table may say the step is elsewhere */
	if (unit == c->v && fmin(fmin(c->m2.pos_up, c->m3.pos_up),
				 fmin(c->m2.pos_lo, c->m3.pos_lo)) < -POS_EACH)
		*conf = CONF_LOW;
	*conf = conf_min(*conf, pos_conf(pos));
	return unit;
}

static int fits(uint64_t x, int page)
{
	return page ? x <= PAGE_MAX : x >= ERASE_MIN && x <= ERASE_MAX;
}

static void quote(struct verdict *v, const struct cand *c)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	say(v->evidence, sizeof(v->evidence), "the step at %s is %.1f times "
	    "the one at %s", fmt_size(a, (double)(3 * c->v)), c->d3 / c->d2,
	    fmt_size(b, (double)c->v));
}

/* A multi-plane group either reading saw over its page: not a page. */
static int is_group(const struct align_read *r2, const struct align_read *r3,
		    uint64_t unit)
{
	return unit == r2->pgroup || unit == r3->pgroup;
}

/*
 * One unit from a 2^n reading r2 and a 3x2^n reading r3: the steps
 * either found, each looked for in the other table.
 */
static void pair(const struct align_read *r2, const struct align_read *r3,
		 int page, struct verdict *out)
{
	const struct verdict *v2 = page ? &r2->page : &r2->erase;
	const struct verdict *v3 = page ? &r3->page : &r3->erase;
	uint64_t pu = page ? r2->punit : r2->eunit;
	/* a 2^n reading alone is as sure as its places let it be */
	enum confidence alone = pu ? CONF_MEDIUM : CONF_LOW;
	uint64_t key[2] = { 0, 0 }, unit[2] = { 0, 0 };
	enum confidence conf[2] = { CONF_LOW, CONF_LOW };
	struct cand c[2];
	int ok[2] = { 0, 0 }, i, best = -1;

	verdict_init(out, V_BYTES);
	if (!v2->is_null)
		key[0] = page ? r2->pkey : r2->ekey;
	if (!v3->is_null && v3->value % 3 == 0)
		key[1] = v3->value / 3;
	if (key[1] == key[0])
		key[1] = 0;
	for (i = 0; i < 2; i++) {
		if (!key[i] || !measure(r2, r3, key[i], page, &c[i]))
			continue;
		unit[i] = decide(&c[i], pu == key[i] ? 1 :
				 pu == 3 * key[i] ? 3 : 0, &conf[i]);
		ok[i] = unit[i] && fits(unit[i], page) &&
			!(page && is_group(r2, r3, unit[i]));
		if (ok[i] && (best < 0 || conf[i] > conf[best]))
			best = i;
	}
	if (best < 0) {
		/*
		 * A 2^n step stands, unsure but where its places told its
		 * unit: the 3x2^n rows do not.
		 */
		if (!v2->is_null) {
			*out = *v2;
			out->conf = conf_min(out->conf, alone);
			say(out->evidence, sizeof(out->evidence), "the 3x2^n "
			    "rows do not tell a unit of it from one of 3 times "
			    "it");
		} else {
			say(out->evidence, sizeof(out->evidence), "no %s step "
			    "both the 2^n and the 3x2^n rows show",
			    page ? "page" : "erase");
		}
		return;
	}
	/* unsure either way: the 2^n reading stands, as sure as its places */
	if (conf[best] < CONF_MEDIUM && !v2->is_null && best) {
		*out = *v2;
		out->conf = conf_min(out->conf, alone);
		say(out->evidence, sizeof(out->evidence), "the 3x2^n rows "
		    "do not tell it");
		return;
	}
	memcpy(out->evidence, best ? v3->evidence : v2->evidence,
	       sizeof(out->evidence));
	set_value(out, unit[best], conf[best]);
	quote(out, &c[best]);
	/* the other table's own reading was elsewhere: not sure */
	if (!key[1 - best] && (best ? v2->is_null : v3->is_null))
		out->conf = conf_min(out->conf, CONF_MEDIUM);
	if (key[1 - best] && ok[1 - best] && unit[1 - best] != unit[best] &&
	    conf[1 - best] >= CONF_MEDIUM)
		out->conf = CONF_LOW;
	else if (key[1 - best])
		out->conf = conf_min(out->conf, CONF_MEDIUM);
	if (best == 0)
		memcpy(out->note, v2->note, sizeof(out->note));
	/*
	 * a page step that may be a multi-plane group's stays low: the 2^n
	 * reading's, or the 3x2^n one's where the unit is its step
	 */
	if (page && (r2->pplane || (best && r3->pplane))) {
		out->conf = conf_min(out->conf, CONF_LOW);
		memcpy(out->note, (r2->pplane ? v2 : v3)->note,
		       sizeof(out->note));
	}
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
	if (r->erase.is_null || r->eunit || r->odd != 1 || !size ||
	    odd_part(size) % 3)
		return;
	r->erase.conf = CONF_LOW;
	r->es.noise = 0;
	if (!r->punit) {
		r->page.conf = conf_min(r->page.conf, CONF_LOW);
		r->ps.noise = 0;
	}
	say(r->erase.note, sizeof(r->erase.note),
	    "the device size has a factor of 3: a 3x2^n erase block would "
	    "look the same here; try -a --blocksize=3k");
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

/*
 * Verdicts of several readings (pairs or single tables): the surest
 * wins; another as sure that agrees and shares no table with it makes
 * it surer, a sure one that disagrees makes it unsure.
 */
struct result {
	struct verdict v;
	const struct table *t2, *t3;
	const struct step_read *sr;	/* a table alone: its step */
};

/*
 * Tables alone that read the same value, each unsure for its noise only,
 * tell it together: their significances and the evidence of the step's
 * place add up.  None reading another value.
 */
static void together(struct verdict *out, const struct result *r,
		     size_t n)
{
	double z2 = 0, pos = 0;
	size_t i, m = 0;
	enum confidence c;

	for (i = 0; i < n; i++) {
		const struct verdict *v = &r[i].v;

		if (v->is_null)
			continue;
		if (v->value != out->value || !r[i].sr || !r[i].sr->noise)
			return;
		z2 += r[i].sr->z * r[i].sr->z;
		pos += r[i].sr->pos;
		m++;
	}
	c = step_sureness(sqrt(z2), pos);
	if (m < 2 || c <= out->conf)
		return;
	out->conf = c;
	say(out->evidence, sizeof(out->evidence), "%zu -a runs agree", m);
}

static int shares(const struct result *a, const struct result *b)
{
	return (a->t2 && a->t2 == b->t2) || (a->t3 && a->t3 == b->t3) ||
	       (a->t2 && a->t2 == b->t3) || (a->t3 && a->t3 == b->t2);
}

static void combine(struct verdict *out, const struct result *r, size_t n,
		    const char *what)
{
	char a[UNIT_BUFLEN];
	size_t i, best = 0;
	int raise = 0;

	for (i = 1; i < n; i++)
		if (r[i].v.conf > r[best].v.conf)
			best = i;
	*out = r[best].v;
	if (out->is_null)
		return;
	for (i = 0; i < n; i++) {
		const struct verdict *v = &r[i].v;

		if (i == best || v->is_null || v->conf < CONF_MEDIUM)
			continue;
		if (v->value == out->value) {
			raise |= !shares(&r[i], &r[best]);
			continue;
		}
		/* one of the two was misread: neither is sure */
		out->conf = CONF_LOW;
		say(out->evidence, sizeof(out->evidence),
		    "another -a table suggests %s %s", what,
		    fmt_size(a, (double)v->value));
		return;
	}
	if (raise && out->conf == CONF_MEDIUM) {
		out->conf = CONF_HIGH;
		say(out->evidence, sizeof(out->evidence),
		    "another -a run agrees");
		return;
	}
	together(out, r, n);
}

static void add(struct result *res, size_t *n, const struct verdict *v,
		const struct align_read *r2, const struct align_read *r3,
		const struct step_read *sr)
{
	res[*n].v = *v;
	res[*n].t2 = r2 ? r2->t : NULL;
	res[*n].t3 = r3 ? r3->t : NULL;
	res[*n].sr = sr;
	(*n)++;
}


static void join(struct align_read *r, size_t m,
		 const struct analysis_ctx *ctx, struct analysis *out)
{
	size_t i, j, ne = 0, np = 0, n2 = 0, n3 = 0;
	struct result *e = calloc(m * m + m, sizeof(*e));
	struct result *p = calloc(m * m + m, sizeof(*p));
	struct verdict v;

	if (!e || !p)
		goto done;
	for (i = 0; i < m; i++) {
		n2 += r[i].odd == 1;
		n3 += r[i].odd == 3;
	}
	for (i = 0; i < m; i++) {
		if (n2 && n3 && (r[i].odd == 1 || r[i].odd == 3))
			continue;
		one_family(&r[i], ctx);
		add(e, &ne, &r[i].erase, &r[i], NULL, &r[i].es);
		add(p, &np, &r[i].page, &r[i], NULL, &r[i].ps);
	}
	for (i = 0; i < m; i++) {
		for (j = 0; n2 && n3 && j < m; j++) {
			if (r[i].odd != 1 || r[j].odd != 3)
				continue;
			pair(&r[i], &r[j], 0, &v);
			add(e, &ne, &v, &r[i], &r[j], NULL);
			pair(&r[i], &r[j], 1, &v);
			add(p, &np, &v, &r[i], &r[j], NULL);
		}
	}
	combine(&out->erase_size, e, ne, "erase size");
	combine(&out->page_size, p, np, "page size");
	if (!out->erase_size.is_null)
		cross_check(&out->erase_size, ctx);
done:
	free(e);
	free(p);
}

static void read_align(const struct table *tabs, size_t n,
		       const struct analysis_ctx *ctx, struct analysis *out)
{
	struct align_read *r = calloc(2 * n, sizeof(*r));
	size_t i, m = 0;

	if (!r)
		return;
	for (i = 0; i < n; i++) {
		if (tabs[i].kind != TAB_ALIGN)
			continue;
		family_verdicts(&tabs[i], main_family(&tabs[i]), &r[m++]);
		/* a table with both families of boundaries: read both */
		if (r[m - 1].odd == 1 && family_size(&tabs[i], 3) >= 4)
			family_verdicts(&tabs[i], 3, &r[m++]);
	}
	if (m)
		join(r, m, ctx, out);
	free(r);
}

/* The erase block and the page, from every -a table. */
void family_align(const struct table *tabs, size_t n,
		  const struct analysis_ctx *ctx, struct analysis *out)
{
	struct verdict *e = &out->erase_size;
	char a[UNIT_BUFLEN];

	verdict_init(e, V_NONE);
	verdict_init(&out->page_size, V_NONE);
	read_align(tabs, n, ctx, out);
	/* a hint where -a found nothing; other tests say nothing of it */
	if (e->is_null && e->type != V_NONE && ctx && ctx->dev_size)
		say(e->evidence, sizeof(e->evidence),
		    "largest power of two dividing the device size: %s",
		    fmt_size(a, (double)(ctx->dev_size & -ctx->dev_size)));
	if (ctx && e->is_null)
		note_claims(e, ctx);
}
