// SPDX-License-Identifier: GPL-2.0
/*
 * The IOPS test (--iops): 4 KiB reads and writes at queue depth 1 at
 * pseudo-random places of a bounded region, then a sequential write rate
 * over the same region; one row, and a line naming the performance
 * classes the measurement reaches.  Destructive.
 */
#include <errno.h>
#include <stdio.h>

#include "testdesc.h"
#include "lib/units.h"

/* The size the A1/A2 application classes count their IOPS in. */
#define IOPS_IO (4ull << 10)
/* The region: bounded, so a run on a large card touches a known part. */
#define IOPS_REGION (256ull << 20)
/* Sequential writes of this size: large enough to reach the card's rate. */
#define IOPS_SEQ_IO (4ull << 20)

/* The region's length: IOPS_REGION, or what is left after the offset. */
uint64_t iops_region(const struct opts *o, const struct dev *d)
{
	uint64_t left = d->size - write_offset(o);

	left -= left % IOPS_SEQ_IO;
	return left < IOPS_REGION ? left : IOPS_REGION;
}

static int iops_validate(const struct opts *o, const struct dev *d,
			 char *err, size_t errlen)
{
	char need[3 * UNIT_BUFLEN + 64], a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	char c[UNIT_BUFLEN];
	uint64_t len = round_up((uint64_t)o->count * IOPS_IO, IOPS_SEQ_IO);

	if (check_offset(o, d, err, errlen))
		return -EINVAL;
	if (iops_region(o, d) >= len)
		return 0;
	snprintf(need, sizeof(need), "%u random 4KiB writes and a %s "
		 "sequential write from offset %s need %s", o->count,
		 fmt_size(a, (double)IOPS_SEQ_IO),
		 fmt_size(b, (double)write_offset(o)),
		 fmt_size(c, (double)write_offset(o) + (double)len));
	return does_not_fit(err, errlen, d, need, "count", o->count_arg,
			    "offset", o->offset_arg, NULL);
}

/*
 * count I/Os of len bytes from the region's start, stride apart, in the
 * given order, each offset VAR_POS.
 */
static struct vm_node *io_loop(struct prog *p, const struct opts *o,
			       enum io_kind kind, uint64_t len,
			       uint64_t stride, uint64_t count)
{
	struct vm_node *io = prog_node(p, VM_IO);
	struct vm_node *loop = prog_node(p, VM_LOOP);

	io->io = kind;
	io->off = expr_var(VAR_POS, 0);
	io->len = expr_const((int64_t)len);
	loop->var = VAR_POS;
	loop->start = expr_const((int64_t)write_offset(o));
	loop->stride = expr_const((int64_t)stride);
	loop->count = expr_const((int64_t)count);
	prog_kids(p, loop, io, NULL);
	return loop;
}

/* count 4 KiB I/Os spread over the region, in pseudo-random order. */
static struct vm_node *random_ios(struct prog *p, const struct opts *o,
				  const struct dev *d, enum io_kind kind,
				  const char *label)
{
	uint64_t stride = iops_region(o, d) / o->count;
	struct vm_node *loop;

	stride -= stride % IOPS_IO;
	loop = io_loop(p, o, kind, IOPS_IO, stride, o->count);
	loop->order = ORD_LFSR;
	loop->reduce = RED_AVG;
	loop->fmt = FMT_TIME;
	loop->label = label;
	return loop;
}

/* The whole region written front to back, IOPS_SEQ_IO at a time. */
static struct vm_node *sequential(struct prog *p, const struct opts *o,
				  const struct dev *d)
{
	struct vm_node *loop = io_loop(p, o, IO_WRITE, IOPS_SEQ_IO,
				       IOPS_SEQ_IO,
				       iops_region(o, d) / IOPS_SEQ_IO);

	loop->order = ORD_LINEAR;
	loop->reduce = RED_TOTAL;
	return loop;
}

/* The one row: the random reads and writes, then (seq) the sequential. */
static const struct vm_node *iops_row(struct prog *p, const struct opts *o,
				      const struct dev *d, int seq)
{
	struct vm_node *row = prog_node(p, VM_ROW);
	struct vm_node *one = prog_node(p, VM_LOOP);
	struct vm_node *rate = NULL;

	if (seq) {
		rate = prog_node(p, VM_RATEOF);
		rate->a = 2;
		rate->fmt = FMT_RATE;
		rate->label = "seq ";
	}
	row->key = VAR_LEN;
	row->fmt = FMT_SIZE;
	row->width = ROW_COL_WIDTH;
	/* without seq the list ends after the writes */
	prog_kids(p, row, random_ios(p, o, d, IO_READ, "read "),
		  random_ios(p, o, d, IO_WRITE, "write "),
		  seq ? sequential(p, o, d) : NULL, rate, NULL);
	one->var = VAR_LEN;
	one->order = ORD_LINEAR;
	one->start = expr_const((int64_t)IOPS_IO);
	one->count = expr_const(1);
	prog_kids(p, one, row, NULL);
	return one;
}

static const struct vm_node *iops_build(struct prog *p, const struct opts *o,
					const struct dev *d)
{
	return iops_row(p, o, d, 1);
}

/*
 * The survey's: the random part alone, as the sequential rate the
 * classes name is the survey's own whole-AU writes' (its N=1 run), and
 * a 256 MiB pass more would cost it far more than the 1 MiB of 4 KiB
 * writes do.
 */
static const struct vm_node *iops_random_build(struct prog *p,
					       const struct opts *o,
					       const struct dev *d)
{
	return iops_row(p, o, d, 0);
}

static void iops_print(FILE *f, const struct table *t, const struct opts *o)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	struct iops_figures m;

	(void)o;
	if (!iops_figures(t, &m))
		return;
	fprintf(f, "4KiB random: read %.0f IOPS (%s), write %.0f IOPS (%s)",
		m.read_iops, fmt_time(a, t->rows[0].v[0]), m.write_iops,
		fmt_time(b, t->rows[0].v[1]));
	if (m.seq_bps > 0)
		fprintf(f, "; sequential write %s", fmt_rate(c, m.seq_bps));
	fputc('\n', f);
}

int iops_figures(const struct table *t, struct iops_figures *m)
{
	const double *v;

	if (t->kind != TAB_IOPS || !t->nrows)
		return 0;
	v = t->rows[0].v;
	m->read_iops = v[0] > 0 ? 1e9 / v[0] : 0;
	m->write_iops = v[1] > 0 ? 1e9 / v[1] : 0;
	m->seq_bps = t->ncols > 2 && v[3] == v[3] ? v[3] : 0;
	return 1;
}

const struct testdesc testdesc_iops = {
	.name = "iops",
	.kind = TAB_IOPS,
	.writes = 1,
	.count = 256,
	.validate = iops_validate,
	.build = iops_build,
	.print = iops_print,
};

const struct testdesc testdesc_iops_random = {
	.name = "iops",
	.kind = TAB_IOPS,
	.writes = 1,
	.count = 256,
	.validate = iops_validate,
	.build = iops_random_build,
	.print = iops_print,
};
