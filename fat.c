// SPDX-License-Identifier: GPL-2.0
/*
 * The find-FAT test (-f): write each of the first AUs of the device whole,
 * in chunks of each size, one column per AU.  An AU that behaves unlike
 * the others is where the card expects the FAT.  With --count, each AU
 * is written that many times and the best kept.  Destructive.
 */
#include <errno.h>
#include <stdio.h>

#include "testdesc.h"
#include "lib/units.h"

static int find_fat_validate(const struct opts *o, const struct dev *d,
			     char *err, size_t errlen)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], need[3 * UNIT_BUFLEN];

	if (o->erasesize <= d->size / o->fat_nr)	/* no overflow */
		return 0;
	snprintf(need, sizeof(need), "%u AUs of %s need %s", o->fat_nr,
		 fmt_size(a, (double)o->erasesize),
		 fmt_size(b, (double)o->erasesize * o->fat_nr));
	return does_not_fit(err, errlen, d, need, "fat-nr", o->fat_nr_arg,
			    "erasesize", o->erasesize_arg, NULL);
}

static const struct vm_node *find_fat_build(struct prog *p,
					    const struct opts *o,
					    const struct dev *d)
{
	struct vm_node *aus = prog_node(p, VM_COLS);
	struct vm_node *row = prog_node(p, VM_ROW);

	(void)d;
	aus->var = VAR_AU;
	aus->order = ORD_LINEAR;
	aus->stride = expr_const((int64_t)o->erasesize);
	aus->count = expr_const(o->fat_nr);
	aus->fmt = FMT_RATE;
	prog_kids(p, aus, best_pass(p, o, au_walk(p, o, chunk_write(p))), NULL);

	row->width = ROW_COL_WIDTH;
	prog_kids(p, row, aus, NULL);
	return size_series(p, o, row);
}

const struct testdesc testdesc_find_fat = {
	.name = "find-fat",
	.kind = TAB_FAT,
	.writes = 1,
	.validate = find_fat_validate,
	.build = find_fat_build,
	.count = 1,
};
