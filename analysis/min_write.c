// SPDX-License-Identifier: GPL-2.0
/*
 * Minimum full-speed write: the smallest size from which up every write
 * runs at 80 % or more of the speed its size allows, that is, without
 * programming more than it carries.  Read from the runs that did not
 * collapse; a run that collapsed cannot show it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/internal.h"
#include "analysis/stats.h"
#include "lib/units.h"

#define FULL_SPEED 0.8	/* of the time the size alone takes */
#define RANDOM_FIRST 2	/* a quarter of the erase size */

/*
 * Lower is better: linear before random, then the run reaching the
 * smaller size (one that stops short cannot show a smaller minimum),
 * small N, then more rows.
 */
static int worse_run(const struct column *a, const struct column *b)
{
	unsigned na = a->nr ? a->nr : 2, nb = b->nr ? b->nr : 2;
	uint64_t la = a->t->rows[a->t->nrows - 1].key;
	uint64_t lb = b->t->rows[b->t->nrows - 1].key;

	if (a->random != b->random)
		return a->random > b->random;
	if (la != lb)
		return la > lb;
	if (na != nb)
		return na > nb;
	return a->t->nrows < b->t->nrows;
}

static const struct column *pick_run(const struct column *c, size_t m,
				     size_t *nbad)
{
	const struct column *best = NULL;
	size_t i;

	*nbad = 0;
	for (i = 0; i < m; i++) {
		if (c[i].t->nrows < 4)
			continue;
		if (c[i].collapsed) {
			(*nbad)++;
			continue;
		}
		if (!best || worse_run(best, &c[i]))
			best = &c[i];
	}
	return best;
}

static int fewer_collapsed(const struct column *c, size_t m,
			   const struct column *run)
{
	size_t i;

	for (i = 0; i < m; i++)
		if (c[i].collapsed && c[i].nr < run->nr &&
		    c[i].random == run->random && c[i].group == run->group)
			return 1;
	return 0;
}

/* Write time by size, largest first: the best of the runs that held. */
struct times {
	size_t n;
	uint64_t key[STATS_MAX];
	double ns[STATS_MAX];
};

/*
 * At each size of run, the fastest of the runs of its test (order and
 * erase size) that held: one slow row (a pause of the card, a sweep's
 * column paying for the one before) does not make the page.
 */
static void best_times(const struct column *c, size_t m,
		       const struct column *run, struct times *t)
{
	size_t i, j, r;

	t->n = 0;
	for (i = 0; i < run->t->nrows && t->n < STATS_MAX; i++) {
		uint64_t key = run->t->rows[i].key;
		double rate = cell(run, i);

		for (j = 0; j < m; j++) {
			const struct column *o = &c[j];

			if (o->collapsed || o->random != run->random ||
			    o->group != run->group)
				continue;
			for (r = 0; r < o->t->nrows; r++)
				if (o->t->rows[r].key == key &&
				    cell(o, r) > rate)
					rate = cell(o, r);
		}
		if (!(rate > 0))
			break;
		t->key[t->n] = key;
		t->ns[t->n++] = (double)key / rate * 1e9;
	}
}

/*
 * The line a write's time follows above the page: ns = a + b * size,
 * with what the rows it goes through say about its precision.
 */
struct line {
	double a, b;
	double inv[3];		/* inverse normal matrix: 00, 01, 11 */
	double s2;		/* the rows' relative scatter about it, squared */
	size_t rows;
};

/*
 * Least squares through rows 0..last that are not skipped, each weighed
 * by its own time (every size counts alike, so the small sizes, where
 * the command overhead shows, pin down the offset); an offset below zero
 * is noise: then a line through zero.
 */
static void fit(const struct times *t, size_t last, const char *skip,
		struct line *l)
{
	double sw = 0, sl = 0, sll = 0, st = 0, slt = 0, w, det, r;
	size_t i;

	l->rows = 0;
	for (i = 0; i <= last; i++) {
		if (skip[i])
			continue;
		w = 1 / (t->ns[i] * t->ns[i]);
		sw += w;
		sl += w * (double)t->key[i];
		sll += w * (double)t->key[i] * (double)t->key[i];
		st += w * t->ns[i];
		slt += w * (double)t->key[i] * t->ns[i];
		l->rows++;
	}
	det = sw * sll - sl * sl;
	l->a = det > 0 ? (st * sll - sl * slt) / det : 0;
	l->b = det > 0 ? (sw * slt - sl * st) / det : 0;
	l->inv[0] = det > 0 ? sll / det : 0;
	l->inv[1] = det > 0 ? -sl / det : 0;
	l->inv[2] = det > 0 ? sw / det : 0;
	if (l->a < 0 || !(l->b > 0)) {
		l->a = 0;
		l->b = slt / sll;
		l->inv[0] = l->inv[1] = 0;
		l->inv[2] = 1 / sll;
	}
	for (i = 0, l->s2 = 0; i <= last; i++) {
		r = (l->a + l->b * (double)t->key[i]) / t->ns[i] - 1;
		l->s2 += skip[i] ? 0 : r * r;
	}
	l->s2 /= l->rows > 2 ? (double)(l->rows - 2) : 1;
}

/* The time a size should take over the time it took. */
static double share(const struct times *t, const struct line *l, size_t i)
{
	return (l->a + l->b * (double)t->key[i]) / t->ns[i];
}

/*
 * How far off a share of row i may be: the rows' scatter (1 % at least)
 * and the line's own uncertainty where it is read, which grows the
 * farther below the rows it goes through.
 */
static double share_sd(const struct times *t, const struct line *l,
		       size_t i)
{
	double x = (double)t->key[i], y = l->a + l->b * x;
	double s2 = fmax(l->s2, 1e-4);

	return sqrt(s2 + s2 * (l->inv[0] + 2 * x * l->inv[1] +
			       x * x * l->inv[2]) / (y * y));
}

/* How the sizes of a run stand to the line, largest first. */
struct walk {
	size_t full;		/* the smallest full-speed row */
	size_t dips;		/* slow rows that smaller ones outran */
	size_t rows;		/* the line's rows no page slows where it was
				   decided */
	double least;		/* lowest share of the rows down to full */
	double most;		/* highest share of those below the line
				   (linear order: a random line bends) */
	double next;		/* share of the row below full, if any */
	double margin;		/* of the shares from the 80 % edge, in their
				   deviations: the smallest */
	size_t judged;		/* the first row read against the line */
	size_t sure;		/* the smallest row down to which every one
				   from judged stands clear above the edge */
};

/* A share this many deviations above the edge is full speed, noise or not. */
#define CLEAR 2
/*
 * The same for a line of two whole sizes and 96KiB: at 2 deviations,
 * --cards 300 seeds 1/3/7/11 gave 19, 21, 12 and 30 more right and 0, 0,
 * 1 and 2 more wrong; at 3.5 about 14, 14, 11 and 17 more right and 0,
 * 0, 0 and 1 more wrong (a pause slowing the last size of a run that
 * held alone, which no rule tells from a page).  At 4: the rates as
 * printed (three digits, which tables keep since --analyze must read
 * a survey back to its verdicts) put a noisy 64KiB-page card's 24KiB
 * writes 3.6 deviations clear, wrong at medium (tests/t_sim.sh), where
 * a noise-free 24KiB-page card's stand 4.7 clear; on seeds 1 and 3, 4
 * and 7 of some 600 right at medium went to low, none more wrong.
 */
#define THIN_CLEAR 4.0
/* 96KiB joins the line of the whole sizes at this share of it or more. */
#define ON_LINE 0.95
/* A share above this: the line is off, not the row (see the verdict). */
#define FASTER 1.5
/* A smaller size back at this share of the line: the row above dipped. */
#define BACK_ON_LINE 0.9
/*
 * A random line's deviations: the rows' median deviation from it, scaled
 * as a normal's (rounded up: few rows), and 2 % at least, the scatter of
 * a card's rate from run to run.
 */
#define LINE_MAD_SD 1.5
#define LINE_SD_MIN 0.02

/* Row i at share s, sd deviations: still clear of the edge from above? */
static void clear_to(struct walk *w, size_t i, double s, double sd)
{
	if (w->sure + 1 == i && s >= FULL_SPEED + CLEAR * sd)
		w->sure = i;
}

/*
 * Writes of a multiple of 64 KiB program whole pages on any card (a page
 * is at most that, 2^n; a 3x2^n one divides 3x2^n sizes from 3x64 KiB
 * up as well): no page slows them.
 */
static int whole_pages(uint64_t size)
{
	return (size & -size) >= PAGE_MAX;
}

/* Rows 0..last on the line that no page slows. */
static size_t page_free(const struct times *t, size_t last, const char *skip)
{
	size_t i, n = 0;

	for (i = 0; i <= last; i++)
		n += !skip[i] && whole_pages(t->key[i]);
	return n;
}

/*
 * Where a bound may start: the line's last row, if every row it goes
 * through (first..last) programs whole pages; a 96 KiB row on it may be
 * slow (a 64 KiB page) and pull the line down to the sizes below, so
 * none is sure then (0: no row below the line is that).
 */
static size_t line_sure(const struct times *t, size_t first, size_t last)
{
	size_t i;

	for (i = first; i <= last; i++)
		if (!whole_pages(t->key[i]))
			return 0;
	return last;
}

/*
 * The row below full fails the line: a dip if smaller ones are back, or
 * if the next smaller size writes more bytes a second.  What slows a
 * size for good (a page, or random order) slows a smaller one at least
 * as much per byte, so a size outrun by the one below it was disturbed.
 * Not one that takes longer than the size above it: a card that reads,
 * merges and programs a page for a part of it does that (seed 001's
 * SU04G: 16KiB writes take 5.2ms, 32KiB ones 3.6ms).
 */
static int dips_at(const struct times *t, const struct line *l, size_t i)
{
	size_t j;

	if (i + 1 < t->n && (double)t->key[i + 1] / t->ns[i + 1] >
	    (double)t->key[i] / t->ns[i])
		return 1;
	for (j = i + 1; j < t->n && share(t, l, j) < BACK_ON_LINE; j++)
		;
	return j < t->n;
}

/*
 * The time of a write at full speed is a command's plus its bytes' cost:
 * a line over the size.  Sizes of 64 KiB and up program whole pages, or
 * nearly (a page is at most 64 KiB): the line goes through them (through
 * the three largest sizes where fewer are that large; not the whole-AU
 * writes where three others are), and each smaller
 * size should take the time the line gives it; one that takes much
 * longer (its share, the time it should take over the time it took,
 * below 80 %) programs more than it carries.  A slow size that smaller
 * writes are back on the line from is a dip (the card paused), not the
 * page.  Sizes below the line's rows never join it: a line bent through
 * them would take a page's slow writes for the command's cost.
 */
static void walk_fixed(const struct times *t, struct walk *w)
{
	char skip[STATS_MAX] = { 0 };
	size_t i, last, sure;
	struct line l;
	double s;

	for (last = 2; last + 1 < t->n && t->key[last + 1] >= PAGE_MAX; last++)
		;
	/* the whole-AU writes of a run's first row found its AUs fresh */
	skip[0] = last >= 3;
	/*
	 * 96KiB of a 3x2^n AU: a 64KiB page slows it (128KiB programmed)
	 * and would bend the line.  Where three sizes of whole 64KiB are
	 * left, it joins their line only at ON_LINE of it or more (at 0.9
	 * a noisy 96KiB of a 64KiB-page card joined it: one more wrong on
	 * seed 3), and the rows sure to be full speed go down to it only
	 * if it stands clear.
	 */
	sure = line_sure(t, 0, last);
	if (!whole_pages(t->key[last]) && page_free(t, last - 1, skip) >= 3) {
		fit(t, last - 1, skip, &l);
		s = share(t, &l, last);
		sure = last - (s < FULL_SPEED + CLEAR * share_sd(t, &l, last));
		last -= s < ON_LINE;
	}
	fit(t, last, skip, &l);
	*w = (struct walk){ last, 0, page_free(t, last, skip), 1, 0, NAN,
			    INFINITY, last + 1, sure };
	for (i = last + 1; i < t->n; i++) {
		s = share(t, &l, i);
		if (s >= FULL_SPEED) {
			clear_to(w, i, s, share_sd(t, &l, i));
			w->full = i;
			w->least = fmin(w->least, s);
			w->most = fmax(w->most, s);
			w->margin = fmin(w->margin,
					 (s - FULL_SPEED) / share_sd(t, &l, i));
		} else if (dips_at(t, &l, i)) {
			w->dips++;
		} else {
			w->next = s;
			w->margin = fmin(w->margin,
					 (FULL_SPEED - s) / share_sd(t, &l, i));
			break;
		}
	}
	/* nothing below the line's rows: nothing told */
	if (last + 1 >= t->n)
		w->margin = 0;
}

/*
 * In random order the rows from a quarter of the AU down, the line
 * through the sizes above each, bent through every size found on it:
 * the random-order cost still grows over the first of them.  Its
 * deviations are the rows' scatter about the line, 2 % at least.
 */
static void walk_line(const struct times *t, size_t first, struct walk *w)
{
	char skip[STATS_MAX] = { 0 };
	double dev[STATS_MAX], got[STATS_MAX];
	struct line l;
	size_t i, j;
	double s, sd;

	*w = (struct walk){ first + 1, 0, 0, 1, 0, NAN, 0, first + 2,
			    line_sure(t, first, first + 1) };
	for (i = 0; i < first; i++)
		skip[i] = 1;
	for (i = first + 2; i < t->n; i++) {
		fit(t, i - 1, skip, &l);
		w->rows = page_free(t, i - 1, skip);
		s = got[i] = share(t, &l, i);
		if (s >= FULL_SPEED) {
			w->full = i;
			w->least = fmin(w->least, s);
		} else if (dips_at(t, &l, i)) {
			skip[i] = 1;
			w->dips++;
		} else {
			w->next = s;
			break;
		}
	}
	/* the scatter about the line through the rows found on it */
	fit(t, w->full, skip, &l);
	for (i = first, j = 0; i <= w->full; i++)
		if (!skip[i])
			dev[j++] = fabs(1 - share(t, &l, i));
	sd = fmax(median(dev, j) * LINE_MAD_SD, LINE_SD_MIN);
	/* each row as the line through the ones above it saw it */
	for (i = w->judged; i <= w->full && !skip[i]; i++)
		clear_to(w, i, got[i], sd);
	w->margin = (w->least - FULL_SPEED) / sd;
	if (!isnan(w->next))
		w->margin = fmin(w->margin, (FULL_SPEED - w->next) / sd);
}

/*
 * A random line bends through the sizes it finds on it, a linear one
 * through 96KiB, and bent far enough a page's slow writes pass for the
 * command's cost.  Against the line through its sizes of whole 64KiB
 * alone (three or more; not the whole-AU writes, which found their AUs
 * fresh), the first size below them it took for full speed that is
 * under the edge and no dip, or 0.
 */
static size_t bent_below(const struct times *t, size_t first,
			 const struct walk *w, double *s)
{
	char skip[STATS_MAX] = { 0 };
	size_t i, last = first;
	struct line l;

	for (i = 0; i <= w->full; i++) {
		skip[i] = !i || i < first || !whole_pages(t->key[i]);
		last = skip[i] ? last : i;
	}
	if (page_free(t, last, skip) < 3)
		return 0;
	fit(t, last, skip, &l);
	for (i = last + 1; i <= w->full; i++) {
		*s = share(t, &l, i);
		if (*s < FULL_SPEED && !dips_at(t, &l, i))
			return i;
	}
	return 0;
}

/*
 * Linear runs that held, each read on its own (the best of it alone),
 * that end where the best
 * of them does (the same smallest full-speed size, the same size below
 * it or none) at least AGREE_MARGIN deviations from the edge: the runs
 * measured the card apart, so noise that carried one across the edge
 * would not carry them all.  Noise only: a page that slows the line's
 * own rows (96 KiB at a 64 KiB page) lifts it for every run alike, by
 * up to a tenth, so the sizes must stand AGREE_LEAST above it as well.
 */
#define AGREE_MARGIN 1.0
#define AGREE_RUNS 3
#define AGREE_LEAST 0.9

static size_t runs_agree(const struct column *c, size_t m,
			 const struct column *run, const struct times *t,
			 const struct walk *w)
{
	struct times o;
	struct walk ow;
	size_t i, n = 0;

	if (run->random || w->margin < AGREE_MARGIN || w->least < AGREE_LEAST)
		return 0;
	for (i = 0; i < m; i++) {
		if (c[i].collapsed || c[i].random || c[i].group != run->group)
			continue;
		best_times(&c[i], 1, &c[i], &o);
		if (o.n != t->n || o.n < 3)
			continue;
		walk_fixed(&o, &ow);
		n += ow.full == w->full && ow.margin >= AGREE_MARGIN &&
		     isnan(ow.next) == isnan(w->next) && !ow.dips &&
		     ow.most <= FASTER;
	}
	return n;
}

/*
 * The line's own smallest row may bound the minimum too: its sizes
 * program whole pages, so they write at full speed by what the line
 * is.  Only in linear order (a random line's sizes pay for the order as
 * well) and at N=1, which no card's open AUs fall short of: a larger N
 * that held may be past the limit on a card whose merges are cheap, and
 * such a run shows no minimum at all.
 */
static int line_bound(const struct column *run)
{
	return !run->random && run->nr == 1;
}

/*
 * The rows down to w->sure stand clear above the edge and a smaller one
 * is too near it to tell (or, bent, under it): the minimum is that row
 * or smaller, a bound that holds where the value itself would be a
 * guess.
 */
static void at_most(const struct times *t, const struct walk *w,
		    size_t bent, struct verdict *v)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	set_value(v, t->key[w->sure], CONF_MEDIUM);
	v->at_most = 1;
	v->note[0] = '\0';
	fmt_size(a, (double)t->key[w->sure]);
	fmt_size(b, (double)t->key[w->sure + 1]);
	if (w->sure + 1 == bent)
		say(v->evidence, sizeof(v->evidence),
		    "%s and up clear of the %.0f%% edge", a,
		    100 * FULL_SPEED);
	else
		say(v->evidence, sizeof(v->evidence),
		    "%s and up clear of the %.0f%% edge, %s within the "
		    "scatter of it", a, 100 * FULL_SPEED, b);
}

/*
 * How sure the edge is, from its margin (the shares' deviations from
 * it): CLEAR makes it medium, SURE_HIGH high where three sizes or more
 * stand above it; a deep step (the size below at DEEP_NEXT or less, all
 * above at DEEP_LEAST or more) is medium however near the sizes above
 * it scatter.
 */
#define SURE_HIGH 3.5
#define SURE_HIGH_ROWS 3
#define DEEP_NEXT 0.5
#define DEEP_LEAST 0.85

/* The smallest full-speed size of the walk, and the one below it. */
static void full_value(const struct times *t, const struct walk *w,
		       struct verdict *v)
{
	char a[UNIT_BUFLEN], d[UNIT_BUFLEN], e[UNIT_BUFLEN];

	fmt_size(a, (double)t->key[w->full]);
	if (isnan(w->next)) {
		/*
		 * every size measured holds: the run never reached the
		 * page, so the minimum is this size or a smaller one
		 */
		set_value(v, t->key[w->full], w->margin >= CLEAR ?
			  CONF_MEDIUM : CONF_LOW);
		v->at_most = 1;
		say(v->evidence, sizeof(v->evidence),
		    "every size down to %s writes at %.0f%% or more of the "
		    "speed its size allows; none smaller measured", a,
		    100 * w->least);
		return;
	}
	/*
	 * Sizes of 3x2^n step from 3x2^n to half that: the power of two
	 * between them (a 2^n page) was never written, and may be full
	 * speed too.
	 */
	v->at_most = odd_part(t->key[w->full]) != 1;
	set_value(v, t->key[w->full], w->margin >= SURE_HIGH &&
		  w->full >= SURE_HIGH_ROWS ? CONF_HIGH :
		  w->margin >= CLEAR || (w->next <= DEEP_NEXT &&
		  w->least >= DEEP_LEAST) ? CONF_MEDIUM : CONF_LOW);
	say(v->evidence, sizeof(v->evidence),
	    "%s and up at %.0f%% or more of the speed their size "
	    "allows, %s at %.0f%% (%s)", a, 100 * w->least,
	    fmt_size(d, (double)t->key[w->full + 1]), 100 * w->next,
	    fmt_rate(e, (double)t->key[w->full + 1] /
		     t->ns[w->full + 1] * 1e9));
}

/*
 * What bounds the value: a bend under the line of the whole sizes, other
 * runs that end there too, a smaller size that outruns the line; where
 * it stays low, the sizes clear of the edge may still bound it.
 */
static void bound_value(const struct column *c, size_t m,
			const struct column *run, const struct times *t,
			size_t first, struct walk *w, struct verdict *v)
{
	char d[UNIT_BUFLEN];
	size_t agree, bent;
	double s;

	/* a bound from the sizes above the bend may still hold */
	bent = bent_below(t, first, w, &s);
	if (bent) {
		v->conf = CONF_LOW;
		w->sure = w->sure < bent ? w->sure : bent - 1;
		say(v->evidence, sizeof(v->evidence),
		    "%s at %.0f%% of the line through the sizes of whole "
		    "64KiB alone", fmt_size(d, (double)t->key[bent]), 100 * s);
	}
	agree = v->conf == CONF_LOW ? runs_agree(c, m, run, t, w) : 0;
	if (agree >= AGREE_RUNS) {
		v->conf = CONF_MEDIUM;
		say(v->evidence, sizeof(v->evidence), "%zu runs read one by "
		    "one end there too", agree);
	}
	/*
	 * A smaller write cannot outrun the line by far: where one does,
	 * the line's rows were slowed (a drift of the card's speed) and its
	 * offset, not the command's cost, makes the sizes below look fast.
	 */
	if (w->most > FASTER) {
		v->conf = CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "a smaller size runs %.0f%% faster than the line allows",
		    100 * (w->most - 1));
	} else if (v->conf == CONF_LOW && w->sure &&
		   (w->sure >= w->judged || line_bound(run)) &&
		   (w->sure < w->full || !isnan(w->next))) {
		at_most(t, w, bent, v);
	}
}

/*
 * A line through fewer than three sizes that no page slows has no
 * scatter to judge it by, or may bend through a page's slow writes.
 * In linear order two will do where the sizes stand THIN_CLEAR
 * deviations from the edge: the line still goes through three (96KiB
 * of a 384KiB or 768KiB AU as well), and their scatter shows a 96KiB
 * write a 64KiB page slows, but from one degree of freedom, too
 * unsure for CLEAR.  A random line bends through the rows below it.
 */
static void doubt_value(const struct column *c, size_t m,
			const struct column *run, const struct walk *w,
			struct verdict *v)
{
	if (w->rows < 3 &&
	    (run->random || w->rows < 2 || w->margin < THIN_CLEAR)) {
		v->conf = CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "%zu size%s of whole 64KiB on the line", w->rows,
		    w->rows == 1 ? "" : "s");
	}
	if (w->dips) {
		v->conf = conf_down(v->conf);
		say(v->evidence, sizeof(v->evidence),
		    "%zu slow size%s above it, outrun by smaller writes",
		    w->dips, w->dips > 1 ? "s" : "");
	}
	/* fewer AUs of the same test collapsed: this one held by chance */
	if (fewer_collapsed(c, m, run)) {
		v->conf = conf_down(v->conf);
		say(v->evidence, sizeof(v->evidence),
		    "a smaller N collapsed");
	}
}

static void min_write_verdict(const struct column *c, size_t m,
			      struct verdict *v)
{
	const struct column *run;
	struct times t;
	struct walk w;
	size_t nbad, first;

	run = pick_run(c, m, &nbad);
	if (!run) {
		if (!nbad)
			return;
		verdict_init(v, V_BYTES);
		say(v->evidence, sizeof(v->evidence),
		    "every run collapsed: no full-speed write to measure");
		return;
	}
	verdict_init(v, V_BYTES);
	best_times(c, m, run, &t);
	/*
	 * In random order the line starts at four chunks per AU: above
	 * that, few or none of the writes go out of order, and those that
	 * do cost more (mapping, merges) whatever their size.
	 */
	first = run->random ? RANDOM_FIRST : 0;
	if (t.n < first + 3) {
		say(v->evidence, sizeof(v->evidence),
		    "too few sizes to draw the line their times follow");
		return;
	}
	if (run->random)
		walk_line(&t, first, &w);
	else
		walk_fixed(&t, &w);
	/* how far the verdict stands from the knife edge: w.margin */
	full_value(&t, &w, v);
	bound_value(c, m, run, &t, first, &w, v);
	/*
	 * The -f tables stand in for runs no -O run confirms: low at most
	 * (on sim cards fitted to the real reports, 2 of 40 read a size far
	 * below the truth at medium; tests/accuracy.py --fitted 40).
	 */
	if (run->t->kind == TAB_FAT) {
		v->conf = conf_min(v->conf, CONF_LOW);
		say(v->evidence, sizeof(v->evidence),
		    "no -O run held: the linear -f writes of each AU");
	} else
		say(v->evidence, sizeof(v->evidence),
		    "%s runs that held, N=%u", run->random ? "random" :
		    "linear", run->nr);
	doubt_value(c, m, run, &w, v);
}

/*
 * A linear -f table writes each AU from its start in writes of each
 * row's size: what a linear -O run with one AU open writes.  Where no -O
 * run held (or none was made), its AUs stand in as such runs, the
 * fastest at each size as best_times() takes it, so a FAT area or a
 * paused AU does not set the speed.
 */
static size_t fat_columns(const struct table *tabs, size_t n,
			  struct column *c)
{
	size_t i, m = 0;
	unsigned j;

	for (i = 0; i < n; i++) {
		if (tabs[i].kind != TAB_FAT || tabs[i].random)
			continue;
		for (j = 0; j < tabs[i].ncols && j < TABLE_MAXCOLS &&
		     m < MAX_COLS; j++) {
			memset(&c[m], 0, sizeof(c[m]));
			c[m].t = &tabs[i];
			c[m].col = j;
			c[m].nr = 1;
			c[m++].group = tabs[i].erasesize;
		}
	}
	return m;
}

/* No -O run held: the linear -f tables' AUs, if there are any. */
static void fat_instead(const struct table *tabs, size_t n,
			struct column *c, size_t *m)
{
	size_t nbad, k;

	if (pick_run(c, *m, &nbad))
		return;
	k = fat_columns(tabs, n, c);
	if (k)
		*m = k;
}

void family_min_write(const struct table *tabs, size_t n,
		      const struct analysis_ctx *ctx, struct analysis *out)
{
	struct column *c;
	size_t m;

	(void)ctx;
	verdict_init(&out->min_full_speed_write, V_NONE);
	c = judged_columns(tabs, n, &m);
	if (!c)
		return;
	fat_instead(tabs, n, c, &m);
	min_write_verdict(c, m, &out->min_full_speed_write);
	free(c);
}
