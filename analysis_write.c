// SPDX-License-Identifier: GPL-2.0
/* Minimum full-speed write: the smallest size written at the best rate. */
#include <math.h>

#include "analysis_int.h"
#include "units.h"

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

void min_write_verdict(const struct table *tabs, size_t n,
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
