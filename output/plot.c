// SPDX-License-Identifier: GPL-2.0
/* What each test's table looks like as a chart. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/plot.h"
#include "output/svg.h"
#include "lib/units.h"

/* The chart's data: x (the row keys), then ncols columns of y. */
struct chart_data {
	double *x, *y;
};

static unsigned value_cols(const struct table *t)
{
	switch (t->kind) {
	case TAB_SWEEP:
	case TAB_FAT:
		return t->ncols;
	case TAB_ERASE:
		return 2;
	default:
		return 1;
	}
}

/* Which value of a row a series shows. */
static unsigned value_index(const struct table *t, unsigned col)
{
	switch (t->kind) {
	case TAB_ALIGN: return 3;		/* diff */
	case TAB_ERASE: return col ? 3 : 1;	/* misaligned, aligned rate */
	default: return col;
	}
}

static void series_label(const struct table *t, unsigned col, char *buf,
			 size_t len)
{
	const char *mode = t->random ? "random" : "linear";

	switch (t->kind) {
	case TAB_SWEEP:
		snprintf(buf, len, "%s=%u", mode, t->col_nr[col]);
		break;
	case TAB_OPENAU:
		if (t->open_au_nr)
			snprintf(buf, len, "%s=%u", mode, t->open_au_nr);
		else
			*buf = '\0';
		break;
	case TAB_FAT:
		snprintf(buf, len, "AU %u", col);
		break;
	case TAB_ERASE:
		snprintf(buf, len, col ? "misaligned" : "aligned");
		break;
	default:
		*buf = '\0';
	}
}

static void axes_of(const struct table *t, struct chart *c)
{
	static const struct {
		const char *title, *xname, *yname;
		enum axis_unit xunit, yunit;
	} kinds[] = {
		[TAB_ALIGN] = { "-a: diff = on - (pre+post)/2 per boundary",
				"boundary", "diff", AXIS_SIZE, AXIS_TIME },
		[TAB_OPENAU] = { "-O: write rate", "write size", "rate",
				 AXIS_SIZE, AXIS_RATE },
		[TAB_SWEEP] = { "-O: write rate, a line per number of open AUs",
				"write size", "rate", AXIS_SIZE, AXIS_RATE },
		[TAB_FAT] = { "-f: write rate, a line per AU", "write size",
			      "rate", AXIS_SIZE, AXIS_RATE },
		[TAB_ERASE] = { "--erase, --discard: discard rate",
				"discard size", "rate", AXIS_SIZE, AXIS_RATE },
		[TAB_SCATTER] = { "-s: read time against offset", "offset",
				  "read time", AXIS_SIZE, AXIS_TIME },
		[TAB_INTERVAL] = { "-i: read time against size", "read size",
				   "read time", AXIS_SIZE, AXIS_TIME },
		[TAB_IOPS] = { "--iops: 4KiB random read time", "size",
			       "read time", AXIS_SIZE, AXIS_TIME },
	};
	char bs[UNIT_BUFLEN];

	snprintf(c->title, sizeof(c->title), "%s", kinds[t->kind].title);
	if (t->blocksize)
		snprintf(c->title + strlen(c->title),
			 sizeof(c->title) - strlen(c->title),
			 " (blocksize %s)", fmt_size(bs, (double)t->blocksize));
	c->xname = kinds[t->kind].xname;
	c->yname = kinds[t->kind].yname;
	c->xunit = kinds[t->kind].xunit;
	c->yunit = kinds[t->kind].yunit;
	c->xlog2 = t->kind != TAB_SCATTER;
	c->points = t->kind == TAB_SCATTER;
}

static void mark(struct chart *c, const char *what, const struct verdict *v)
{
	struct chart_mark *m;
	char size[UNIT_BUFLEN];

	if (v->type != V_BYTES || v->is_null || v->conf == CONF_INCONCLUSIVE ||
	    c->nmark == CHART_MAXMARKS)
		return;
	m = &c->mark[c->nmark++];
	m->x = (double)v->value;
	snprintf(m->label, sizeof(m->label), "%s %s (%s)", what,
		 fmt_size(size, (double)v->value), confidence_name(v->conf));
}

static int fill(struct chart *c, struct chart_data *d, const struct table *t,
		const struct analysis *a)
{
	unsigned col, ncols = value_cols(t);
	size_t k;

	if (ncols > CHART_MAXSERIES)
		ncols = CHART_MAXSERIES;
	d->x = calloc(t->nrows ? t->nrows : 1, sizeof(double));
	d->y = calloc((t->nrows ? t->nrows : 1) * (ncols ? ncols : 1),
		      sizeof(double));
	if (!d->x || !d->y)
		return -ENOMEM;
	axes_of(t, c);
	for (k = 0; k < t->nrows; k++)
		d->x[k] = (double)t->rows[k].key;
	for (col = 0; col < ncols; col++) {
		struct chart_series *s = &c->s[c->ns++];
		double *y = d->y + (size_t)col * t->nrows;

		for (k = 0; k < t->nrows; k++)
			y[k] = t->rows[k].v[value_index(t, col)];
		series_label(t, col, s->label, sizeof(s->label));
		s->x = d->x;
		s->y = y;
		s->n = t->nrows;
	}
	if (t->kind == TAB_ALIGN && a) {
		mark(c, "erase", &a->erase_size);
		mark(c, "page", &a->page_size);
	}
	return 0;
}

int plot_tables(FILE *f, const struct table *t, size_t n,
		const struct analysis *a)
{
	struct chart *c = calloc(n ? n : 1, sizeof(*c));
	struct chart_data *d = calloc(n ? n : 1, sizeof(*d));
	size_t i;
	int ret = c && d ? 0 : -ENOMEM;

	for (i = 0; i < n && !ret; i++)
		ret = fill(&c[i], &d[i], &t[i], a);
	if (!ret)
		ret = svg_write(f, c, n);
	for (i = 0; d && i < n; i++) {
		free(d[i].x);
		free(d[i].y);
	}
	free(d);
	free(c);
	return ret;
}
