// SPDX-License-Identifier: GPL-2.0
/*
 * The erase size from writes (--find-erase, erasew.c): each row is a
 * candidate size P, the median time of writes entering odd multiples of
 * P against that of the writes right after them.  Odd multiples of P
 * are AU boundaries of a card exactly when its AU divides P, so the AU
 * is the smallest P whose boundary writes are slow, and every multiple
 * of it must be slow too; a size between (4MiB for an AU of 12MiB) has
 * a boundary in a third of its probes, which leaves the median low.
 * Read only where the -a tables gave no erase size.
 */
#include <math.h>

#include "analysis/internal.h"
#include "lib/units.h"

/* Below this the boundary writes are as fast as the rest (jitter). */
#define EW_WEAK 1.2
/*
 * A medium verdict: boundary writes half again as slow.  On the sim's
 * profiles the AU's row is 3.6-7x and sizes not AUs stay within 1.01;
 * a card that copies little on closing an AU (merge 10) shows 1.3.
 */
#define EW_SPIKE 1.5
/* A high one: three times as slow, at the size and all its multiples. */
#define EW_STRONG 3.0
/* High also needs this many multiples measured, all slow. */
#define EW_MULTIPLES 2
/*
 * Medium needs one multiple in this many slow: a fluke of noise at one
 * size is not slow at its multiples too.  Not all of them: whether the
 * AU a card closes to make room was written to its end (its erase
 * alone) or not (a copy as well) depends on how many it holds open, and
 * the chunk grows with the size, so some multiples show a spike of
 * 1.1 (bench/erasew_accuracy.py: 48 of the 82 right verdicts at low
 * came from that rule when it asked for all).
 */
#define EW_MULT_SHARE 2

/*
 * Medium also needs the sizes a half and a third of it (where measured)
 * below this: a card whose closing AU was written to its end pays the
 * erase alone at its true AU and more at twice it (the sim's xporter:
 * 1.19 at its 8MiB, 1.40 at 16MiB), so a divisor a little slow may be
 * the AU.  Jitter of 15 % moves a flat size's ratio by 0.05 or so.
 */
#define EW_FLAT 1.1
/* The divisors checked: P/2 and P/3, the AUs P could be a double of. */
static const unsigned ew_divisors[] = { 2, 3 };
#define EW_NDIV (sizeof(ew_divisors) / sizeof(ew_divisors[0]))

/* Row values, lib/table.h TAB_EWRITE. */
enum { COL_BOUNDARY, COL_OTHER, COL_RATIO };

struct ew_read {
	const struct table_row *at;	/* the smallest slow size */
	unsigned mult, mult_slow;	/* its multiples measured, slow */
	const struct table_row *clash;	/* a slow size not a multiple */
	const struct table_row *first;	/* the smallest size measured */
	const struct table_row *near;	/* P/2 or P/3, not flat */
};

static double ratio(const struct table_row *r)
{
	return r->v[COL_RATIO];
}

static const struct table *ew_table(const struct table *tabs, size_t n)
{
	const struct table *t = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		if (tabs[i].kind == TAB_EWRITE && tabs[i].nrows)
			t = &tabs[i];
	return t;
}

/* A row of key/d, for d among ew_divisors, that is not flat. */
static const struct table_row *near_divisor(const struct table *t,
					    uint64_t key)
{
	size_t i, j;

	for (i = 0; i < t->nrows; i++)
		for (j = 0; j < EW_NDIV; j++)
			if (t->rows[i].key * ew_divisors[j] == key &&
			    ratio(&t->rows[i]) >= EW_FLAT)
				return &t->rows[i];
	return NULL;
}

static void read_rows(const struct table *t, struct ew_read *x)
{
	const struct table_row *r;
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		r = &t->rows[i];
		if (isnan(ratio(r)))
			continue;
		if (!x->first || r->key < x->first->key)
			x->first = r;
		if (!x->at) {
			if (ratio(r) >= EW_WEAK)
				x->at = r;
			continue;
		}
		if (r->key % x->at->key == 0) {
			x->mult++;
			x->mult_slow += ratio(r) >= EW_WEAK;
		} else if (ratio(r) >= EW_SPIKE && !x->clash) {
			x->clash = r;
		}
	}
}

static enum confidence ew_confidence(const struct ew_read *x)
{
	double q = ratio(x->at);

	/* the smallest size tried: the AU may be a divisor of it */
	if (q < EW_SPIKE || x->clash || x->near || x->at == x->first ||
	    x->mult_slow * EW_MULT_SHARE < x->mult)
		return CONF_LOW;
	if (q >= EW_STRONG && x->mult >= EW_MULTIPLES &&
	    x->mult_slow == x->mult)
		return CONF_HIGH;
	return CONF_MEDIUM;
}

static void ew_evidence(const struct ew_read *x, struct verdict *v)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	char *e = v->evidence;
	size_t n = sizeof(v->evidence);

	say(e, n, "writes at %s boundaries %.2fx slower than the rest "
	    "(from writes)",
	    fmt_size(a, (double)x->at->key), ratio(x->at));
	if (x->mult)
		say(e, n, "%u of %u multiples measured slow too",
		    x->mult_slow, x->mult);
	if (x->clash)
		say(e, n, "but also at %s (%.2fx), not a multiple",
		    fmt_size(b, (double)x->clash->key), ratio(x->clash));
	if (x->near)
		say(e, n, "but %s's are %.2fx: the AU may be that",
		    fmt_size(b, (double)x->near->key), ratio(x->near));
	if (x->at == x->first)
		say(e, n, "the smallest size tried: the AU may be smaller");
}

/* The erase size from a --find-erase table into v, which is unset. */
static void erase_writes(const struct table *tabs, size_t n,
			 struct verdict *v)
{
	const struct table *t = ew_table(tabs, n);
	struct ew_read x = { 0 };

	if (!t)
		return;
	verdict_init(v, V_BYTES);
	read_rows(t, &x);
	if (x.at)
		x.near = near_divisor(t, x.at->key);
	if (!x.at) {
		say(v->evidence, sizeof(v->evidence), "no size's boundary "
		    "writes stand out from the rest (from writes)");
		return;
	}
	set_value(v, x.at->key, ew_confidence(&x));
	ew_evidence(&x, v);
}

/* The -a tables' erase size, else the one writes show. */
void family_erase_size(const struct table *tabs, size_t n,
		       const struct analysis_ctx *ctx, struct analysis *out)
{
	struct verdict *e = &out->erase_size;
	struct verdict saved;

	family_align(tabs, n, ctx, out);
	if (e->type != V_NONE && !e->is_null && e->conf >= CONF_MEDIUM)
		return;
	saved = *e;
	erase_writes(tabs, n, e);
	/*
	 * writes that tell nothing leave what -a said (a hint, claims);
	 * a low -a size gives way only to writes that are sure of theirs
	 */
	if (saved.type == V_NONE)
		return;
	if (e->is_null || (!saved.is_null &&
			   saved.conf > CONF_INCONCLUSIVE &&
			   e->conf < CONF_MEDIUM))
		*e = saved;
}
