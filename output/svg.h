/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SVG_H
#define FLASHBENCH_SVG_H

#include <stddef.h>
#include <stdio.h>

/* How the numbers on an axis are labelled (the unit formatters). */
enum axis_unit { AXIS_SIZE, AXIS_TIME, AXIS_RATE, AXIS_PERCENT };

#define CHART_MAXSERIES 64
#define CHART_MAXMARKS 4

/* One line (or cloud of points) on a chart; x and y are not owned. */
struct chart_series {
	char label[32];
	const double *x, *y;
	size_t n;
};

/*
 * A vertical line at x, e.g. the erase block step of an -a plot; or,
 * horizontal, one across at y = x, e.g. a latency threshold.
 */
struct chart_mark {
	double x;
	char label[48];
	int horizontal;
};

struct chart {
	char title[96];
	const char *xname, *yname;
	enum axis_unit xunit, yunit;
	int xlog2;		/* x at powers of two, evenly spaced */
	int xlog10, ylog10;	/* the axis in decades (latencies) */
	int points;		/* dots instead of lines (scatter) */
	struct chart_series s[CHART_MAXSERIES];
	unsigned ns;
	struct chart_mark mark[CHART_MAXMARKS];
	unsigned nmark;
};

/*
 * Write a standalone SVG document with the charts stacked top to
 * bottom.  Values that are NaN (not measured) break a line.  Returns 0 or
 * -EIO when the stream reports an error.
 */
int svg_write(FILE *f, const struct chart *c, size_t n);

#endif
