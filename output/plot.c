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
	case TAB_SUSTAINED: return 1;		/* the window's rate */
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

/* Rows keyed by where on the device, not by a size: a linear x axis. */
static int by_offset(const struct table *t)
{
	return t->kind == TAB_SCATTER || t->kind == TAB_SUSTAINED;
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
		[TAB_EWRITE] = { "--find-erase: time of writes entering "
				 "multiples of a size", "size", "write time",
				 AXIS_SIZE, AXIS_TIME },
		[TAB_CAPACITY] = { "--capacity: what each probe read back",
				   "offset", "status", AXIS_SIZE, AXIS_TIME },
		[TAB_SUSTAINED] = { "--sustained: write rate of each window",
				    "offset", "rate", AXIS_SIZE, AXIS_RATE },
	};
	char bs[UNIT_BUFLEN];

	snprintf(c->title, sizeof(c->title), "%s", kinds[t->kind].title);
	/* --sustained writes chunks of its own, whatever the block size */
	if (t->blocksize && t->kind != TAB_SUSTAINED)
		snprintf(c->title + strlen(c->title),
			 sizeof(c->title) - strlen(c->title),
			 " (blocksize %s)", fmt_size(bs, (double)t->blocksize));
	c->xname = kinds[t->kind].xname;
	c->yname = kinds[t->kind].yname;
	c->xunit = kinds[t->kind].xunit;
	c->yunit = kinds[t->kind].yunit;
	c->xlog2 = !by_offset(t);
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

/* Rows of t with timed writes: those charted for latency. */
static size_t latency_rows(const struct table *t)
{
	size_t k, n = 0;

	for (k = 0; k < t->nrows; k++)
		n += t->rows[k].lat != NULL;
	return n;
}

enum latency_chart { LAT_SCATTER, LAT_CDF, LAT_CDF_ALL };

static void latency_axes(struct chart *c, const struct table *t,
			 enum latency_chart which)
{
	static const struct {
		const char *title, *xname, *yname;
		enum axis_unit xunit, yunit;
	} kinds[] = {
		[LAT_SCATTER] = { "latency of each write (a dot per 1/8 "
				  "doubling)", "write size",
				  "write latency (log)", AXIS_SIZE, AXIS_TIME },
		[LAT_CDF] = { "share of writes at most this slow, a line per "
			      "size", "write latency (log)",
			      "writes (cumulative)", AXIS_TIME, AXIS_PERCENT },
		[LAT_CDF_ALL] = { "share of writes at most this slow",
				  "write latency (log)", "writes (cumulative)",
				  AXIS_TIME, AXIS_PERCENT },
	};

	snprintf(c->title, sizeof(c->title), "%s: %s",
		 table_kind_name(t->kind), kinds[which].title);
	c->xname = which == LAT_SCATTER && by_offset(t) ? "offset" :
		   kinds[which].xname;
	c->yname = kinds[which].yname;
	c->xunit = kinds[which].xunit;
	c->yunit = kinds[which].yunit;
}

/* Room for a point per latency bucket of every row. */
static int bucket_points(struct chart_data *d, const struct table *t)
{
	d->x = calloc(t->nrows * LAT_NBUCKETS, sizeof(double));
	d->y = calloc(t->nrows * LAT_NBUCKETS, sizeof(double));
	return d->x && d->y ? 0 : -ENOMEM;
}

static void stall_mark(struct chart *c, const struct table *t, int across)
{
	char d[UNIT_BUFLEN];
	size_t k;

	for (k = 0; k < t->nrows && !t->rows[k].lat; k++)
		;
	c->mark[0].x = (double)t->rows[k].lat->threshold_ns;
	c->mark[0].horizontal = across;
	snprintf(c->mark[0].label, sizeof(c->mark[0].label), "stall %s",
		 fmt_time(d, c->mark[0].x));
	c->nmark = 1;
}

/*
 * Each write against its size: a dot per latency bucket some write of
 * that size fell in (the buckets' resolution, 8 to a doubling), on a
 * log axis with the stall threshold across.
 */
static int latency_scatter(struct chart *c, struct chart_data *d,
			   const struct table *t)
{
	size_t k, n = 0;
	unsigned i;

	if (bucket_points(d, t))
		return -ENOMEM;
	for (k = 0; k < t->nrows; k++) {
		const struct latency *l = t->rows[k].lat;

		for (i = 0; l && i < LAT_NBUCKETS; i++) {
			if (!l->bucket[i])
				continue;
			d->x[n] = (double)t->rows[k].key;
			d->y[n++] = latency_bucket_ns(l, i);
		}
	}
	latency_axes(c, t, LAT_SCATTER);
	c->xlog2 = !by_offset(t);
	c->ylog10 = c->points = 1;
	c->s[0] = (struct chart_series){ .x = d->x, .y = d->y, .n = n };
	c->ns = 1;
	stall_mark(c, t, 1);
	return 0;
}

/* The next series of c: percent of l's writes at or under each latency. */
static void cdf_line(struct chart *c, struct chart_data *d,
		     const struct latency *l)
{
	struct chart_series *s = &c->s[c->ns];
	double seen = 0, *x = d->x + c->ns * LAT_NBUCKETS;
	double *y = d->y + c->ns * LAT_NBUCKETS;
	size_t n = 0;
	unsigned i;

	for (i = 0; i < LAT_NBUCKETS; i++) {
		if (!l->bucket[i])
			continue;
		seen += l->bucket[i];
		x[n] = latency_bucket_ns(l, i);
		y[n++] = 100.0 * seen / (double)l->count;
	}
	s->x = x;
	s->y = y;
	s->n = n;
	c->ns++;
}

/* Every row's writes in one: the windows of --sustained are one size. */
static void merge_rows(const struct table *t, struct latency *all)
{
	size_t k;
	unsigned i;

	memset(all, 0, sizeof(*all));
	for (k = 0; k < t->nrows; k++) {
		const struct latency *l = t->rows[k].lat;

		if (!l)
			continue;
		for (i = 0; i < LAT_NBUCKETS; i++)
			all->bucket[i] += l->bucket[i];
		all->min_ns = all->count && all->min_ns < l->min_ns ?
			      all->min_ns : l->min_ns;
		all->max_ns = all->max_ns > l->max_ns ? all->max_ns : l->max_ns;
		all->count += l->count;
		all->over += l->over;
		all->threshold_ns = l->threshold_ns;
	}
}

/*
 * Percent of the writes at or under each latency: a line per size, or
 * one for all the writes of a table whose rows are places, not sizes.
 */
static int latency_cdf(struct chart *c, struct chart_data *d,
		       const struct table *t)
{
	struct latency all;
	size_t k;

	if (bucket_points(d, t))
		return -ENOMEM;
	if (by_offset(t)) {
		merge_rows(t, &all);
		snprintf(c->s[c->ns].label, sizeof(c->s[0].label),
			 "every write");
		cdf_line(c, d, &all);
	}
	for (k = 0; !by_offset(t) && k < t->nrows &&
	     c->ns < CHART_MAXSERIES; k++) {
		char size[UNIT_BUFLEN];

		if (!t->rows[k].lat)
			continue;
		snprintf(c->s[c->ns].label, sizeof(c->s[0].label), "%s",
			 fmt_size(size, (double)t->rows[k].key));
		cdf_line(c, d, t->rows[k].lat);
	}
	latency_axes(c, t, by_offset(t) ? LAT_CDF_ALL : LAT_CDF);
	c->xlog10 = 1;
	stall_mark(c, t, 0);
	return 0;
}

int plot_tables(FILE *f, const struct table *t, size_t n,
		const struct analysis *a)
{
	size_t i, m = n;
	struct chart *c;
	struct chart_data *d;
	int ret;

	for (i = 0; i < n; i++)
		m += latency_rows(&t[i]) ? 2 : 0;
	c = calloc(m ? m : 1, sizeof(*c));
	d = calloc(m ? m : 1, sizeof(*d));
	ret = c && d ? 0 : -ENOMEM;
	for (i = 0, m = 0; i < n && !ret; i++) {
		ret = fill(&c[m], &d[m], &t[i], a);
		m++;
		if (ret || !latency_rows(&t[i]))
			continue;
		ret = latency_scatter(&c[m], &d[m], &t[i]);
		m++;
		if (!ret)
			ret = latency_cdf(&c[m], &d[m], &t[i]);
		m++;
	}
	if (!ret)
		ret = svg_write(f, c, m);
	for (i = 0; d && i < m; i++) {
		free(d[i].x);
		free(d[i].y);
	}
	free(d);
	free(c);
	return ret;
}
