// SPDX-License-Identifier: GPL-2.0
/*
 * Find-FAT verdicts: the AUs that behave unlike the rest.
 *
 * A FAT area differs from the other AUs by about the same factor at every
 * write size where the order of the writes does not matter: at every size
 * of a linear run, at one and one half AU of a --random one (one chunk, or
 * two written in order).  Below that a --random run measures something
 * else: AUs the card has no random-capable slot for collapse, and the
 * first AUs written take the slots.  A collapse marks an AU as ordinary;
 * it is never what makes an AU special.  Housekeeping pauses only ever
 * slow a write down, so the faster measurements of an AU say more about
 * it than the slower ones.
 *
 * Whether a split of a linear table stands out is a test of significance
 * (fat_sig.c); the rules below for --random tables read its two
 * moot-order rows with the rows below them.  Several runs of one card
 * are read together in fat_runs.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/fat_area.h"
#include "analysis/internal.h"
#include "analysis/stats.h"
#include "lib/units.h"

/*
 * A FAT area costs the card several times as much per page (seed 002's
 * 2nd AU writes at 3.35 M/s against 8 M/s): "no FAT area" needs a table
 * that would have shown a difference of this factor.
 */
#define FAT_LEAST	1.2
/* --random: the rows below the moot ones part a pair by this at least */
#define FAT_MIN_LINEAR	1.08
/* The two order-free rows of --random need a difference this large... */
#define FAT_MIN_RANDOM	FAT_LEAST
/* ...unless the rows below confirm it. */
#define FAT_MIN_CONFIRMED 1.15
/* AUs that differ by less than the least a confirmed area shows read
 * alike (the moot rows of --random). */
#define FAT_SAME FAT_MIN_CONFIRMED
/* Two rows of --random alone set AUs apart by this factor at least. */
#define FAT_MIN_TWO_ROWS 1.25
/*
 * Rows below the moot ones confirm a reading where this share of them
 * agree: half of two, most (CONFIRM_MOST) of more; some (CONFIRM_SOME)
 * do where the two moot rows agree at length.
 */
#define CONFIRM_HALF 0.5
#define CONFIRM_MOST 0.75
#define CONFIRM_SOME 0.25

/* One table: the columns grouped by their level where order is moot. */
struct fat_eval {
	const struct table *t;
	unsigned nc;
	size_t nr;
	uint64_t top;		/* the erase size: the largest write */
	uint64_t used;		/* columns measured where order is moot */
	uint64_t coll;		/* collapse at small random writes */
	double lvl[TABLE_MAXCOLS];	/* log rate, see levels() */
	uint64_t slow, fast;	/* split at the largest gap in level */
	double effect, spread;	/* that gap; highest level - lowest */
	double inner;		/* widest spread of levels within a group */
	double diff;		/* between the groups' median levels */
	size_t rows, sep;	/* moot-order rows; group medians in order */
	size_t later;		/* --random: rows below, for the weakest pair */
	double confirm;		/* ...and its share of them that agree */
	struct fat_sig sig;	/* linear: the significance of the split */
};

static unsigned count(uint64_t m)
{
	return (unsigned)__builtin_popcountll(m);
}

static double lx(const struct fat_eval *e, size_t i, unsigned j)
{
	double v = e->t->rows[i].v[j];

	return v > 0 && isfinite(v) ? log(v) : NAN;
}

/* A write of one or one half AU goes in the same order, random or not. */
static int moot(const struct fat_eval *e, size_t i)
{
	return !e->t->random || 2 * e->t->rows[i].key >= e->top;
}

/* Row i measured every column of m. */
static int full(const struct fat_eval *e, size_t i, uint64_t m)
{
	unsigned j;

	for (j = 0; j < e->nc; j++)
		if ((m & bit(j)) && !isfinite(lx(e, i, j)))
			return 0;
	return 1;
}

static uint64_t all_aus(const struct fat_eval *e)
{
	return e->nc >= 64 ? ~0ULL : bit(e->nc) - 1;
}

/*
 * The scatter of one measurement in the moot-order rows of --random:
 * the root mean square of what neither the row's nor the AU's level
 * explains.
 */
static double moot_scatter(const struct fat_eval *e)
{
	double row[STATS_MAX], col[TABLE_MAXCOLS], ss = 0, g = 0, r;
	size_t i, n = 0;
	unsigned j;

	memset(col, 0, sizeof(col));
	for (i = 0; i < e->nr; i++) {
		if (!moot(e, i) || !full(e, i, all_aus(e)))
			continue;
		row[i] = 0;
		for (j = 0; j < e->nc; j++) {
			row[i] += lx(e, i, j) / e->nc;
			col[j] += lx(e, i, j);
		}
		g += row[i];
		n++;
	}
	if (n < 2)
		return INFINITY;
	for (i = 0; i < e->nr; i++) {
		if (!moot(e, i) || !full(e, i, all_aus(e)))
			continue;
		for (j = 0; j < e->nc; j++) {
			r = lx(e, i, j) - row[i] - col[j] / n + g / n;
			ss += r * r;
		}
	}
	return fmax(sqrt(ss / ((n - 1) * (e->nc - 1))), FAT_SCATTER_MIN);
}

/*
 * With --random, an AU collapses when it keeps less than half of its
 * large-write rate (its best in the three largest sizes, one more than
 * the moot ones in case a pause hit both) compared with the AU that
 * keeps the most, by more than twice the scatter of a difference of two
 * measurements, in three sizes or in two next to each other.  A FAT
 * area writes at a constant cost per page and never falls behind like
 * that; a pause can make one size look so, rarely two in a row.
 */
static uint64_t collapsing(const struct fat_eval *e)
{
	double best[TABLE_MAXCOLS], keep;
	double margin = M_LN2 + 2 * M_SQRT2 * moot_scatter(e);
	unsigned n[TABLE_MAXCOLS] = { 0 }, run[TABLE_MAXCOLS] = { 0 }, j;
	uint64_t m = 0;
	size_t i;

	for (j = 0; j < e->nc; j++) {
		best[j] = -INFINITY;
		for (i = 0; i < e->nr && i < 3; i++)
			if (isfinite(lx(e, i, j)))
				best[j] = fmax(best[j], lx(e, i, j));
	}
	for (i = 0; i < e->nr; i++) {
		keep = -INFINITY;
		for (j = 0; j < e->nc; j++)
			if (isfinite(lx(e, i, j) - best[j]))
				keep = fmax(keep, lx(e, i, j) - best[j]);
		for (j = 0; j < e->nc; j++) {
			int low = !moot(e, i) &&
				  lx(e, i, j) - best[j] < keep - margin;

			n[j] += low;
			run[j] = low ? run[j] + 1 : 0;
			if (n[j] >= 3 || run[j] >= 2)
				m |= bit(j);
		}
	}
	return m;
}

static double row_max(const struct fat_eval *e, size_t i)
{
	double x = -INFINITY;
	unsigned j;

	for (j = 0; j < e->nc; j++)
		if (isfinite(lx(e, i, j)))
			x = fmax(x, lx(e, i, j));
	return x;
}

/*
 * Each column's level in the moot-order rows: the upper quartile of its
 * log rates against their rows' fastest; with --random (two rows, of one
 * chunk and of two, which run at about the same rate) the higher log
 * rate.  A pause delays a write but never speeds one up.
 */
static void levels(struct fat_eval *e)
{
	double d[TABLE_MAXCOLS][STATS_MAX], ref;
	size_t n[TABLE_MAXCOLS] = { 0 }, i;
	unsigned j;

	for (i = 0; i < e->nr; i++) {
		if (!moot(e, i))
			continue;
		ref = e->t->random ? 0 : row_max(e, i);
		for (j = 0; j < e->nc; j++)
			if (isfinite(lx(e, i, j)))
				d[j][n[j]++] = lx(e, i, j) - ref;
	}
	for (j = 0; j < e->nc; j++) {
		e->lvl[j] = quantile(d[j], n[j],
				     e->t->random ? 1 : FAT_LEVEL_Q);
		if (n[j])
			e->used |= bit(j);
	}
}

/*
 * With --random, whether the AUs of group m change alike from the first
 * moot row to the second: a rewrite may cost the card something (all
 * AUs of a kind alike), a pause hits one AU.  A lone AU must not change
 * much at all.
 */
static int steady(const struct fat_eval *e, uint64_t m)
{
	double lo = count(m) == 1 ? 0 : INFINITY, hi = -lo, d;
	size_t i, a = e->nr, b = e->nr;
	unsigned j;

	for (i = 0; i < e->nr; i++) {
		if (!moot(e, i) || !full(e, i, e->used))
			continue;
		if (a == e->nr)
			a = i;
		else
			b = i;
	}
	if (b == e->nr)
		return 1;
	for (j = 0; j < e->nc; j++) {
		if (!(m & bit(j)))
			continue;
		d = lx(e, a, j) - lx(e, b, j);
		lo = fmin(lo, d);
		hi = fmax(hi, d);
	}
	return hi - lo <= log(FAT_SAME);
}

static double group_level(const struct fat_eval *e, uint64_t m)
{
	double x[TABLE_MAXCOLS];
	size_t n = 0;
	unsigned j;

	for (j = 0; j < e->nc; j++)
		if (m & bit(j))
			x[n++] = e->lvl[j];
	return median(x, n);
}

/* The used columns cut in two at the widest gap between their levels. */
static void split(struct fat_eval *e)
{
	unsigned order[TABLE_MAXCOLS], n = 0, j, k;

	for (j = 0; j < e->nc; j++) {
		if (!(e->used & bit(j)))
			continue;
		for (k = n; k && e->lvl[order[k - 1]] > e->lvl[j]; k--)
			order[k] = order[k - 1];
		order[k] = j;
		n++;
	}
	if (n < 2)
		return;
	e->spread = e->lvl[order[n - 1]] - e->lvl[order[0]];
	for (k = 0; k + 1 < n; k++) {
		double g = e->lvl[order[k + 1]] - e->lvl[order[k]];

		if (g > e->effect) {
			e->effect = g;
			e->slow = 0;
			for (j = 0; j <= k; j++)
				e->slow |= bit(order[j]);
		}
	}
	if (!e->slow)
		return;		/* all alike */
	e->fast = e->used & ~e->slow;
	k = count(e->slow);
	e->inner = fmax(e->lvl[order[k - 1]] - e->lvl[order[0]],
			e->lvl[order[n - 1]] - e->lvl[order[k]]);
	e->diff = group_level(e, e->fast) - group_level(e, e->slow);
}

/* The median rate of a group's AUs in row i. */
static double group_rate(const struct fat_eval *e, size_t i, uint64_t m)
{
	double r[TABLE_MAXCOLS];
	size_t n = 0;
	unsigned j;

	for (j = 0; j < e->nc; j++)
		if (m & bit(j))
			r[n++] = e->t->rows[i].v[j];
	return median(r, n);
}

/* Rows below the moot ones in which AU j is slower than k by min. */
static size_t wins(const struct fat_eval *e, unsigned j, unsigned k,
		   double min)
{
	size_t i, n = 0;

	for (i = 0; i < e->nr; i++)
		n += !moot(e, i) && lx(e, i, k) - lx(e, i, j) > min;
	return n;
}

/* Rows below the moot ones that measured AUs j and k. */
static size_t both(const struct fat_eval *e, unsigned j, unsigned k)
{
	size_t i, n = 0;

	for (i = 0; i < e->nr; i++)
		n += !moot(e, i) && full(e, i, bit(j) | bit(k));
	return n;
}

/*
 * How the split holds up row by row: in the moot-order rows, how often
 * the slow group is below the fast one.  With --random, pair by pair of
 * a slow and a fast AU (a pause in one AU spoils one pair, not the row),
 * the rows below them where neither AU of the pair collapses, and how
 * often the pair still parts by half the gap or more (the weakest pair's
 * share of later): a FAT area keeps its difference there unless the
 * card's handling of random writes costs the others about as much, so
 * they confirm but never refute.
 */
static void support(struct fat_eval *e)
{
	double min = fmax(log(FAT_MIN_LINEAR), e->effect / 2);
	unsigned j, k;
	size_t i, w, n;
	int first = 1;

	for (i = 0; i < e->nr; i++) {
		if (!moot(e, i) || !full(e, i, e->used))
			continue;
		e->rows++;
		if (e->slow)
			e->sep += group_rate(e, i, e->slow) <
				  group_rate(e, i, e->fast);
	}
	for (j = 0; j < e->nc && e->rows && e->t->random; j++) {
		if (!(e->slow & bit(j)))
			continue;
		for (k = 0; k < e->nc; k++) {
			if (!(e->fast & bit(k)) || (e->coll & (bit(j) | bit(k))))
				continue;
			n = both(e, j, k);
			w = wins(e, j, k, min);
			if (first || !n || (double)w / n < e->confirm) {
				e->later = n;
				e->confirm = n ? (double)w / n : 0;
			}
			first = 0;
		}
	}
}

static int contiguous(uint64_t m)
{
	if (!m)
		return 0;
	m >>= __builtin_ctzll(m);
	return !(m & (m + 1));
}

/* "0,1": the AUs of a mask. */
static const char *aus(char *buf, size_t len, uint64_t m)
{
	size_t n = 0;
	unsigned j;

	buf[0] = '\0';
	for (j = 0; j < TABLE_MAXCOLS && n < len; j++)
		if (m & bit(j))
			n += snprintf(buf + n, len - n, "%s%u", n ? "," : "",
				      j);
	return buf;
}

static const char *au_word(uint64_t m)
{
	return count(m) > 1 ? "AUs" : "AU";
}

static size_t first_row(const struct fat_eval *e, uint64_t m)
{
	size_t i;

	for (i = 0; i < e->nr; i++)
		if (isfinite(group_rate(e, i, m)))
			return i;
	return 0;
}

static const char *where(const struct fat_eval *e)
{
	return e->t->random ? " at writes of one and one half AU, where "
			      "the order does not matter" : "";
}

static void say_collapse(const struct fat_eval *e, struct verdict *v)
{
	char l[TABLE_MAXCOLS * 4];

	if (e->coll)
		say(v->evidence, sizeof(v->evidence),
		    "%s %s collapse%s at small random writes: the card's "
		    "random-capable slots ran out, not FAT", au_word(e->coll),
		    aus(l, sizeof(l), e->coll), count(e->coll) > 1 ? "" : "s");
}

/*
 * --random: pauses can hide a FAT area in the two moot-order rows (its
 * AUs unpaused, the others slowed in both).  A FAT area keeps its own
 * cost per page in any order, so it would stand apart below them too:
 * whether some AU writes FAT_LEAST below all the others, or above them,
 * in a third of the rows below the moot ones and in two of them (one of
 * three or fewer), or there are fewer than two such rows.  Pauses land
 * on any AU: two of seven or more rows on one AU, or one slow and one
 * fast, are chance (random -f of --cards 300 at seeds 1/3/7: 9, 10 and
 * 8 more right, none more wrong).
 */
static int steady_apart(size_t out, size_t n)
{
	return out && 3 * out >= n && (out >= 2 || n <= 3);
}

static int apart_below(const struct fat_eval *e)
{
	double lo, hi, x;
	size_t slow[TABLE_MAXCOLS] = { 0 }, fast[TABLE_MAXCOLS] = { 0 };
	size_t i, n = 0;
	unsigned j, k;

	for (i = 0; i < e->nr; i++) {
		if (moot(e, i) || !full(e, i, e->used))
			continue;
		n++;
		for (j = 0; j < e->nc; j++) {
			if (!(e->used & bit(j)))
				continue;
			lo = INFINITY;
			hi = -INFINITY;
			for (k = 0; k < e->nc; k++) {
				if (k == j || !(e->used & bit(k)))
					continue;
				lo = fmin(lo, lx(e, i, k));
				hi = fmax(hi, lx(e, i, k));
			}
			x = lx(e, i, j);
			slow[j] += x < lo - log(FAT_LEAST);
			fast[j] += x > hi + log(FAT_LEAST);
		}
	}
	for (j = 0; j < e->nc; j++)
		if (steady_apart(slow[j], n) || steady_apart(fast[j], n))
			return 1;
	return n < 2;	/* too few rows to bear anything out */
}

/*
 * Linear: no split stands out, and none can differ by FAT_LEAST at
 * medium confidence, given the scatter and the sizes measured.
 */
static void read_none_linear(const struct fat_eval *e, struct fat_read *r)
{
	r->kind = FAT_NONE;
	r->v.is_null = 0;
	r->v.conf = e->sig.bound < log(FAT_LEAST) ? CONF_MEDIUM : CONF_LOW;
	say(r->v.evidence, sizeof(r->v.evidence),
	    "no AU stands apart from the others beyond the scatter "
	    "(%.0f%%) in %zu sizes; %s", 100 * (exp(e->sig.scatter) - 1),
	    e->sig.rows, r->v.conf == CONF_MEDIUM ?
	    "none can differ by as much as a FAT area" :
	    "too noisy to rule out a FAT area");
}

static void read_none_random(const struct fat_eval *e, struct fat_read *r)
{
	double lim = FAT_MIN_RANDOM;
	int apart = apart_below(e);

	r->kind = FAT_NONE;
	r->v.is_null = 0;
	r->v.conf = e->rows >= 2 && e->spread < log(lim) && !apart ?
		    CONF_MEDIUM : CONF_LOW;
	if (e->spread >= log(lim))
		say(r->v.evidence, sizeof(r->v.evidence),
		    "AUs differ by up to %.0f%%%s, but not consistently in "
		    "%zu sizes", 100 * (exp(e->spread) - 1), where(e),
		    e->rows);
	else
		say(r->v.evidence, sizeof(r->v.evidence),
		    "no AU differs by %.0f%% from the others in %zu sizes%s%s",
		    100 * (lim - 1), e->rows, where(e), apart ?
		    ", but the smaller random writes do not bear it out" : "");
	say_collapse(e, &r->v);
}

/*
 * Which group is special: the one without the AUs that collapse (*cue
 * 1; 2 where no other AU keeps its speed either), else the smaller,
 * else the one that is a run of AUs while the other is not (a FAT area
 * is one).  0: either may be.
 */
static uint64_t special(const struct fat_eval *e, int *cue)
{
	uint64_t cs = e->coll & e->slow, cf = e->coll & e->fast, s;

	*cue = 0;
	if ((cs != 0) != (cf != 0)) {
		s = cs ? e->fast : e->slow;
		*cue = s == (e->used & ~e->coll) ? 2 : 1;
		return s;
	}
	if (count(e->slow) != count(e->fast))
		return count(e->slow) < count(e->fast) ? e->slow : e->fast;
	if (contiguous(e->slow) != contiguous(e->fast))
		return contiguous(e->slow) ? e->slow : e->fast;
	return 0;
}

/*
 * With --random, whether the AUs of group m stay alike in the rows below
 * the moot ones, as AUs of one kind do: a FAT area's AUs all write at its
 * constant cost, where one ordinary AU that merely looked like them in
 * two paused rows would go its own way.
 */
static int alike(const struct fat_eval *e, uint64_t m)
{
	double d[STATS_MAX];
	unsigned j, k;
	size_t i, n;

	for (j = 0; j < e->nc; j++) {
		for (k = j + 1; (m & bit(j)) && k < e->nc; k++) {
			if (!(m & bit(k)))
				continue;
			for (i = 0, n = 0; i < e->nr; i++)
				if (!moot(e, i) && full(e, i, bit(j) | bit(k)))
					d[n++] = lx(e, i, j) - lx(e, i, k);
			if (n >= 2 && fabs(median(d, n)) > log(FAT_SAME))
				return 0;
		}
	}
	return 1;
}

/* At least n rows below the moot ones, at least half (n > 2: 3/4) agree. */
static int confirmed(const struct fat_eval *e, size_t n)
{
	return e->later >= n &&
	       e->confirm >= (n > 2 ? CONFIRM_MOST : CONFIRM_HALF);
}

static int significant(const struct fat_eval *e)
{
	if (e->t->random)
		return e->sep && ((e->effect >= log(FAT_MIN_RANDOM) &&
				   e->effect > e->inner) ||
				  (e->effect >= log(FAT_MIN_CONFIRMED) &&
				   confirmed(e, 3)));
	return e->sig.p < FAT_SIG_WEAK;
}

static enum confidence set_conf(const struct fat_eval *e, uint64_t s,
				int cue)
{
	int calm = steady(e, s) && alike(e, s);

	/*
	 * Two rows of --random: a pause in each can set an AU apart.  The
	 * special AUs' two must agree, the gap dwarf the groups' own
	 * spread, and some rows below bear it out; or the special AUs be
	 * the only ones that keep their speed, or the rows below bear it
	 * out at length.
	 */
	if (e->t->random)
		return e->effect >= log(FAT_MIN_TWO_ROWS) &&
		       e->effect > 2 * e->inner &&
		       ((calm && e->rows >= 2 && e->sep == e->rows &&
			 e->effect > 2 * e->inner && e->later >= 2 &&
			 e->confirm >= CONFIRM_SOME) ||
			((cue == 2 || confirmed(e, 2)) &&
			 (calm || confirmed(e, 3)))) ?
		       CONF_MEDIUM : CONF_LOW;
	/*
	 * A split smaller than the least a FAT area costs is real but not
	 * a FAT area's mark: the first AUs of a real card's -f table can
	 * write some 15 % slower at every size (tests/real/013) with no
	 * special area behind them.
	 */
	if (e->diff < log(FAT_LEAST))
		return CONF_LOW;
	/* each size that shows the offset makes a chance one smaller */
	return e->sig.p < FAT_SIG_HIGH ? CONF_HIGH :
	       e->sig.p < FAT_SIG_MEDIUM ? CONF_MEDIUM : CONF_LOW;
}

static void read_pair(const struct fat_eval *e, struct fat_read *r)
{
	char a[TABLE_MAXCOLS * 4], b[TABLE_MAXCOLS * 4];

	r->kind = FAT_PAIR;
	r->set = e->slow;
	r->other = e->fast;
	say(r->v.evidence, sizeof(r->v.evidence),
	    "AUs %s write %.0f%% slower than AUs %s%s in %zu of %zu sizes: "
	    "either half may be the special one; more AUs (--fat-nr) "
	    "would tell", aus(a, sizeof(a), e->slow),
	    100 * (1 - exp(-e->diff)), aus(b, sizeof(b), e->fast),
	    where(e), e->sep, e->rows);
}

static void read_set(const struct fat_eval *e, uint64_t s, int cue,
		     struct fat_read *r)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	char l[TABLE_MAXCOLS * 4];
	uint64_t rest = e->used & ~s;
	size_t i = first_row(e, s);
	int slower = s == e->slow;

	r->kind = FAT_SET;
	r->set = s;
	r->v.is_null = 0;
	r->v.direction = slower ? -1 : 1;
	r->v.conf = set_conf(e, s, cue);
	for (r->v.nlist = 0; s; s &= s - 1)
		r->v.list[r->v.nlist++] = (uint64_t)__builtin_ctzll(s);
	say(r->v.evidence, sizeof(r->v.evidence),
	    "%s %s at %s: %s vs %s for the others; %s by %.0f%%%s in %zu of "
	    "%zu sizes", au_word(r->set), aus(l, sizeof(l), r->set),
	    fmt_size(a, (double)e->t->rows[i].key),
	    fmt_rate(b, group_rate(e, i, r->set)),
	    fmt_rate(c, group_rate(e, i, rest)), slower ? "slower" : "faster",
	    100 * (slower ? 1 - exp(-e->diff) : exp(e->diff) - 1),
	    where(e), e->sep, e->rows);
	if (cue == 2)
		say(r->v.evidence, sizeof(r->v.evidence),
		    "only %s with small random writes",
		    count(r->set) > 1 ? "they keep their speed" :
		    "it keeps its speed");
	/* a majority special, or collapses on both sides: not the pattern */
	if ((cue && count(r->set) > count(rest)) ||
	    ((e->coll & e->slow) && (e->coll & e->fast)))
		r->v.conf = conf_min(r->v.conf, CONF_LOW);
	say_collapse(e, &r->v);
}

/*
 * The chance that one of k + 1 alike AUs is the slowest in at least w of
 * n rows: under no difference each is the slowest of a row one time in
 * k + 1.
 */
static double slowest_chance(size_t w, size_t n, unsigned k)
{
	double q = 1.0 / (k + 1), c = 1, p = 0;
	size_t i;

	for (i = 0; i <= n; i++) {
		if (i >= w)
			p += c * pow(q, (double)i) * pow(1 - q, (double)(n - i));
		c = c * (double)(n - i) / (double)(i + 1);
	}
	return p;
}

/*
 * A linear -f table writes a row's AUs in order, so the first ones written
 * after the previous row pay for the card finishing that row's AUs: a
 * slowdown that fades with the order of the writes (seed 013: AU 0 15%
 * slower, AU 1 7%, the others alike).  A FAT area is a place, its AUs
 * alike and the rest alike: where the slow run starts at the first AU
 * and the AU written next is the slowest of the rest in more rows than
 * chance allows (FAT_SIG_MEDIUM), the slowdown is the order's, not a
 * FAT area's.
 */
static int fading(const struct fat_eval *e)
{
	unsigned next = count(e->slow), j;
	uint64_t rest = e->used & ~e->slow & ~bit(next);
	size_t i, n = 0, w = 0;
	int low;

	if (e->t->random || !(e->slow & 1) || !contiguous(e->slow) ||
	    !(e->used & bit(next)) || count(rest) < 2)
		return 0;
	for (i = 0; i < e->nr; i++) {
		if (!full(e, i, e->used))
			continue;
		n++;
		low = 1;
		for (j = 0; j < e->nc; j++)
			if ((rest & bit(j)) && lx(e, i, j) <= lx(e, i, next))
				low = 0;
		w += low;
	}
	return n && slowest_chance(w, n, count(rest)) < FAT_SIG_MEDIUM;
}

static void read_fading(const struct fat_eval *e, struct fat_read *r)
{
	char a[TABLE_MAXCOLS * 4];

	r->kind = FAT_NONE;
	r->v.is_null = 0;
	r->v.conf = CONF_LOW;
	say(r->v.evidence, sizeof(r->v.evidence),
	    "%s %s slower, and AU %u, written next, slower than the rest in "
	    "most sizes: a slowdown fading with the order of the writes "
	    "(the card finishing the previous size), not a FAT area",
	    au_word(e->slow), aus(a, sizeof(a), e->slow), count(e->slow));
}

static uint64_t table_erasesize(const struct table *t)
{
	uint64_t top = t->erasesize;
	size_t i;

	for (i = 0; i < t->nrows; i++)
		if (t->rows[i].key > top)
			top = t->rows[i].key;
	return top;
}

void fat_table(const struct table *t, struct fat_read *r)
{
	struct fat_eval e;
	uint64_t s;
	int cue;

	memset(r, 0, sizeof(*r));
	verdict_init(&r->v, V_LIST);
	memset(&e, 0, sizeof(e));
	e.t = t;
	e.nc = t->ncols < TABLE_MAXCOLS ? t->ncols : TABLE_MAXCOLS;
	e.nr = t->nrows < STATS_MAX ? t->nrows : STATS_MAX;
	e.top = r->erasesize = table_erasesize(t);
	r->nc = e.nc;
	if (t->random)
		e.coll = collapsing(&e);
	levels(&e);
	split(&e);
	if (!t->random) {
		fat_sig(t, e.nc, e.nr, &e.sig);
		e.slow = e.sig.slow;
		e.fast = e.sig.fast;
		e.diff = e.effect = e.sig.diff;
	}
	support(&e);
	if (count(e.used) < 2 || !e.rows) {
		say(r->v.evidence, sizeof(r->v.evidence),
		    "too few AUs or sizes%s", where(&e));
		return;
	}
	if (!e.slow || !significant(&e)) {
		if (t->random)
			read_none_random(&e, r);
		else
			read_none_linear(&e, r);
		return;
	}
	if (fading(&e)) {
		read_fading(&e, r);
		return;
	}
	s = special(&e, &cue);
	if (s)
		read_set(&e, s, cue, r);
	else
		read_pair(&e, r);
}
