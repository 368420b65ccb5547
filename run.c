// SPDX-License-Identifier: GPL-2.0
/*
 * Running a test: a recording dry run first tells the buffer size and the
 * exact region written, before a single byte moves; then the real run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "lib/units.h"

static int dry_run(struct run *r, struct dev *d, struct io_log *log)
{
	struct vm vm = { .dev = d, .plan = log->keep == LOG_EXTENTS &&
						 !log->print };
	struct io_stats saved = d->stats;
	struct io_log *user_log = d->log;
	int ret;

	d->log = log;
	d->dry_run = 1;
	memset(&d->stats, 0, sizeof(d->stats));
	ret = r->opts->test->drive ?
	      r->opts->test->drive(&vm, r->opts) :
	      vm_run(&vm, r->code);
	r->plan.io = d->stats;
	d->stats = saved;
	d->dry_run = 0;
	d->log = user_log;
	if (ret)
		r->error = vm.error;
	return ret;
}

int run_prepare(struct run *r, const struct opts *o, struct dev *d)
{
	struct io_log log = { .keep = LOG_EXTENTS };
	int ret;

	memset(r, 0, sizeof(*r));
	r->tab.kind = o->test->kind;
	r->tab.blocksize = o->blocksize;
	r->tab.erasesize = o->erasesize;
	r->tab.random = o->random;
	r->tab.open_au_nr = o->nr_hi;
	r->tab.has_offset = r->tab.kind == TAB_OPENAU;
	r->tab.offset = r->tab.has_offset ? write_offset(o) : 0;
	if (r->tab.kind == TAB_OPENAU && o->nr_lo != o->nr_hi) {
		unsigned j;

		r->tab.kind = TAB_SWEEP;
		r->tab.open_au_nr = 0;
		for (j = 0; j <= o->nr_hi - o->nr_lo; j++)
			r->tab.col_nr[j] = o->nr_lo + j;
	}
	r->opts = o;
	r->code = o->test->build ? o->test->build(&r->prog, o, d) : NULL;
	if (!r->code && !o->test->drive)
		return -ENOMEM;
	ret = dry_run(r, d, &log);
	r->plan.max_len = log.max_len;
	r->plan.ranges = log.written.r;
	r->plan.nranges = log.written.n;
	r->plan.written = extents_bytes(&log.written);
	r->plan.lo = log.lo;
	r->plan.hi = log.hi;
	return ret;
}

static void print_totals(const struct plan *p, FILE *f)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];

	fprintf(f, "# %llu reads (%s), %llu writes (%s), %llu discards (%s)\n",
		(unsigned long long)p->io.reads,
		fmt_size(a, (double)p->io.bytes_read),
		(unsigned long long)p->io.writes,
		fmt_size(b, (double)p->io.bytes_written),
		(unsigned long long)p->io.discards,
		fmt_size(c, (double)p->io.bytes_discarded));
}

int run_print_plan(struct run *r, const struct opts *o, struct dev *d,
		   FILE *f)
{
	struct io_log log = { .keep = LOG_COUNT, .print = f };
	size_t i;
	int ret;

	/* printed as they come: a plan of a billion I/Os is not held */
	if (o->verbose) {
		ret = dry_run(r, d, &log);
		if (ret)
			return ret;
	}
	fprintf(f, "# dry run of %s on %s: nothing is read or written\n",
		o->test->name, d->path);
	print_totals(&r->plan, f);
	for (i = 0; i < r->plan.nranges; i++)
		fprintf(f, "# writes bytes %llu-%llu\n",
			(unsigned long long)r->plan.ranges[i].off,
			(unsigned long long)(r->plan.ranges[i].off +
					     r->plan.ranges[i].len - 1));
	return 0;
}

void run_announce(const struct run *r, const struct opts *o,
		  const struct dev *d, FILE *f)
{
	const struct plan *p = &r->plan;
	char a[UNIT_BUFLEN];
	size_t i;

	if (!p->nranges)
		return;
	fprintf(f, "flashbench: %s will %s %s of %s in %zu range%s:",
		o->test->name, p->io.writes ? "overwrite" : "discard",
		fmt_size(a, (double)p->written), d->path,
		p->nranges, p->nranges == 1 ? "" : "s");
	for (i = 0; i < p->nranges; i++)
		fprintf(f, " %llu-%llu", (unsigned long long)p->ranges[i].off,
			(unsigned long long)(p->ranges[i].off +
					     p->ranges[i].len - 1));
	fputc('\n', f);
}

/*
 * Written data that a compressing or deduplicating controller can't skip:
 * xorshift64, a word per step (filling a byte per step took most of the
 * CPU of a simulated -O).  Buffers are whole sectors, so whole words.
 */
static void fill_pattern(void *buf, uint64_t len)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, *w = buf, i;

	for (i = 0; i < len / sizeof(*w); i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
}

static int cmp_row(const void *a, const void *b)
{
	const struct table_row *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

int run_execute(struct run *r, const struct opts *o, struct dev *d,
		FILE *out)
{
	struct vm vm = {
		.dev = d, .tab = &r->tab,
		.out = o->test->print ? NULL : out,
		.rows_printed = !o->test->print,
		.trace = o->verbose ? stderr : NULL,
		.after_row = r->after_row,
		.row_done = r->row_done, .tick = r->tick, .again = r->again,
		.hook_arg = r->hook_arg, .stall_ns = o->stall_ns,
	};
	/* discards need no buffer; longer I/Os go in pieces of this one */
	uint64_t len = r->plan.io.reads || r->plan.io.writes ?
		       dev_buf_len(r->plan.max_len) : 4096;
	int ret;

	vm.buf = dev_alloc(len);
	if (!vm.buf)
		return -ENOMEM;
	vm.buf_len = len;
	dev_lock(vm.buf, len);
	if (o->test->writes)
		fill_pattern(vm.buf, len);
	if (out && o->test->header)
		o->test->header(out, o);
	ret = o->test->drive ? o->test->drive(&vm, o) : vm_run(&vm, r->code);
	r->error = vm.error;
	dev_free(vm.buf, len);
	if (o->test->sorted)
		qsort(r->tab.rows, r->tab.nrows, sizeof(*r->tab.rows),
		      cmp_row);
	/* also after ^C or an error: the rows measured so far */
	if (out && o->test->print)
		o->test->print(out, &r->tab, o);
	return ret;
}

/* Errors of a card pulled out or a device detached mid-run. */
static int vanished(int err)
{
	return err == -ENODEV || err == -ENXIO || err == -ENOMEDIUM;
}

void run_io_error_text(const struct vm_error *e, const char *dev, char *buf,
		       size_t len)
{
	snprintf(buf, len, "%s %llu bytes at offset %llu of %s: %s%s",
		 io_kind_name(e->io), (unsigned long long)e->len,
		 (unsigned long long)e->off, dev, strerror(-e->err),
		 vanished(e->err) ?
		 " (the device vanished: removed or detached)" : "");
}

void run_free(struct run *r)
{
	prog_free(&r->prog);
	free(r->plan.ranges);
	table_free(&r->tab);
}
