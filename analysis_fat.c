// SPDX-License-Identifier: GPL-2.0
/* Find-FAT verdicts: the AUs that behave unlike the rest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_int.h"
#include "stats.h"
#include "units.h"

struct fat_eval {
	unsigned hits[TABLE_MAXCOLS];	/* rows where column j stands out */
	int dir[TABLE_MAXCOLS];		/* +1 faster, -1 slower */
	size_t rows, cells, odd;
};

static void fat_scan(const struct table *t, struct fat_eval *e)
{
	unsigned nc = t->ncols < TABLE_MAXCOLS ? t->ncols : TABLE_MAXCOLS, j;
	size_t i;

	memset(e, 0, sizeof(*e));
	for (i = 0; i < t->nrows; i++) {
		const double *v = t->rows[i].v;
		double m = median(v, nc);

		if (!(m > 0))
			continue;
		e->rows++;
		for (j = 0; j < nc; j++) {
			int d = v[j] < 0.75 * m ? -1 : v[j] > 1.33 * m;

			e->cells++;
			if (!d)
				continue;
			e->odd++;
			e->hits[j] += !e->dir[j] || e->dir[j] == d;
			e->dir[j] = d;
		}
	}
}

static void fat_table(const struct table *t, struct verdict *v)
{
	struct fat_eval e;
	size_t noise = 0, special = 0;
	unsigned j, nc = t->ncols < TABLE_MAXCOLS ? t->ncols : TABLE_MAXCOLS;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];

	verdict_init(v, V_LIST);
	fat_scan(t, &e);
	if (nc < 3 || e.rows < 3) {
		say(v->evidence, sizeof(v->evidence), "too few AUs or sizes");
		return;
	}
	v->is_null = 0;
	for (j = 0; j < nc; j++) {
		if (2 * e.hits[j] > e.rows) {
			v->list[v->nlist++] = j;
			special += e.hits[j];
		}
	}
	noise = e.odd - special;
	if (v->nlist) {
		j = (unsigned)v->list[0];
		v->conf = 10 * e.hits[j] >= 9 * e.rows ? CONF_HIGH : CONF_MEDIUM;
		say(v->evidence, sizeof(v->evidence),
		    "AU %u at %s: %s vs median %s; %s in %u of %zu sizes", j,
		    fmt_size(a, (double)t->rows[0].key),
		    fmt_rate(b, t->rows[0].v[j]),
		    fmt_rate(c, median(t->rows[0].v, nc)),
		    e.dir[j] < 0 ? "slower" : "faster", e.hits[j], e.rows);
	} else {
		v->conf = e.rows >= 4 ? CONF_MEDIUM : CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "no AU differs by 25%% in most of %zu sizes", e.rows);
	}
	if (20 * noise > e.cells) {
		v->conf = CONF_LOW;
		say(v->evidence, sizeof(v->evidence),
		    "noisy: %zu of %zu cells off by 25%%", noise, e.cells);
	}
}

void analyze_fat(const struct table *tabs, size_t n, struct verdict *v)
{
	struct verdict cur;
	size_t i;

	verdict_init(v, V_NONE);
	for (i = 0; i < n; i++) {
		if (tabs[i].kind != TAB_FAT)
			continue;
		fat_table(&tabs[i], &cur);
		if (v->type == V_NONE || cur.conf > v->conf ||
		    (cur.conf == v->conf && cur.nlist > v->nlist))
			*v = cur;
	}
}
