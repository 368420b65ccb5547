// SPDX-License-Identifier: GPL-2.0
/*
 * The open-AU test (-O): for each write size, walk the chunks of an AU
 * and write each chunk into every one of nr AUs in turn, so that they are
 * all open at once.  Within the card's limit small writes stay fast; one
 * AU more and every write forces a copy.  With a range of nr it becomes a
 * sweep: one column per nr.  Destructive.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "testdesc.h"
#include "lib/units.h"

/*
 * A sweep column this far below its own best is not measured further.
 * From the accuracy suites (bench/prune.sh): 1/8 gives the same verdicts
 * as 1/16 on the profiles and on random cards with 29-31% less device
 * time; 1/4 turns right verdicts into low-confidence ones.
 */
#define SWEEP_PRUNE (1.0 / 8)

/* For messages: in double, as the validation's numbers may overflow. */
static double region_end(const struct opts *o)
{
	return (double)write_offset(o) + (double)o->erasesize *
	       ((o->nr_hi - 1) * (double)AU_SPACING + 1);
}

static int open_au_validate(const struct opts *o, const struct dev *d,
			    char *err, size_t errlen)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	char need[4 * UNIT_BUFLEN];
	uint64_t off = write_offset(o);

	if (check_offset(o, d, err, errlen))
		return -EINVAL;
	/* region_end(o) <= d->size, without overflowing */
	if (o->erasesize <= (d->size - off) /
	    ((uint64_t)(o->nr_hi - 1) * AU_SPACING + 1))
		return 0;
	snprintf(need, sizeof(need), "%u AUs of %s spaced %u apart from "
		 "offset %s need %s", o->nr_hi,
		 fmt_size(a, (double)o->erasesize), AU_SPACING,
		 fmt_size(b, (double)off), fmt_size(c, region_end(o)));
	return does_not_fit(err, errlen, d, need, "open-au-nr", o->nr_arg,
			    "erasesize", o->erasesize_arg, "offset",
			    o->offset_arg, NULL);
}

/*
 * The AUs in the classic pseudo-random visiting order.  A sweep runs
 * each row's columns from the largest nr down, each on the last nr AUs
 * of the list: the ones the column before wrote last, which a card
 * keeps open.  A column within the limit then finds its AUs open, as a
 * run of its own would, instead of paying to close those that a
 * collapsing column left half-written (in random order a full merge
 * each).
 */
static uint64_t *au_list(const struct opts *o)
{
	uint64_t *l = calloc(o->nr_hi, sizeof(*l)), i;
	struct lfsr r;

	if (!l)
		return NULL;
	lfsr_init(&r, o->nr_hi);
	for (i = 0; i < o->nr_hi; i++)
		l[i] = write_offset(o) +
		       lfsr_next(&r) * AU_SPACING * o->erasesize;
	return l;
}

/*
 * Total time of writing one AU's worth of chunks into each open AU; with
 * --count, the best of that many passes.
 */
static struct vm_node *write_pass(struct prog *p, const struct opts *o,
				  struct vm_expr first, struct vm_expr nr)
{
	struct vm_node *aus = prog_node(p, VM_LOOP);
	struct vm_node *pos, *best;

	aus->var = VAR_AU;
	aus->order = ORD_LIST;
	aus->list = p->list;
	aus->start = first;
	aus->count = nr;
	aus->reduce = RED_TOTAL;
	prog_kids(p, aus, chunk_write(p), NULL);

	pos = au_walk(p, o, aus);
	pos->warm = o->nr_lo != o->nr_hi;
	best = best_pass(p, o, pos);
	best->fmt = FMT_RATE;
	return best;
}

static const struct vm_node *open_au_build(struct prog *p,
					   const struct opts *o,
					   const struct dev *d)
{
	struct vm_node *row = prog_node(p, VM_ROW);
	struct vm_node *col;
	struct vm_expr first = expr_const(o->nr_hi);

	(void)d;
	p->list = au_list(o);
	if (!p->list)
		return NULL;
	if (o->nr_lo == o->nr_hi) {
		col = write_pass(p, o, expr_const(0), expr_const(o->nr_lo));
	} else {
		col = prog_node(p, VM_COLS);
		col->var = VAR_NR;
		col->order = ORD_LINEAR;
		col->start = expr_const(o->nr_lo);
		col->stride = expr_const(1);
		col->count = expr_const(o->nr_hi - o->nr_lo + 1);
		col->fmt = FMT_RATE;
		col->prune = SWEEP_PRUNE;
		col->reverse = 1;
		first.mul[VAR_NR] = -1;
		prog_kids(p, col, write_pass(p, o, first, expr_var(VAR_NR, 0)),
			  NULL);
	}
	/* the classic's field: one value 8 columns wide, a sweep's 9 */
	row->width = o->nr_lo == o->nr_hi ? ROW_KEY_WIDTH : ROW_COL_WIDTH;
	prog_kids(p, row, col, NULL);
	return size_series(p, o, row);
}

/* Sweeps name their columns, so pasted tables stay readable. */
static void open_au_header(FILE *f, const struct opts *o)
{
	char name[32];
	unsigned n;

	if (o->nr_lo == o->nr_hi)
		return;
	put_field(f, "size", ROW_KEY_WIDTH);
	for (n = o->nr_lo; n <= o->nr_hi; n++) {
		snprintf(name, sizeof(name), "%s=%u",
			 o->random ? "random" : "linear", n);
		put_field(f, name, ROW_COL_WIDTH);
	}
	fputc('\n', f);
}

const struct testdesc testdesc_open_au = {
	.name = "open-au",
	.kind = TAB_OPENAU,
	.writes = 1,
	.validate = open_au_validate,
	.build = open_au_build,
	.header = open_au_header,
	.count = 1,
};
