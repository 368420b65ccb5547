// SPDX-License-Identifier: GPL-2.0
/*
 * Scatter (-s): best-of-count read times at 2^order positions one block
 * apart, visited in LFSR order; "offset_MiB<TAB>time_ms" lines for
 * gnuplot, sorted by offset with the classic's 6 decimals (3 would print
 * neighbouring 512-byte offsets alike).  Read-only.
 */
#include <errno.h>
#include <stdio.h>

#include "testdesc.h"
#include "lib/units.h"

static uint64_t read_len(const struct opts *o)
{
	return o->blocksize * o->scatter_span;
}

static int scatter_validate(const struct opts *o, const struct dev *d,
			    char *err, size_t errlen)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], need[3 * UNIT_BUFLEN];
	/* reads end at blocksize * f; compared by division, no overflow */
	uint64_t f = (1ull << o->scatter_order) + o->scatter_span - 1;

	if (o->blocksize <= d->size / f)
		return 0;
	snprintf(need, sizeof(need), "%llu reads of %s need %s",
		 1ull << o->scatter_order,
		 fmt_size(a, (double)o->blocksize * o->scatter_span),
		 fmt_size(b, (double)o->blocksize * f));
	return does_not_fit(err, errlen, d, need, "scatter-order",
			    o->scatter_order_arg, "blocksize", o->blocksize_arg,
			    "scatter-span", o->scatter_span_arg, NULL);
}

static const struct vm_node *scatter_build(struct prog *p,
					   const struct opts *o,
					   const struct dev *d)
{
	struct vm_node *io = prog_node(p, VM_IO);
	struct vm_node *rep;
	struct vm_node *row = prog_node(p, VM_ROW);
	struct vm_node *pos = prog_node(p, VM_LOOP);

	(void)d;
	io->io = IO_READ;
	io->off = expr_var(VAR_POS, 0);
	io->len = expr_const((int64_t)read_len(o));

	rep = best_of(p, o, io);
	rep->fmt = FMT_TIME;

	row->key = VAR_POS;
	prog_kids(p, row, rep, NULL);

	pos->var = VAR_POS;
	pos->order = ORD_LFSR;
	pos->stride = expr_const((int64_t)o->blocksize);
	pos->count = expr_const(1ll << o->scatter_order);
	prog_kids(p, pos, row, NULL);
	return pos;
}

static void scatter_print(FILE *f, const struct table *t,
			  const struct opts *o)
{
	size_t i;

	(void)o;
	for (i = 0; i < t->nrows; i++)
		fprintf(f, "%f\t%f\n", (double)t->rows[i].key / 1048576.0,
			t->rows[i].v[0] / 1e6);
}

const struct testdesc testdesc_scatter = {
	.name = "scatter",
	.kind = TAB_SCATTER,
	.validate = scatter_validate,
	.build = scatter_build,
	.sorted = 1,
	.print = scatter_print,
};
