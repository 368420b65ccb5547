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

const char *const sus_end_word[SUS_NEND] = {
	[SUS_CUT] = "cut", [SUS_HELD] = "held", [SUS_REGION] = "region",
	[SUS_DEVICE] = "device", [SUS_BUDGET] = "budget",
};

/* How the run ended, for a verdict that rests on it. */
static const char *ended(const struct sus_run *r)
{
	static const char *const why[SUS_NEND] = {
		[SUS_CUT] = "it was cut short",
		[SUS_HELD] = "the rate stayed down",
		[SUS_REGION] = "it reached the region's end",
		[SUS_DEVICE] = "it reached the device's end",
		[SUS_BUDGET] = "the budget (--max-write, --max-time) ended it",
	};

	return why[r->end];
}

/* Set a verdict: key, number, confidence; value and evidence follow. */
static struct sus_verdict *verdict(struct sus_verdict *v, const char *key,
				   double num, int conf)
{
	memset(v, 0, sizeof(*v));
	v->key = key;
	v->num = num;
	v->conf = conf;
	return v;
}

/* write_cache and sustained_write past a cliff: 2 verdicts. */
static size_t judge_cliff(const struct sus_run *r, struct sus_verdict *v)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], w[UNIT_BUFLEN];
	struct sus_cliff cl;
	size_t past, n;
	int conf;

	find_cliff(r, &cl);
	conf = r->down < SUS_HOLD ? 1 : r->cliff >= 2 && steady(r, &cl) ?
	       3 : 2;
	verdict(&v[0], "write_cache", (double)cl.cache, conf);
	verdict(&v[1], "sustained_write", cl.slow * 1e9, conf);
	fmt_size(v[0].value, (double)cl.cache);
	fmt_rate(v[1].value, cl.slow * 1e9);
	n = snprintf(v[0].evidence, sizeof(v[0].evidence), "%s to %s, then "
		     "%s over %s (windows of %s)", fmt_rate(a, cl.fast * 1e9),
		     v[0].value, v[1].value,
		     fmt_size(b, (double)(r->w[cl.end - 1].at + r->window -
					  cl.cache)),
		     fmt_size(w, (double)r->window));
	if (r->down < SUS_HOLD)
		snprintf(v[0].evidence + n, sizeof(v[0].evidence) - n,
			 "; down for %u window%s only: %s", r->down,
			 r->down == 1 ? "" : "s", ended(r));
	past = cl.end - r->cliff - 1 ? cl.end - r->cliff - 1 : 1;
	snprintf(v[1].evidence, sizeof(v[1].evidence), "the median of %zu "
		 "window%s past the cliff%s", past, past == 1 ? "" : "s",
		 conf == 3 ? ", each within 15 % of it" : "");
	return 2;
}

/* No cliff: a bound on the cache, the rate over the region. */
static size_t judge_flat(const struct sus_run *r, struct sus_verdict *v)
{
	char a[UNIT_BUFLEN], w[UNIT_BUFLEN];
	size_t end = first_idle(r);
	int conf = r->end == SUS_DEVICE ? 2 : 1;
	double within = (double)(r->w[end - 1].at + r->window);

	verdict(&v[0], "write_cache", within, conf)->bound = 1;
	verdict(&v[1], "sustained_write", median_rate(r, 0, end) * 1e9,
		conf);
	snprintf(v[0].value, sizeof(v[0].value), "none within %s written",
		 fmt_size(a, within));
	fmt_rate(v[1].value, v[1].num);
	snprintf(v[0].evidence, sizeof(v[0].evidence), "no window under "
		 "70 %% of the fastest before it (windows of %s); %s",
		 fmt_size(w, (double)r->window), ended(r));
	snprintf(v[1].evidence, sizeof(v[1].evidence), "the median of %zu "
		 "windows over %s; past them it is not known", end, a);
	return 2;
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

/* cache_recovery: yes, partly or no, with the bytes fast again. */
static size_t judge_recovery(const struct sus_run *r, struct sus_verdict *v)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], t[UNIT_BUFLEN];
	char c[UNIT_BUFLEN];
	struct sus_cliff cl;
	double got = NAN, near;
	int told;

	find_cliff(r, &cl);
	fmt_duration(t, (double)r->idle_ns);
	told = cl.end < r->n && recovered(r, &cl, &got);
	verdict(v, "cache_recovery", got, told ? r->down < SUS_HOLD ? 1 : 2 :
		0);
	if (cl.end == r->n) {
		snprintf(v->value, sizeof(v->value), "unknown");
		snprintf(v->evidence, sizeof(v->evidence), "the budget left "
			 "no writes after %s idle", t);
		return 1;
	}
	if (!told) {
		snprintf(v->value, sizeof(v->value), "unknown");
		snprintf(v->evidence, sizeof(v->evidence), "after %s idle, %s "
			 "fast again before the budget ended it", t,
			 fmt_size(a, got));
		return 1;
	}
	near = (double)cl.cache * SUS_NEAR;
	near = near > (double)r->window ? near : (double)r->window;
	snprintf(v->value, sizeof(v->value), "%s",
		 got + near >= (double)cl.cache ? "yes" :
		 got < (double)r->window / 2 ? "no" : "partly");
	snprintf(v->evidence, sizeof(v->evidence), "after %s idle, %s of the "
		 "%s cache written at %s again", t, fmt_size(a, got),
		 fmt_size(c, (double)cl.cache),
		 fmt_rate(b, rate_of(r, cl.end) * 1e9));
	return 1;
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

static size_t judge(const struct sus_run *r, struct sus_verdict *v)
{
	size_t n;

	if (!r->n || r->w[0].idle)
		return 0;
	if (!r->cliff)
		return judge_flat(r, v);
	n = judge_cliff(r, v);
	if (r->idle_ns)
		n += judge_recovery(r, v + n);
	return n;
}

/*
 * The window size of t: the step between the first pass's rows, or with
 * one row its rate times its time, to the sector.
 */
static uint64_t window_of(const struct table *t)
{
	double w;

	if (t->nrows >= 2 && t->rows[1].v[2] == 0 &&
	    t->rows[1].key > t->rows[0].key)
		return t->rows[1].key - t->rows[0].key;
	w = t->rows[0].v[1] * t->rows[0].v[0] / 1e9;
	return (uint64_t)(w / 512 + 0.5) * 512;
}

/* The run t holds, the rule replayed; 0 or -ENOMEM. */
static int from_table(const struct table *t, struct sus_run *r)
{
	size_t i;
	int ret;

	memset(r, 0, sizeof(*r));
	r->window = window_of(t);
	r->end = t->ended < SUS_NEND ? (enum sus_end)t->ended : SUS_CUT;
	r->idle_ns = t->idle_ns;
	for (i = 0; i < t->nrows; i++) {
		const struct table_row *w = &t->rows[i];

		if (!(w->v[0] > 0))
			continue;
		ret = sus_add(r, w->key - t->rows[0].key, (uint64_t)w->v[0],
			      w->v[2] != 0);
		if (ret)
			return ret;
	}
	return 0;
}

size_t sus_judge_tables(const struct table *tabs, size_t n,
			struct sus_verdict *v)
{
	struct sus_run r;
	size_t i, got = 0;

	for (i = 0; i < n && !got; i++) {
		if (tabs[i].kind != TAB_SUSTAINED || !tabs[i].nrows)
			continue;
		if (!from_table(&tabs[i], &r) && r.window)
			got = judge(&r, v);
		sus_free(&r);
	}
	return got;
}

void sus_print_tables(FILE *f, const struct table *tabs, size_t n,
		      const char *prefix)
{
	struct sus_verdict v[SUS_VERDICTS];
	size_t i, got = sus_judge_tables(tabs, n, v);

	for (i = 0; i < got; i++)
		fprintf(f, "%s%s: %s (%s) -- %s\n", prefix, v[i].key,
			v[i].value, conf_word[v[i].conf], v[i].evidence);
}

const char *sus_conf_word(int conf)
{
	return conf_word[conf];
}

void sus_free(struct sus_run *r)
{
	free(r->w);
	memset(r, 0, sizeof(*r));
}
