// SPDX-License-Identifier: GPL-2.0
/*
 * The alignment test (-a): reads of blocksize bytes ending at, centred
 * on and starting at each boundary; a boundary the controller cares about
 * makes the centred read slower.  Read-only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "testdesc.h"
#include "lib/units.h"

/* The classic samples each boundary at this many places. */
#define ALIGN_PLACES 7
/*
 * Rounds by default, where the classic took the best of 8: a page's step
 * (20-30 µs) is often within the scatter of 8 reads, and reads cost no
 * wear.  On the accuracy suite's cards (--cards 300, seeds 1/3/7/11) the
 * page verdicts went from 79-82 % right to 94-96 %, the erase verdicts
 * from 91-93 % to 93-95 %; -a on sim:sd08g reads for 12 s, not 3.
 */
#define ALIGN_COUNT 32

/*
 * The largest boundary, as the classic: blocksize times the largest power
 * of two that fits four times on the device.
 */
static uint64_t max_align(const struct opts *o, const struct dev *d)
{
	uint64_t a = o->blocksize;

	if (a > d->size / 4)
		return 0;
	while (a <= d->size / 8)
		a *= 2;
	return a;
}

/*
 * Places maxalign apart where every read of the test fits, for the largest
 * boundary and so for all.  The classic took its places modulo the device
 * size, so some fell off the boundary or read past the end; these repeat.
 */
static uint64_t places(const struct opts *o, const struct dev *d)
{
	uint64_t m = max_align(o, d);

	if (!m || d->size < m + o->blocksize)
		return 0;
	return (d->size - o->blocksize) / m;
}

static int align_validate(const struct opts *o, const struct dev *d,
			  char *err, size_t errlen)
{
	char s[UNIT_BUFLEN], n[UNIT_BUFLEN], v[32], need[3 * UNIT_BUFLEN];

	if ((o->blocksize / 2) % d->sector) {
		snprintf(err, errlen,
			 "--blocksize=%s: the alignment test reads across "
			 "boundaries at half a block, which must be a multiple "
			 "of the %u-byte sector",
			 shown(o->blocksize_arg, o->blocksize, v, sizeof(v)),
			 d->sector);
		return -EINVAL;
	}
	if (max_align(o, d) >= 2 * o->blocksize && places(o, d))
		return 0;
	/* boundaries from twice the block to a quarter of the device */
	snprintf(need, sizeof(need), "the alignment test with blocks of %s "
		 "needs %s", fmt_size(s, (double)o->blocksize),
		 fmt_size(n, 8.0 * (double)o->blocksize));
	return does_not_fit(err, errlen, d, need, "blocksize",
			    o->blocksize_arg, NULL);
}

/*
 * A read at each place, averaged over the places; the row takes the best
 * of --count rounds at each place (align_build()).
 */
static struct vm_node *sample(struct prog *p, const struct opts *o,
			      int64_t shift, const char *label)
{
	struct vm_node *io = prog_node(p, VM_IO);
	struct vm_node *place = prog_node(p, VM_LOOP);

	io->io = IO_READ;
	io->off = expr_var(VAR_PLACE, shift);
	io->off.mul[VAR_ALIGN] = 1;
	io->len = expr_const((int64_t)o->blocksize);

	place->var = VAR_PLACE;
	place->order = ORD_LIST;
	place->list = p->list;
	place->count = expr_const(ALIGN_PLACES);
	place->reduce = RED_AVG;
	place->keep = 1;
	place->fmt = FMT_TIME;
	place->label = label;
	prog_kids(p, place, io, NULL);
	return place;
}

/* Offsets of the places from the boundary: k * maxalign, k mod places. */
static uint64_t *place_list(const struct opts *o, const struct dev *d)
{
	uint64_t *l = calloc(ALIGN_PLACES, sizeof(*l)), k;

	if (!l)
		return NULL;
	for (k = 0; k < ALIGN_PLACES; k++)
		l[k] = k % places(o, d) * max_align(o, d);
	return l;
}

static const struct vm_node *align_build(struct prog *p, const struct opts *o,
					 const struct dev *d)
{
	int64_t bs = (int64_t)o->blocksize;
	struct vm_node *pre, *on, *post, *diff, *row, *series;

	p->list = place_list(o, d);
	if (!p->list)
		return NULL;
	pre = sample(p, o, -bs, "pre ");
	on = sample(p, o, -bs / 2, "on ");
	post = sample(p, o, 0, "post ");
	diff = prog_node(p, VM_DIFF);
	row = prog_node(p, VM_ROW);
	series = prog_node(p, VM_LOOP);

	diff->a = 0;
	diff->b = 1;
	diff->c = 2;
	diff->fmt = FMT_TIME;
	diff->label = "diff ";

	row->key = VAR_ALIGN;
	row->fmt = FMT_NUM;
	row->label = "align ";
	/*
	 * pre, on and post in turn, --count times over: a baseline that
	 * shifts while the row is read (seed 002's rows move by 10-25 %)
	 * shifts all three, where read one column after the other the shift
	 * would pass for a boundary's step
	 */
	row->rounds = o->count;
	prog_kids(p, row, pre, on, post, diff, NULL);

	series->var = VAR_ALIGN;
	series->order = ORD_HALVING;
	series->start = expr_const((int64_t)max_align(o, d));
	series->stop = 2 * o->blocksize;
	prog_kids(p, series, row, NULL);
	return series;
}

const struct testdesc testdesc_align = {
	.name = "align",
	.kind = TAB_ALIGN,
	.validate = align_validate,
	.build = align_build,
	.count = ALIGN_COUNT,
};
