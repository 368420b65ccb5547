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
static uint64_t region_len(const struct opts *o, const struct dev *d)
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
	if (region_len(o, d) >= len)
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
	uint64_t stride = region_len(o, d) / o->count;
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
				       region_len(o, d) / IOPS_SEQ_IO);

	loop->order = ORD_LINEAR;
	loop->reduce = RED_TOTAL;
	return loop;
}

static const struct vm_node *iops_build(struct prog *p, const struct opts *o,
					const struct dev *d)
{
	struct vm_node *row = prog_node(p, VM_ROW);
	struct vm_node *rate = prog_node(p, VM_RATEOF);
	struct vm_node *one = prog_node(p, VM_LOOP);

	rate->a = 2;
	rate->fmt = FMT_RATE;
	rate->label = "seq ";
	row->key = VAR_LEN;
	row->fmt = FMT_SIZE;
	row->width = ROW_COL_WIDTH;
	prog_kids(p, row, random_ios(p, o, d, IO_READ, "read "),
		  random_ios(p, o, d, IO_WRITE, "write "), sequential(p, o, d),
		  rate, NULL);
	one->var = VAR_LEN;
	one->order = ORD_LINEAR;
	one->start = expr_const((int64_t)IOPS_IO);
	one->count = expr_const(1);
	prog_kids(p, one, row, NULL);
	return one;
}

/* A performance class: its floors, 0 where it sets none. */
struct perf_class {
	const char *name;
	double read_iops, write_iops, seq_mbps;
};

/* SD Physical Layer: the speed, UHS, video and application classes. */
static const struct perf_class classes[] = {
	{ "A1", 1500, 500, 10 }, { "A2", 4000, 2000, 10 },
	{ "C2", 0, 0, 2 }, { "C4", 0, 0, 4 }, { "C6", 0, 0, 6 },
	{ "C10", 0, 0, 10 }, { "U1", 0, 0, 10 }, { "U3", 0, 0, 30 },
	{ "V6", 0, 0, 6 }, { "V10", 0, 0, 10 }, { "V30", 0, 0, 30 },
	{ "V60", 0, 0, 60 }, { "V90", 0, 0, 90 },
};

/*
 * A measurement qualifies for a floor only this far above it: one run's
 * averages move by some percent between runs, and a class named is a
 * promise, so a value just over the floor is not one.
 */
#define CLASS_MARGIN 1.10

static int reaches(double v, double floor)
{
	return !floor || (v == v && v >= floor * CLASS_MARGIN);
}

static void print_classes(FILE *f, double rd, double wr, double mbps)
{
	const char *sep = "";
	size_t i;

	fputs("qualifies for ", f);
	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (!reaches(rd, classes[i].read_iops) ||
		    !reaches(wr, classes[i].write_iops) ||
		    !reaches(mbps, classes[i].seq_mbps))
			continue;
		fprintf(f, "%s%s", sep, classes[i].name);
		sep = ", ";
	}
	fprintf(f, "%s (from measurement; the card's claims are not readable "
		"here)\n", *sep ? "" : "no class");
}

static void iops_print(FILE *f, const struct table *t, const struct opts *o)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	const double *v;
	double rd, wr;

	(void)o;
	if (!t->nrows)
		return;
	v = t->rows[0].v;
	rd = v[0] > 0 ? 1e9 / v[0] : 0;
	wr = v[1] > 0 ? 1e9 / v[1] : 0;
	fprintf(f, "4KiB random: read %.0f IOPS (%s), write %.0f IOPS (%s); "
		"sequential write %s\n", rd, fmt_time(a, v[0]), wr,
		fmt_time(b, v[1]), fmt_rate(c, v[3]));
	print_classes(f, rd, wr, v[3] / 1e6);
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
