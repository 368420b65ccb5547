// SPDX-License-Identifier: GPL-2.0
/*
 * Open-AU verdicts: how many AUs the card keeps open, linear and random,
 * from -O runs and sweeps.
 */
#include <math.h>
#include <stdlib.h>

#include "analysis_int.h"
#include "units.h"

#define MAX_COLS 128		/* open-AU runs looked at */

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
 * the best rate of the runs of the same test (same order, same erase
 * size) at this size.  Other tests (find-FAT, the other order) write in
 * other ways and are no reference.
 */
static double healthy_rate(const struct column *c, size_t m,
			   const struct column *self, uint64_t key)
{
	double best = NAN;
	size_t i, r;

	for (i = 0; i < m; i++) {
		const struct column *o = &c[i];

		if (o->random != self->random || o->group != self->group)
			continue;
		for (r = 0; r < o->t->nrows; r++) {
			double x = cell(o, r);

			if (o->t->rows[r].key == key && isfinite(x) &&
			    !(x <= best))
				best = x;
		}
	}
	return best;
}

static double top_rate(const struct column *c, size_t *at)
{
	double top = 0;
	size_t i;

	*at = 0;
	for (i = 0; i < c->t->nrows; i++) {
		if (cell(c, i) > top) {
			top = cell(c, i);
			*at = i;
		}
	}
	return top;
}

/* Rates halving with each halving of large writes: every write copies
 * a whole AU. */
static int halves(const struct column *c)
{
	size_t i, run = 0, at;
	double top = top_rate(c, &at);

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
 * it could be compared with collapsed too.  Its lowest such row is
 * quoted.
 */
static int drops(struct column *c)
{
	size_t i, at, low = 0;
	double top = top_rate(c, &at);

	for (i = 1; i < c->t->nrows; i++)
		if (c->t->rows[i].key >= 65536 && isfinite(cell(c, i)) &&
		    (!low || cell(c, i) < cell(c, low)))
			low = i;
	if (!low || !(cell(c, low) < 0.2 * top))
		return 0;
	c->own = 1;
	c->worst = cell(c, low);
	c->worst_key = c->t->rows[low].key;
	c->worst_ref = top;
	c->ref_key = c->t->rows[at].key;
	return 1;
}

/*
 * A run collapses when its writes (all but the whole-AU one) fall far
 * below the healthy rate: at half of the sizes below 50 %, or at two
 * below 25 % (a dip that deep is not noise), or its own large writes
 * fall apart.
 */
static void judge(struct column *c, const struct column *all, size_t m)
{
	size_t i, nk = 0, low = 0, severe = 0;

	c->worst = INFINITY;
	for (i = 1; i < c->t->nrows; i++) {
		double x = cell(c, i), ref;

		ref = healthy_rate(all, m, c, c->t->rows[i].key);
		if (!isfinite(x) || !(ref > 0))
			continue;
		nk++;
		low += x < 0.5 * ref;
		severe += x < 0.25 * ref;
		/* the big writes of a fine run may still be slow (seed 001) */
		if (i >= 2)
			c->marginal += x < 0.5 * ref ? 1 + (x < 0.25 * ref) : 0;
		if (nk == 1 || x / ref < c->worst / c->worst_ref) {
			c->worst = x;
			c->worst_ref = ref;
			c->worst_key = c->t->rows[i].key;
		}
	}
	c->collapsed = (nk && 2 * low >= nk) || severe >= 2 || halves(c);
	if (!c->collapsed || c->worst / c->worst_ref > 0.2)
		c->collapsed |= drops(c);
	/*
	 * Writes of half the erase size used still at full speed while
	 * smaller ones collapse: each of them filled a whole real AU, so
	 * the AU is smaller than the --erasesize of the run.
	 */
	c->half_ok = c->collapsed && !c->random && c->t->nrows > 2 &&
		     c->t->rows[1].key * 2 == c->t->rows[0].key &&
		     cell(c, 1) >= 0.8 * healthy_rate(all, m, c,
						      c->t->rows[1].key);
}

static void quote_column(char *buf, size_t len, const struct column *c)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], d[UNIT_BUFLEN], e[UNIT_BUFLEN];

	if (!isfinite(c->worst)) {
		say(buf, len, "N=%u %s", c->nr,
		    c->collapsed ? "collapses" : "fine");
		return;
	}
	if (c->own) {
		say(buf, len, "N=%u collapses: %s at %s, its best %s at %s",
		    c->nr, fmt_rate(a, c->worst),
		    fmt_size(b, (double)c->worst_key),
		    fmt_rate(d, c->worst_ref),
		    fmt_size(e, (double)c->ref_key));
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
			    const struct verdict *erase, struct verdict *v)
{
	struct nstate s[MAX_COLS];
	size_t ngroups, ns, i, bad;
	uint64_t group = pick_group(c, m, random, &ngroups);
	enum confidence conf;
	int mixed = 0, contra = 0;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

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
		/* one N that held is a lower bound, as is the largest */
		set_value(v, s[ns - 1].nr, s[ns - 1].show->marginal ?
			  CONF_LOW : CONF_MEDIUM);
		v->at_least = 1;
		quote_column(v->evidence, sizeof(v->evidence), s[ns - 1].show);
		say(v->evidence, sizeof(v->evidence),
		    "no collapse up to the largest N tried");
	} else if (bad == 0 && s[0].nr > 1) {
		/* the smallest N tried collapsed: fewer than that */
		set_value(v, s[0].nr - 1, CONF_MEDIUM);
		v->at_most = 1;
		quote_column(v->evidence, sizeof(v->evidence), s[0].show);
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
	/* a linear count holds for any AU that divides the erase size */
	if (bad < ns && s[bad].show->half_ok)
		say(v->note, sizeof(v->note),
		    "writes of half the erase size stay fast: the AU may be "
		    "smaller than %s", fmt_size(a, (double)group));
	/*
	 * random order in a unit of two AUs takes two random slots; even a
	 * low erase verdict that differs is reason enough to doubt it
	 */
	if (erase && !erase->is_null && erase->conf >= CONF_LOW &&
	    erase->value != group) {
		if (random)
			v->conf = CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "run with --erasesize=%s, but the erase block is %s",
		    fmt_size(a, (double)group),
		    fmt_size(b, (double)erase->value));
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

void analyze_open_au(const struct table *tabs, size_t n,
		     struct analysis *out)
{
	struct column *c = calloc(MAX_COLS, sizeof(*c));
	size_t m, i;

	verdict_init(&out->open_au_linear, V_NONE);
	verdict_init(&out->open_au_random, V_NONE);
	verdict_init(&out->min_full_speed_write, V_NONE);
	if (!c)
		return;
	m = gather(tabs, n, c);
	for (i = 0; i < m; i++)
		judge(&c[i], c, m);
	min_write_verdict(c, m, &out->min_full_speed_write);
	open_au_verdict(c, m, 0, &out->erase_size, &out->open_au_linear);
	open_au_verdict(c, m, 1, &out->erase_size, &out->open_au_random);
	free(c);
}

/* The most AUs an open-AU table wrote: its N, the largest of a sweep. */
static unsigned region_nr(const struct table *t)
{
	unsigned j, nr = t->open_au_nr;

	for (j = 0; t->kind == TAB_SWEEP && j < t->ncols; j++)
		if (t->col_nr[j] > nr)
			nr = t->col_nr[j];
	return nr ? nr : 1;
}

/*
 * The first listed AU among the n test AUs from AU first (each reaching
 * into the next with a misaligned offset: straddle), else -1.
 */
static int64_t special_in(const struct verdict *fat, uint64_t first,
			  unsigned n, int straddle)
{
	unsigned k;

	for (k = 0; k < fat->nlist; k++) {
		uint64_t a = fat->list[k];

		if (a < first || (a - first) / AU_SPACING >= n)
			continue;
		if ((a - first) % AU_SPACING <= (unsigned)straddle)
			return (int64_t)a;
	}
	return -1;
}

/*
 * Test AUs of an open-AU run (known where its offset is) that -f found
 * special: such an AU takes no open slot, so the count may be one too
 * high.  Where -f did not look at them, a region among the first AUs,
 * where FAT areas live, may hold one; either lowers the confidence.
 */
void note_fat_region(const struct table *tabs, size_t n,
		     const struct verdict *fat, const struct fat_scope *scope,
		     struct analysis *out)
{
	int noted[2] = { 0, 0 };
	size_t i;

	for (i = 0; i < n; i++) {
		const struct table *t = &tabs[i];
		struct verdict *v = t->random ? &out->open_au_random :
				    &out->open_au_linear;
		uint64_t first;
		int64_t a;
		int same;

		if ((t->kind != TAB_OPENAU && t->kind != TAB_SWEEP) ||
		    !t->has_offset || !t->erasesize || v->type == V_NONE ||
		    v->is_null || noted[t->random])
			continue;
		first = t->offset / t->erasesize;
		same = fat->type != V_NONE && scope->unit == t->erasesize;
		a = same && fat->conf >= CONF_MEDIUM ?
		    special_in(fat, first, region_nr(t),
			       t->offset % t->erasesize != 0) : -1;
		if (a >= 0) {
			say(v->note, sizeof(v->note), "its test AUs include "
			    "AU %lld, special by fat_aus: it takes no open "
			    "slot, so the count may be one too high",
			    (long long)a);
		} else if (first < FAT_AUS && !(same && first < scope->aus)) {
			say(v->note, sizeof(v->note), "its test AUs start at "
			    "AU %llu, among the first %u, where FAT areas "
			    "live: one there takes no open slot (-f shows "
			    "whether one is special)",
			    (unsigned long long)first, FAT_AUS);
		} else {
			continue;
		}
		v->conf = conf_down(v->conf);
		noted[t->random] = 1;
	}
}
