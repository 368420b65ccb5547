/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_PLOT_H
#define FLASHBENCH_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "lib/table.h"

/*
 * --plot=FILE.svg: one chart per table, stacked.  -a: diff per boundary
 * with the erase and page verdicts marked; -O and sweeps: rate against
 * write size, a line per N; -f: a line per AU; -s: read time against
 * offset; --erase: aligned and misaligned rate; -i: time against size.
 * A table with timed writes adds two charts on log latency axes: a dot
 * per latency bucket each write size met, and a CDF per write size,
 * both with the stall threshold marked.
 * a may be NULL.  Returns 0 or -errno.
 */
int plot_tables(FILE *f, const struct table *t, size_t n,
		const struct analysis *a);

#endif
