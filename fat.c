// SPDX-License-Identifier: GPL-2.0
/*
 * The find-FAT test (-f): write each of the first AUs of the device whole,
 * in chunks of each size, one column per AU.  An AU that behaves unlike
 * the others is where the card expects the FAT.  Destructive.
 */
#include <errno.h>
#include <stdio.h>

#include "bench.h"
#include "units.h"

static int find_fat_validate(const struct opts *o, const struct dev *d,
			     char *err, size_t errlen)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	if (o->erasesize > d->size / o->fat_nr) {	/* no overflow */
		snprintf(err, errlen,
			 "--fat-nr=%u: %u AUs of %s do not fit on %s (%s)",
			 o->fat_nr, o->fat_nr,
			 fmt_size(a, (double)o->erasesize), d->path,
			 fmt_size(b, (double)d->size));
		return -EINVAL;
	}
	return 0;
}

static const struct vm_node *find_fat_build(struct prog *p,
					    const struct opts *o,
					    const struct dev *d)
{
	struct vm_node *io = prog_node(p, VM_IO);
	struct vm_node *pos = prog_node(p, VM_LOOP);
	struct vm_node *aus = prog_node(p, VM_COLS);
	struct vm_node *row = prog_node(p, VM_ROW);
	struct vm_node *series = prog_node(p, VM_LOOP);

	(void)d;
	io->io = IO_WRITE;
	io->off = expr_var(VAR_AU, 0);
	io->off.mul[VAR_POS] = 1;
	io->len = expr_var(VAR_LEN, 0);

	pos->var = VAR_POS;
	pos->order = o->random ? ORD_LFSR : ORD_LINEAR;
	pos->stride = expr_var(VAR_LEN, 0);
	pos->span = o->erasesize;
	pos->reduce = RED_TOTAL;
	prog_kids(p, pos, io, NULL);

	aus->var = VAR_AU;
	aus->order = ORD_LINEAR;
	aus->stride = expr_const((int64_t)o->erasesize);
	aus->count = expr_const(o->fat_nr);
	aus->fmt = FMT_RATE;
	prog_kids(p, aus, pos, NULL);

	row->key = VAR_LEN;
	row->fmt = FMT_SIZE;
	prog_kids(p, row, aus, NULL);

	series->var = VAR_LEN;
	series->order = ORD_HALVING;
	series->start = expr_const((int64_t)o->erasesize);
	series->stop = o->blocksize;
	prog_kids(p, series, row, NULL);
	return series;
}

const struct bench bench_find_fat = {
	.name = "find-fat",
	.kind = TAB_FAT,
	.writes = 1,
	.validate = find_fat_validate,
	.build = find_fat_build,
};
