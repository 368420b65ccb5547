// SPDX-License-Identifier: GPL-2.0
/* The progress line: one line on a terminal, rewritten in place. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "output/progress.h"
#include "lib/units.h"

/* Redraw at most this often; checking the clock every I/O costs. */
#define REDRAW_NS 200000000ull
#define TICKS_PER_CHECK 64

void progress_init(struct progress *p, FILE *f, uint64_t delay_ns)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->tty = isatty(fileno(f));
	p->delay_ns = delay_ns;
}

void progress_run(struct progress *p, const struct dev *d, double ios,
		  double bytes, const char *label)
{
	p->d = d;
	p->base = d->stats;
	p->ios = ios;
	p->bytes = bytes;
	p->start = p->last = now_ns();
	p->ticks = 0;
	snprintf(p->label, sizeof(p->label), "%s", label);
}

/* How much of the run is done: I/O count and bytes, averaged. */
static double run_fraction(const struct progress *p)
{
	const struct io_stats *s = &p->d->stats, *b = &p->base;
	double ios = (double)(s->reads + s->writes + s->discards -
			      b->reads - b->writes - b->discards);
	double bytes = (double)(s->bytes_read + s->bytes_written +
				s->bytes_discarded - b->bytes_read -
				b->bytes_written - b->bytes_discarded);
	double f = 0;
	int n = 0;

	if (p->ios > 0) {
		f += ios / p->ios;
		n++;
	}
	if (p->bytes > 0) {
		f += bytes / p->bytes;
		n++;
	}
	f = n ? f / n : 0;
	return f > 1 ? 1 : f;
}

static void draw(struct progress *p, uint64_t now)
{
	double f = run_fraction(p), total, done, left;
	char t[UNIT_BUFLEN];

	if (p->run_ns > 0 || p->rest_ns > 0) {
		done = p->done_ns + f * p->run_ns;
		total = p->done_ns + p->run_ns + p->rest_ns;
		left = total - done;
	} else {
		done = f;
		total = 1;
		left = f > 0 ? (double)(now - p->start) * (1 - f) / f : -1;
	}
	fprintf(p->f, "\r\033[K%s: %.0f%%", p->label,
		total > 0 ? 100 * done / total : 0);
	if (left >= 0)
		fprintf(p->f, ", about %s left", fmt_duration(t, left));
	fflush(p->f);
	p->shown = 1;
	p->last = now;
}

void progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", p->f);
	fflush(p->f);
	p->shown = 0;
}

void progress_tick(void *arg, enum vm_tick what)
{
	struct progress *p = arg;
	uint64_t now;

	if (what == TICK_ROW) {
		/* the row goes where the line is; drawn again later */
		progress_clear(p);
		return;
	}
	if (!p->tty || !p->d || ++p->ticks % TICKS_PER_CHECK)
		return;
	now = now_ns();
	if (now - p->start < p->delay_ns || now - p->last < REDRAW_NS)
		return;
	draw(p, now);
}

int progress_again(void *arg, const struct vm_val *pass)
{
	struct progress *p = arg;

	p->ios += (double)pass->ios;
	p->bytes += pass->bytes;
	if (p->run_ns > 0)
		p->run_ns += pass->ns;
	return 0;
}

void progress_show(struct progress *p)
{
	if (p->tty && p->d)
		draw(p, now_ns());
}
