// SPDX-License-Identifier: GPL-2.0
/*
 * Interval (-i): read sizes sector << i for i below --interval-order,
 * count times at a few places, and a least-squares fit of time = access +
 * size / throughput.  Read-only.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "testdesc.h"
#include "lib/units.h"

#define INTERVAL_PLACES 8

static uint64_t largest(const struct opts *o, const struct dev *d)
{
	return (uint64_t)d->sector << (o->interval_order - 1);
}

static int interval_validate(const struct opts *o, const struct dev *d,
			     char *err, size_t errlen)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], need[3 * UNIT_BUFLEN];

	if (largest(o, d) * INTERVAL_PLACES <= d->size)
		return 0;
	snprintf(need, sizeof(need), "reads of up to %s at %d places need %s",
		 fmt_size(a, (double)largest(o, d)), INTERVAL_PLACES,
		 fmt_size(b, (double)largest(o, d) * INTERVAL_PLACES));
	return does_not_fit(err, errlen, d, need, "interval-order",
			    o->interval_order_arg, NULL);
}

/*
 * Each size is read count times at each place; the row holds the fastest
 * read (the fit's input, as the classic's MB/s), the mean and the slowest.
 */
static const struct vm_node *interval_build(struct prog *p,
					    const struct opts *o,
					    const struct dev *d)
{
	struct vm_node *io = prog_node(p, VM_IO);
	struct vm_node *place = prog_node(p, VM_LOOP);
	struct vm_node *avg = prog_node(p, VM_AVGOF);
	struct vm_node *max = prog_node(p, VM_MAXOF);
	struct vm_node *row = prog_node(p, VM_ROW);
	struct vm_node *series = prog_node(p, VM_LOOP);

	io->io = IO_READ;
	io->off = expr_var(VAR_PLACE, 0);
	io->len = expr_var(VAR_LEN, 0);

	place->var = VAR_PLACE;
	place->order = ORD_LINEAR;
	place->stride = expr_const((int64_t)(d->size / INTERVAL_PLACES /
					     largest(o, d) * largest(o, d)));
	place->count = expr_const(INTERVAL_PLACES);
	place->reduce = RED_MIN;
	place->fmt = FMT_TIME;
	prog_kids(p, place, best_of(p, o, io), NULL);
	avg->fmt = FMT_TIME;
	max->fmt = FMT_TIME;

	row->key = VAR_LEN;
	row->fmt = FMT_SIZE;
	prog_kids(p, row, place, avg, max, NULL);

	series->var = VAR_LEN;
	series->order = ORD_HALVING;
	series->start = expr_const((int64_t)largest(o, d));
	series->stop = d->sector;
	prog_kids(p, series, row, NULL);
	return series;
}

/*
 * Least squares over (size, fastest time) in double precision, with the
 * time per byte held at or above zero: a card cannot read more bytes in
 * less time, so a falling line (reads too fast to tell apart from the
 * noise, as on a loop device) becomes the flat one, access = mean time.
 */
static int fit(const struct table *t, double *access, double *per_byte)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0, den;
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		double x = (double)t->rows[i].key, y = t->rows[i].v[0];

		if (isnan(y))
			continue;
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
		n++;
	}
	den = n * sxx - sx * sx;
	if (n < 2 || den == 0)
		return -EINVAL;
	*per_byte = (n * sxy - sx * sy) / den;
	if (*per_byte < 0)
		*per_byte = 0;
	*access = (sy - *per_byte * sx) / n;
	return 0;
}

/*
 * The classic lines, "512 bytes: min 52.1µs avg 104µs max 252µs: 9.83 MB/s"
 * (MB/s: 10^6 bytes per second of the fastest read), then the fit, "929 MB/s,
 * 41.2µs access time"; "inf MB/s" when the time does not grow with the
 * size), and each size's distance from it.
 */
static void interval_print(FILE *f, const struct table *t,
			   const struct opts *o)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	double access, per_byte;
	size_t i;

	(void)o;
	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = &t->rows[i];

		fprintf(f, "%llu bytes: min %s avg %s max %s: %g MB/s\n",
			(unsigned long long)r->key, fmt_time(a, r->v[0]),
			fmt_time(b, r->v[1]), fmt_time(c, r->v[2]),
			(double)r->key * 1e3 / r->v[0]);
	}
	if (fit(t, &access, &per_byte)) {
		fprintf(f, "fit: needs at least two read sizes\n");
		return;
	}
	fprintf(f, "%g MB/s, %s access time\n",
		per_byte > 0 ? 1e3 / per_byte : INFINITY, fmt_time(a, access));
	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = &t->rows[i];

		fprintf(f, "bytes %llu, time %.0f overhead %.0f\n",
			(unsigned long long)r->key, r->v[0],
			r->v[0] - access - per_byte * (double)r->key);
	}
}

const struct testdesc testdesc_interval = {
	.name = "interval",
	.kind = TAB_INTERVAL,
	.validate = interval_validate,
	.build = interval_build,
	.sorted = 1,
	.print = interval_print,
};
