// SPDX-License-Identifier: GPL-2.0
/*
 * Charts as SVG: axes with ticks in the tool's own units, a line (or dots)
 * per series, a legend and marked x positions.  Plain SVG 1.1 that any
 * browser or rsvg shows; no scripts, no external resources.
 */
#include <errno.h>
#include <math.h>

#include "output/svg.h"
#include "lib/units.h"

#define WIDTH		820
#define MIN_HEIGHT	420
#define LEFT		84
#define RIGHT		170
#define TOP		44
#define BOTTOM		58
#define LEGEND_STEP	15
#define MAX_TICKS	12

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NCOLOURS (sizeof(palette) / sizeof(palette[0]))

/* Where a chart's data lands on the page. */
struct frame {
	double top, height;		/* plot area */
	double xmin, xmax, ymin, ymax;	/* data range, as the axes scale it */
	int xlog2, xlog10, ylog10;
};

static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/* control characters are not allowed in XML 1.0 */
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

static char *fmt_axis(char *buf, double v, enum axis_unit u)
{
	switch (u) {
	case AXIS_SIZE: return fmt_size(buf, v);
	case AXIS_TIME: return fmt_time(buf, v);
	case AXIS_PERCENT:
		snprintf(buf, UNIT_BUFLEN, "%.0f%%", v);
		return buf;
	default: return fmt_rate(buf, v);
	}
}

/* A value where its axis puts it: log2 or log10 of it, or itself. */
static double scaled(int log2_axis, int log10_axis, double v)
{
	return log2_axis ? log2(v) : log10_axis ? log10(v) : v;
}

/* The value at a place on its axis. */
static double unscaled(int log2_axis, int log10_axis, double v)
{
	return log2_axis ? exp2(v) : log10_axis ? pow(10, v) : v;
}

static double x_of(const struct frame *fr, double x)
{
	double v = scaled(fr->xlog2, fr->xlog10, x);

	return LEFT + (v - fr->xmin) / (fr->xmax - fr->xmin) *
	       (WIDTH - LEFT - RIGHT);
}

static double y_of(const struct frame *fr, double y)
{
	y = scaled(0, fr->ylog10, y);
	return fr->top + fr->height -
	       (y - fr->ymin) / (fr->ymax - fr->ymin) * fr->height;
}

static int usable(const struct chart *c, double x, double y)
{
	return isfinite(x) && isfinite(y) &&
	       (!(c->xlog2 || c->xlog10) || x > 0) && (!c->ylog10 || y > 0);
}

/* The data range, widened so a flat or single-point chart still shows. */
static void fit_range(const struct chart *c, struct frame *fr)
{
	double xmin = INFINITY, xmax = -INFINITY;
	/* a linear y axis starts at 0 */
	double ymin = c->ylog10 ? INFINITY : 0, ymax = -INFINITY;
	unsigned i;
	size_t k;

	for (i = 0; i < c->ns; i++) {
		for (k = 0; k < c->s[i].n; k++) {
			double x = c->s[i].x[k], y = c->s[i].y[k];

			if (!usable(c, x, y))
				continue;
			x = scaled(c->xlog2, c->xlog10, x);
			y = scaled(0, c->ylog10, y);
			xmin = fmin(xmin, x);
			xmax = fmax(xmax, x);
			ymin = fmin(ymin, y);
			ymax = fmax(ymax, y);
		}
	}
	if (!isfinite(xmin)) {
		xmin = 0;
		xmax = 1;
	}
	if (xmax - xmin < 1e-9) {
		xmin -= 1;
		xmax += 1;
	}
	if (!isfinite(ymin))
		ymin = 0;
	if (!isfinite(ymax) || ymax - ymin < 1e-9)
		ymax = ymin + 1;
	/* room above the highest point */
	fr->xmin = xmin;
	fr->xmax = xmax;
	fr->ymin = ymin < 0 || c->ylog10 ? ymin - 0.05 * (ymax - ymin) : 0;
	fr->ymax = ymax + 0.05 * (ymax - ymin);
	fr->xlog2 = c->xlog2;
	fr->xlog10 = c->xlog10;
	fr->ylog10 = c->ylog10;
}

/* A step of 1, 2 or 5 times a power of ten giving at most MAX_TICKS. */
static double nice_step(double span)
{
	double raw = span / (MAX_TICKS / 2), mag = pow(10, floor(log10(raw)));

	if (raw <= mag)
		return mag;
	if (raw <= 2 * mag)
		return 2 * mag;
	if (raw <= 5 * mag)
		return 5 * mag;
	return 10 * mag;
}

static void tick(FILE *f, double x1, double y1, double x2, double y2,
		 double tx, double ty, const char *anchor, const char *label)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#ddd\"/>\n", x1, y1, x2, y2);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", tx, ty,
		anchor);
	put_text(f, label);
	fputs("</text>\n", f);
}

static void y_ticks(FILE *f, const struct chart *c, const struct frame *fr)
{
	/* decades on a log axis */
	double step = c->ylog10 ? 1 : nice_step(fr->ymax - fr->ymin), v;
	char buf[UNIT_BUFLEN];

	for (v = ceil(fr->ymin / step) * step; v <= fr->ymax; v += step) {
		double data = unscaled(0, c->ylog10, v);
		double y = y_of(fr, data);

		tick(f, LEFT, y, WIDTH - RIGHT, y, LEFT - 6, y + 4, "end",
		     fmt_axis(buf, fabs(v) < step / 1e6 && !c->ylog10 ? 0 :
			      data, c->yunit));
	}
}

static void x_ticks(FILE *f, const struct chart *c, const struct frame *fr)
{
	double bottom = fr->top + fr->height, v, step;
	char buf[UNIT_BUFLEN];

	if (c->xlog2)
		step = fmax(1, ceil((fr->xmax - fr->xmin) / MAX_TICKS));
	else if (c->xlog10)
		step = 1;	/* decades */
	else if (c->xunit == AXIS_SIZE)
		/* offsets read best at binary multiples */
		step = exp2(ceil(log2((fr->xmax - fr->xmin) / (MAX_TICKS / 2))));
	else
		step = nice_step(fr->xmax - fr->xmin);
	for (v = ceil(fr->xmin / step) * step; v <= fr->xmax + 1e-9;
	     v += step) {
		double data = unscaled(c->xlog2, c->xlog10, v);
		double x = x_of(fr, data);

		tick(f, x, fr->top, x, bottom, x, bottom + 16, "middle",
		     fmt_axis(buf, data, c->xunit));
	}
}

static void axes(FILE *f, const struct chart *c, const struct frame *fr)
{
	double bottom = fr->top + fr->height;

	fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"15\" "
		"font-weight=\"bold\">", LEFT, fr->top - 18);
	put_text(f, c->title);
	fputs("</text>\n", f);
	y_ticks(f, c, fr);
	x_ticks(f, c, fr);
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" "
		"fill=\"none\" stroke=\"#333\"/>\n", LEFT, fr->top,
		WIDTH - LEFT - RIGHT, fr->height);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">",
		(WIDTH - RIGHT + LEFT) / 2, bottom + 40);
	put_text(f, c->xname);
	fprintf(f, "</text>\n<text transform=\"translate(18 %.1f) "
		"rotate(-90)\" text-anchor=\"middle\">",
		fr->top + fr->height / 2);
	put_text(f, c->yname);
	fputs("</text>\n", f);
}

/* A line across at y, labelled at its right end above it. */
static void hmark(FILE *f, const struct chart *c, const struct frame *fr,
		  const struct chart_mark *m)
{
	double y, v = scaled(0, c->ylog10, m->x);

	if (!isfinite(v) || v < fr->ymin || v > fr->ymax)
		return;
	y = y_of(fr, m->x);
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		"stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n", LEFT, y,
		WIDTH - RIGHT, y);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" "
		"fill=\"#555\">", WIDTH - RIGHT - 4, y - 4);
	put_text(f, m->label);
	fputs("</text>\n", f);
}

static void marks(FILE *f, const struct chart *c, const struct frame *fr)
{
	unsigned i;

	for (i = 0; i < c->nmark; i++) {
		double x;

		if (c->mark[i].horizontal) {
			hmark(f, c, fr, &c->mark[i]);
			continue;
		}
		if (!usable(c, c->mark[i].x, 1))
			continue;
		x = x_of(fr, c->mark[i].x);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"#555\" stroke-dasharray=\"6 4\"/>\n",
			x, fr->top, x, fr->top + fr->height);
		/* inside the frame, clear of the title */
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555\">",
			x + 4, fr->top + 14.0 + 14.0 * i);
		put_text(f, c->mark[i].label);
		fputs("</text>\n", f);
	}
}

static int usable_at(const struct chart *c, const struct chart_series *s,
		     size_t k)
{
	return k < s->n && usable(c, s->x[k], s->y[k]);
}

/*
 * Dots for a scatter chart, and on a line chart for the points with no
 * neighbour to draw a line to (a one-row table, a column cut short),
 * which would not show otherwise.
 */
static void dots(FILE *f, const struct chart *c, const struct frame *fr,
		 const struct chart_series *s, const char *colour)
{
	size_t k;

	for (k = 0; k < s->n; k++) {
		if (!usable_at(c, s, k) || (!c->points &&
		    ((k && usable_at(c, s, k - 1)) || usable_at(c, s, k + 1))))
			continue;
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" "
			"fill=\"%s\"/>\n", x_of(fr, s->x[k]),
			y_of(fr, s->y[k]), c->points ? 2 : 3, colour);
	}
}

static void series(FILE *f, const struct chart *c, const struct frame *fr,
		   unsigned i)
{
	const struct chart_series *s = &c->s[i];
	const char *colour = palette[i % NCOLOURS];
	int pen_down = 0;
	size_t k;

	if (!c->points) {
		fputs("<path d=\"", f);
		for (k = 0; k < s->n; k++) {
			if (!usable_at(c, s, k)) {
				pen_down = 0;
				continue;
			}
			fprintf(f, "%c%.1f %.1f ", pen_down ? 'L' : 'M',
				x_of(fr, s->x[k]), y_of(fr, s->y[k]));
			pen_down = 1;
		}
		fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
			colour, i >= NCOLOURS ? " stroke-dasharray=\"5 3\"" : "");
	}
	dots(f, c, fr, s, colour);
	if (c->ns < 2 && !*s->label)
		return;
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"3\"/>\n<text x=\"%d\" y=\"%.1f\">",
		WIDTH - RIGHT + 12, fr->top + 8 + i * LEGEND_STEP,
		WIDTH - RIGHT + 32, fr->top + 8 + i * LEGEND_STEP, colour,
		WIDTH - RIGHT + 38, fr->top + 12 + i * LEGEND_STEP);
	put_text(f, s->label);
	fputs("</text>\n", f);
}

static double chart_height(const struct chart *c)
{
	double legend = TOP + BOTTOM + (double)c->ns * LEGEND_STEP + 16;

	return fmax(MIN_HEIGHT, legend);
}

static void chart(FILE *f, const struct chart *c, double top)
{
	struct frame fr = { .top = top + TOP };
	unsigned i;

	fr.height = chart_height(c) - TOP - BOTTOM;
	fit_range(c, &fr);
	axes(f, c, &fr);
	marks(f, c, &fr);
	for (i = 0; i < c->ns; i++)
		series(f, c, &fr, i);
}

int svg_write(FILE *f, const struct chart *c, size_t n)
{
	double height = 0, top = 0;
	size_t i;

	for (i = 0; i < n; i++)
		height += chart_height(&c[i]);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		WIDTH, height, WIDTH, height);
	for (i = 0; i < n; i++) {
		chart(f, &c[i], top);
		top += chart_height(&c[i]);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
