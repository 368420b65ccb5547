// SPDX-License-Identifier: GPL-2.0
/*
 * The sustained-write test (--sustained): sequential writes of one erase
 * size (4 MiB by default) from the write offset through a bounded region,
 * the rate taken per window, until the rate has fallen off a cliff (a
 * write cache, SLC or RAM, full) and stayed down, or the region or the
 * budget (--max-write, --max-time) ends.  With --idle=DURATION it then
 * leaves the card idle and writes again from the region's start, to see
 * how much of the cache came back.  One row per window, then verdict
 * lines (sustained_judge.c).  Destructive; it decides as it goes (drive).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "testdesc.h"
#include "lib/units.h"
#include "lib/sustain_rule.h"

/*
 * The rate is taken per window of this size: large enough that a card's
 * housekeeping pause (20-200 ms) moves a window's rate by a few percent
 * at most at tens of MB/s, small enough to place a cliff to 64 MiB.
 */
#define SUS_WINDOW (64ull << 20)
/* A region holds at least this many windows; smaller ones shrink them. */
#define SUS_MIN_WINDOWS 8

struct sustained {
	struct vm *vm;
	const struct opts *o;
	uint64_t base, end, chunk, window;
	uint64_t written;	/* bytes, both passes: --max-write */
	uint64_t spent;		/* ns written and idle: --max-time */
	uint64_t last_ns;	/* the last chunk's time: the next one's guess */
	struct sus_run run;	/* the windows, for the rule and the verdicts */
};

/* Bytes from the write offset to the end of the device or the budget. */
static uint64_t region_len(const struct opts *o, const struct dev *d)
{
	uint64_t off = write_offset(o), left;

	if (off >= d->size)
		return 0;
	left = d->size - off;
	if (o->max_write && o->max_write < left)
		left = o->max_write;
	return left - left % o->erasesize;
}

/* SUS_WINDOW, or less in a region of under SUS_MIN_WINDOWS of them. */
static uint64_t window_of(const struct opts *o, uint64_t len)
{
	uint64_t w = len / SUS_MIN_WINDOWS;

	w -= w % o->erasesize;
	if (w > SUS_WINDOW)
		w = SUS_WINDOW - SUS_WINDOW % o->erasesize;
	return w > o->erasesize ? w : o->erasesize;
}

static int sus_validate(const struct opts *o, const struct dev *d,
			char *err, size_t errlen)
{
	char need[3 * UNIT_BUFLEN + 64], a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	if (check_offset(o, d, err, errlen))
		return -EINVAL;
	if (region_len(o, d) >= SUS_MIN_WINDOWS * o->erasesize)
		return 0;
	snprintf(need, sizeof(need), "--sustained writes at least %d "
		 "chunks of %s from %s", SUS_MIN_WINDOWS,
		 fmt_size(a, (double)o->erasesize),
		 fmt_size(b, (double)write_offset(o)));
	return does_not_fit(err, errlen, d, need, "max-write",
			    o->max_write_arg, "erasesize",
			    o->erasesize_arg, "offset", o->offset_arg, NULL);
}

/* Whether the next chunk would take the run over a budget. */
static int over_budget(const struct sustained *s)
{
	const struct opts *o = s->o;

	if (o->max_write && s->written + s->chunk > o->max_write)
		return 1;
	return o->max_time && s->spent + s->last_ns > o->max_time;
}

/*
 * One window from off: its time in *ns; 1 when a budget ends it first
 * (the chunks written still count against it), 0, or -errno.
 */
static int window_at(struct sustained *s, uint64_t off, uint64_t *ns)
{
	uint64_t pos, t;
	int ret;

	*ns = 0;
	for (pos = 0; pos < s->window; pos += s->chunk) {
		if (over_budget(s))
			return 1;
		if ((ret = drive_write(s->vm, off + pos, s->chunk, &t)))
			return ret;
		s->written += s->chunk;
		s->spent += t;
		s->last_ns = t;
		*ns += t;
	}
	return 0;
}

static int print_row(struct sustained *s, uint64_t off, uint64_t ns,
		     int idle)
{
	char key[UNIT_BUFLEN], t[UNIT_BUFLEN], rate[UNIT_BUFLEN];
	FILE *f = s->vm->out;

	if (s->vm->tick)
		s->vm->tick(s->vm->hook_arg, TICK_ROW);
	if (!f)
		return 0;
	put_field(f, idle ? "again" : "write", 0);
	put_field(f, fmt_size(key, (double)off), ROW_KEY_WIDTH);
	put_field(f, fmt_time(t, (double)ns), ROW_KEY_WIDTH);
	fprintf(f, "%s\n", fmt_rate(rate, (double)s->window * 1e9 /
				    (double)ns));
	return fflush(f) == EOF || ferror(f) ? -EIO : 0;
}

/* A window measured: into the table and the run, and its row out. */
static int add_window(struct sustained *s, uint64_t off, uint64_t ns,
		      int idle)
{
	struct table_row *row = s->vm->tab ?
				table_add_row(s->vm->tab, off) : NULL;
	int ret;

	if (s->vm->tab && !row)
		return -ENOMEM;
	if (row) {
		row->v[0] = (double)ns;
		row->v[1] = (double)s->window * 1e9 / (double)ns;
		row->v[2] = idle;
	}
	vm_row_latency(s->vm, row);
	if ((ret = sus_add(&s->run, off - s->base, ns, idle)))
		return ret;
	return drive_row_end(s->vm, print_row(s, off, ns, idle));
}

/*
 * Windows from the region's start until the rule says enough (SUS_DONE),
 * a budget or the region ends; idle: the pass after --idle.
 */
static int pass(struct sustained *s, int idle)
{
	uint64_t off, ns;
	int ret;

	for (off = s->base; off + s->window <= s->end; off += s->window) {
		ret = window_at(s, off, &ns);
		if (ret > 0) {
			s->run.end = SUS_BUDGET;
			return 0;
		}
		if (ret || (ret = add_window(s, off, ns, idle)))
			return ret;
		if (sus_enough(&s->run, idle)) {
			s->run.end = SUS_HELD;
			return 0;
		}
	}
	if (!idle)
		s->run.end = s->end + s->chunk > s->vm->dev->size ?
			     SUS_DEVICE : SUS_REGION;
	return 0;
}

/* The dry run writes the region once: all it may write, twice or not. */
static int plan_region(struct sustained *s)
{
	uint64_t off, ns;
	int ret;

	for (off = s->base; off < s->end; off += s->chunk)
		if ((ret = drive_write(s->vm, off, s->chunk, &ns)))
			return ret;
	return 0;
}

/* The first pass, then with --idle the wait and the second. */
static int sustain(struct sustained *s)
{
	const struct opts *o = s->o;
	int ret;

	if ((ret = pass(s, 0)))
		return ret;
	if (!o->idle_ns || !s->run.cliff || s->run.end == SUS_BUDGET)
		return 0;
	if (o->max_time && s->spent + o->idle_ns > o->max_time) {
		s->run.end = SUS_BUDGET;
		return 0;
	}
	if ((ret = dev_idle(s->vm->dev, o->idle_ns, &vm_stop)))
		return ret;
	s->spent += o->idle_ns;
	s->run.idle_ns = o->idle_ns;
	if (s->vm->tab)
		s->vm->tab->idle_ns = o->idle_ns;
	if (s->vm->out)
		fprintf(s->vm->out, "after %s idle:\n",
			fmt_duration((char[UNIT_BUFLEN]){ 0 },
				     (double)o->idle_ns));
	return pass(s, 1);
}

/* The line that tells a reader of the table how the run ended. */
static int print_end(struct sustained *s)
{
	FILE *f = s->vm->out;

	if (s->vm->tab)
		s->vm->tab->ended = s->run.end;
	if (!f)
		return 0;
	fprintf(f, "ended %s\n", sus_end_word[s->run.end]);
	return fflush(f) == EOF || ferror(f) ? -EIO : 0;
}

static int sus_drive(struct vm *vm, const struct opts *o)
{
	struct sustained s = { .vm = vm, .o = o, .base = write_offset(o),
			       .chunk = o->erasesize };
	uint64_t len = region_len(o, vm->dev);
	int ret;

	s.end = s.base + len;
	s.window = window_of(o, len);
	s.run.window = s.window;
	if (vm->tab)
		vm->tab->ncols = 2;
	if (vm->dev->dry_run)
		return plan_region(&s);
	ret = sustain(&s);
	if (!ret)
		ret = print_end(&s);
	sus_free(&s.run);
	return ret;
}

static void sus_header(FILE *f, const struct opts *o)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];

	fprintf(f, "sustained write of %s chunks from %s, up to %s, "
		"the rate per window\n", fmt_size(a, (double)o->erasesize),
		fmt_size(b, (double)write_offset(o)),
		o->max_write ? fmt_size(c, (double)o->max_write) :
		"the device's end");
}

const struct testdesc testdesc_sustained = {
	.name = "sustained",
	.kind = TAB_SUSTAINED,
	.writes = 1,
	.count = 1,
	.validate = sus_validate,
	.header = sus_header,
	.drive = sus_drive,
};
