// SPDX-License-Identifier: GPL-2.0
/*
 * What a --sustained run says: where the write rate fell off a cliff (the
 * write cache's size), the rate after it, and with --idle how much of the
 * cache came back.  The rule (doc/sustained.md): a window under SUS_DROP
 * of the fastest one before it is past a cliff; SUS_HOLD such windows in
 * a row confirm it and end the pass.  In lib, as the ramp's rule is:
 * the test stops by it and the verdicts read it.  No I/O but the lines.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sustain_rule.h"
#include "lib/ramp_rule.h"
#include "lib/units.h"

/*
 * A window under this share of the fastest before it is past a cliff:
 * caches seen fall to a half or less of their rate, where a card's
 * pauses and jitter move a 64 MiB window by a few percent.
 */
#define SUS_DROP 0.70
/* Windows in a row under the cliff that confirm it and end the pass. */
#define SUS_HOLD 3
/* Windows past the cliff within this share of their median: steady. */
#define SUS_STEADY 0.15
/*
 * After idle, the cache came back ("yes") when the fast bytes reach it
 * within a window or this share of it, whichever is more: the cliff is
 * placed by interpolation inside a window, not to the byte.
 */
#define SUS_NEAR 0.10
/* The second pass goes this many windows past the cache, then stops. */
#define SUS_PAST 2

static double rate_of(const struct sus_run *r, size_t i)
{
	return (double)r->window / (double)r->w[i].ns;
}

/* The first window after idle; n when there is none. */
static size_t first_idle(const struct sus_run *r)
{
	size_t i;

	for (i = 0; i < r->n && !r->w[i].idle; i++)
		;
	return i;
}

static void judge_first(struct sus_run *r, size_t i)
{
	double v = rate_of(r, i);

	if (r->cliff && v < SUS_DROP * r->best) {
		r->down++;
		return;
	}
	if (!r->cliff && i > 0 && v < SUS_DROP * r->best) {
		r->cliff = i;
		r->down = 1;
		return;
	}
	/* back up: a dip, not a cliff */
	r->cliff = 0;
	r->down = 0;
	if (v > r->best)
		r->best = v;
}

int sus_add(struct sus_run *r, uint64_t at, uint64_t ns, int idle)
{
	struct sus_win *w;
	size_t i = r->n;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		w = realloc(r->w, r->cap * sizeof(*w));
		if (!w)
			return -ENOMEM;
		r->w = w;
	}
	r->w[r->n++] = (struct sus_win){ at, ns ? ns : 1, idle };
	if (!idle)
		judge_first(r, i);
	else if (!r->relapse && r->cliff &&
		 rate_of(r, i) < SUS_DROP * r->best)
		r->relapse = i + 1;
	return 0;
}

/* Median rate of windows [lo, hi), B/ns; NAN when none. */
static double median_rate(const struct sus_run *r, size_t lo, size_t hi)
{
	double *v, m;
	size_t i;

	if (hi <= lo || !(v = malloc((hi - lo) * sizeof(*v))))
		return NAN;
	for (i = lo; i < hi; i++)
		v[i - lo] = rate_of(r, i);
	m = ramp_median(v, hi - lo);
	free(v);
	return m;
}

/* The first pass's cliff: fast and slow rates, B/ns, and the cache. */
struct sus_cliff {
	double fast, slow;
	uint64_t cache;
	size_t end;		/* the first pass's windows */
};

/*
 * Bytes of windows [lo, hi] written fast, from their time: a fast part
 * at f B/ns and the rest at s.  Clamped to the windows.
 */
static double fast_bytes(const struct sus_run *r, size_t lo, size_t hi,
			 double f, double s)
{
	double t = 0, b = (double)(hi - lo + 1) * (double)r->window, x;
	size_t i;

	for (i = lo; i <= hi; i++)
		t += (double)r->w[i].ns;
	x = (t - b / s) / (1 / f - 1 / s);
	return x < 0 ? 0 : x > b ? b : x;
}

/*
 * The fast rate from the windows before the one before the cliff (that
 * one may hold the cliff's start), or the first's when it is the one
 * before; the slow from those after it; the cache placed in the two.
 */
static void find_cliff(const struct sus_run *r, struct sus_cliff *c)
{
	size_t k = r->cliff, lo = k - 1;

	c->end = first_idle(r);
	c->fast = k >= 2 ? median_rate(r, 0, k - 1) : rate_of(r, 0);
	c->slow = k + 1 < c->end ? median_rate(r, k + 1, c->end) :
		  rate_of(r, k);
	c->cache = r->w[lo].at +
		   (uint64_t)fast_bytes(r, lo, k, c->fast, c->slow);
}

/* Every window past the cliff's within SUS_STEADY of their median. */
static int steady(const struct sus_run *r, const struct sus_cliff *c)
{
	size_t i;

	for (i = r->cliff + 1; i < c->end; i++)
		if (fabs(rate_of(r, i) / c->slow - 1) > SUS_STEADY)
			return 0;
	return 1;
}

static const char *const conf_word[] = { "inconclusive", "low", "medium",
					 "high" };

/* How the first pass ended, for a verdict that rests on it. */
static const char *ended(const struct sus_run *r)
{
	return r->budget ? "the budget (--max-write, --max-time) ended it" :
	       r->whole ? "it reached the device's end" :
	       r->region_end ? "it reached the region's end" :
	       "it was cut short";
}

static void print_cliff(FILE *f, const struct sus_run *r, const char *p)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	char d[UNIT_BUFLEN], w[UNIT_BUFLEN];
	struct sus_cliff cl;
	int conf;

	find_cliff(r, &cl);
	conf = r->down < SUS_HOLD ? 1 : r->cliff >= 2 && steady(r, &cl) ?
	       3 : 2;
	fmt_size(a, (double)cl.cache);
	fprintf(f, "%swrite_cache: %s (%s) -- %s to %s, then %s over %s "
		"(windows of %s)", p, a, conf_word[conf],
		fmt_rate(b, cl.fast * 1e9), a, fmt_rate(c, cl.slow * 1e9),
		fmt_size(d, (double)(r->w[cl.end - 1].at + r->window -
				     cl.cache)),
		fmt_size(w, (double)r->window));
	if (r->down < SUS_HOLD)
		fprintf(f, "; down for %u window%s only: %s", r->down,
			r->down == 1 ? "" : "s", ended(r));
	fprintf(f, "\n%ssustained_write: %s (%s) -- the median of %zu "
		"window%s past the cliff%s\n", p, c, conf_word[conf],
		cl.end - r->cliff - 1 ? cl.end - r->cliff - 1 : 1,
		cl.end - r->cliff - 1 == 1 ? "" : "s",
		conf == 3 ? ", each within 15 % of it" : "");
}

static void print_flat(FILE *f, const struct sus_run *r, const char *p)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], w[UNIT_BUFLEN];
	size_t end = first_idle(r);
	int conf = r->whole ? 2 : 1;

	fmt_size(a, (double)(r->w[end - 1].at + r->window));
	fmt_rate(b, median_rate(r, 0, end) * 1e9);
	fprintf(f, "%swrite_cache: none within %s written (%s) -- no window "
		"under 70 %% of the fastest before it (windows of %s); %s\n",
		p, a, conf_word[conf], fmt_size(w, (double)r->window),
		ended(r));
	fprintf(f, "%ssustained_write: %s (%s) -- the median of %zu "
		"windows over %s; past them it is not known\n", p, b,
		conf_word[conf], end, a);
}

/*
 * After idle: the bytes written fast again, placed like the cliff, and
 * whether the pass went far enough to tell; 0 when it did not.
 */
static int recovered(const struct sus_run *r, const struct sus_cliff *c,
		     double *bytes)
{
	size_t s = c->end, k = r->relapse ? r->relapse - 1 : r->n - 1;
	size_t lo = k > s ? k - 1 : k;

	if (r->relapse) {
		*bytes = (double)r->w[lo].at - (double)r->w[s].at +
			 fast_bytes(r, lo, k, c->fast, c->slow);
		return 1;
	}
	*bytes = (double)(r->w[k].at + r->window - r->w[s].at);
	return *bytes + (double)r->window >= (double)c->cache;
}

static void print_recovery(FILE *f, const struct sus_run *r, const char *p)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], t[UNIT_BUFLEN];
	char c[UNIT_BUFLEN];
	struct sus_cliff cl;
	double got, near;
	const char *word;

	find_cliff(r, &cl);
	fmt_duration(t, (double)r->idle_ns);
	if (cl.end == r->n) {
		fprintf(f, "%scache_recovery: unknown (inconclusive) -- the "
			"budget left no writes after %s idle\n", p, t);
		return;
	}
	if (!recovered(r, &cl, &got)) {
		fprintf(f, "%scache_recovery: unknown (inconclusive) -- after "
			"%s idle, %s fast again before the budget ended it\n",
			p, t, fmt_size(a, got));
		return;
	}
	near = (double)cl.cache * SUS_NEAR;
	near = near > (double)r->window ? near : (double)r->window;
	word = got + near >= (double)cl.cache ? "yes" :
	       got < (double)r->window / 2 ? "no" : "partly";
	fprintf(f, "%scache_recovery: %s (%s) -- after %s idle, %s of the "
		"%s cache written at %s again\n", p, word,
		conf_word[r->down < SUS_HOLD ? 1 : 2], t, fmt_size(a, got),
		fmt_size(c, (double)cl.cache),
		fmt_rate(b, rate_of(r, cl.end) * 1e9));
}

int sus_enough(const struct sus_run *r, int idle)
{
	struct sus_cliff c;
	size_t s;

	if (!idle)
		return r->cliff && r->down >= SUS_HOLD;
	if (r->relapse)
		return 1;
	find_cliff(r, &c);
	s = c.end;
	return r->w[r->n - 1].at + r->window - r->w[s].at >=
	       c.cache + SUS_PAST * r->window;
}

void sus_print(FILE *f, const struct sus_run *r, const char *prefix)
{
	if (!r->n || r->w[0].idle)
		return;
	if (!r->cliff) {
		print_flat(f, r, prefix);
		return;
	}
	print_cliff(f, r, prefix);
	if (r->idle_ns)
		print_recovery(f, r, prefix);
}

void sus_free(struct sus_run *r)
{
	free(r->w);
	memset(r, 0, sizeof(*r));
}
