// SPDX-License-Identifier: GPL-2.0
/*
 * The erase test (--erase): timed discards of each size from the erase
 * size down to the block size, aligned to an AU and straddling an AU
 * boundary by one block.  Destructive.
 */
#include <errno.h>
#include <stdio.h>

#include "testdesc.h"
#include "lib/units.h"

/* Discards are spaced two AUs apart so the misaligned ones never overlap. */
static double region_end(const struct opts *o)
{
	/* in double: for messages, the numbers may overflow 64 bits */
	return (double)write_offset(o) + 2.0 * (double)o->erasesize * o->count;
}

static int erase_validate(const struct opts *o, const struct dev *d,
			  char *err, size_t errlen)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	char need[4 * UNIT_BUFLEN];

	if (check_offset(o, d, err, errlen))
		return -EINVAL;
	/* region_end(o) <= d->size, without overflowing */
	if (o->erasesize <= (d->size - write_offset(o)) / 2 / o->count)
		return 0;
	snprintf(need, sizeof(need), "%u discards of up to %s spaced %s "
		 "apart need %s", o->count, fmt_size(a, (double)o->erasesize),
		 fmt_size(b, 2.0 * (double)o->erasesize),
		 fmt_size(c, region_end(o)));
	return does_not_fit(err, errlen, d, need, "count", o->count_arg,
			    "erasesize", o->erasesize_arg, "offset",
			    o->offset_arg, NULL);
}

static struct vm_node *discards(struct prog *p, const struct opts *o,
				int64_t shift, const char *label)
{
	struct vm_node *io = prog_node(p, VM_IO);
	struct vm_node *aus = prog_node(p, VM_LOOP);

	io->io = IO_DISCARD;
	io->off = expr_var(VAR_AU, shift);
	io->len = expr_var(VAR_LEN, 0);

	aus->var = VAR_AU;
	aus->order = ORD_LINEAR;
	aus->start = expr_const((int64_t)write_offset(o));
	aus->stride = expr_const(2 * (int64_t)o->erasesize);
	aus->count = expr_const(o->count);
	aus->reduce = RED_AVG;
	aus->fmt = FMT_TIME;
	aus->label = label;
	prog_kids(p, aus, io, NULL);
	return aus;
}

static struct vm_node *rate_of(struct prog *p, unsigned col)
{
	struct vm_node *r = prog_node(p, VM_RATEOF);

	r->a = col;
	r->fmt = FMT_RATE;
	return r;
}

static const struct vm_node *erase_build(struct prog *p, const struct opts *o,
					 const struct dev *d)
{
	struct vm_node *aligned = discards(p, o, 0, "aligned ");
	struct vm_node *misaligned = discards(p, o,
			(int64_t)o->erasesize - (int64_t)o->blocksize,
			"misaligned ");
	struct vm_node *row = prog_node(p, VM_ROW);

	(void)d;
	row->width = ROW_COL_WIDTH;
	prog_kids(p, row, aligned, rate_of(p, 0), misaligned, rate_of(p, 2),
		  NULL);
	return size_series(p, o, row);
}

const struct testdesc testdesc_erase = {
	.name = "erase",
	.kind = TAB_ERASE,
	.writes = 1,
	.validate = erase_validate,
	.build = erase_build,
};

static int discard_validate(const struct opts *o, const struct dev *d,
			    char *err, size_t errlen)
{
	char a[UNIT_BUFLEN];

	if (o->discard_off % d->sector || o->discard_len % d->sector) {
		snprintf(err, errlen,
			 "--discard=%llu:%llu: start and length must be "
			 "multiples of the %u-byte sector",
			 (unsigned long long)o->discard_off,
			 (unsigned long long)o->discard_len, d->sector);
		return -EINVAL;
	}
	if (o->discard_off >= d->size ||
	    o->discard_len > d->size - o->discard_off) {
		snprintf(err, errlen,
			 "--discard=%llu:%llu: past the end of %s (%s)",
			 (unsigned long long)o->discard_off,
			 (unsigned long long)o->discard_len, d->path,
			 fmt_size(a, (double)d->size));
		return -EINVAL;
	}
	return 0;
}

/* One discard of the given range: resets a card to its fresh state. */
static const struct vm_node *discard_build(struct prog *p,
					   const struct opts *o,
					   const struct dev *d)
{
	struct vm_node *io = prog_node(p, VM_IO);
	struct vm_node *row = prog_node(p, VM_ROW);
	struct vm_node *one = prog_node(p, VM_LOOP);

	(void)d;
	io->io = IO_DISCARD;
	io->off = expr_const((int64_t)o->discard_off);
	io->len = expr_var(VAR_LEN, 0);
	io->fmt = FMT_TIME;
	row->key = VAR_LEN;
	row->fmt = FMT_SIZE;
	row->width = ROW_COL_WIDTH;
	prog_kids(p, row, io, rate_of(p, 0), NULL);

	one->var = VAR_LEN;
	one->order = ORD_LINEAR;
	one->start = expr_const((int64_t)o->discard_len);
	one->count = expr_const(1);
	prog_kids(p, one, row, NULL);
	return one;
}

const struct testdesc testdesc_discard = {
	.name = "discard",
	.kind = TAB_ERASE,
	.writes = 1,
	.validate = discard_validate,
	.build = discard_build,
};
