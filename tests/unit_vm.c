// SPDX-License-Identifier: GPL-2.0
/* The engine: LFSR period, every operation's access pattern, reductions. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testdesc.h"
#include "check.h"
#include "run.h"

/* A fake device whose time is a function of the request. */
static uint64_t fail_off = UINT64_MAX;

static int fake_open(struct dev *d, const char *p, char *e, size_t l)
{
	(void)p; (void)e; (void)l;
	d->size = 3ull << 29;
	d->sector = 512;
	return 0;
}

static int fake_read(struct dev *d, void *b, uint64_t len, uint64_t off,
		     uint64_t *ns)
{
	(void)d; (void)b;
	*ns = 1000 + len + (off % 7);
	return 0;
}

/* The first slow_writes writes take twice as long. */
static unsigned slow_writes;

static int fake_write(struct dev *d, const void *b, uint64_t len,
		      uint64_t off, uint64_t *ns)
{
	(void)d; (void)b; (void)off;
	*ns = slow_writes ? 2 * len : len;
	slow_writes -= slow_writes > 0;
	return off == fail_off ? -EIO : 0;
}

static int fake_discard(struct dev *d, uint64_t off, uint64_t len,
			uint64_t *ns)
{
	(void)d; (void)off;
	*ns = len / 2;
	return 0;
}

static void fake_close(struct dev *d)
{
	(void)d;
}

static const struct dev_ops fake_ops = {
	.name = "fake", .open = fake_open, .read = fake_read,
	.write = fake_write, .discard = fake_discard, .close = fake_close,
};

static void fake_dev(struct dev *d, struct io_log *log)
{
	free(log->rec);
	memset(d, 0, sizeof(*d));
	d->ops = &fake_ops;
	d->path = "fake";
	d->mode = DEV_RDWR;
	fake_open(d, NULL, NULL, 0);
	memset(log, 0, sizeof(*log));
	log->keep = LOG_ALL;
	d->log = log;
}

/* Each of 0..n-1 exactly once per period. */
static int lfsr_permutes(uint64_t n)
{
	static unsigned char seen[70001];
	struct lfsr l;
	uint64_t i;

	memset(seen, 0, n);
	lfsr_init(&l, n);
	for (i = 0; i < n; i++) {
		uint64_t v = lfsr_next(&l);

		if (v >= n || seen[v]++)
			return 0;
	}
	return 1;
}

static int near_power_of_two(uint64_t n)
{
	uint64_t p;

	for (p = 1; p <= n + 1; p *= 2)
		if (n + 1 >= p && n <= p + 1)
			return 1;
	return 0;
}

static void test_lfsr(void)
{
	uint64_t n, bad = 0, tried = 0;
	struct lfsr l;
	unsigned w;

	/*
	 * Every count up to 4096, then a stride and every count next to a
	 * power of two up to 70000; the period check below covers the rest,
	 * since a count only selects the register width.
	 */
	for (n = 1; n <= 70000; n++) {
		if (n > 4096 && n % 61 && !near_power_of_two(n))
			continue;
		tried++;
		bad += !lfsr_permutes(n);
	}
	CHECK(bad == 0, "lfsr: each of 0..n-1 exactly once, %llu counts in "
	      "1..70000", (unsigned long long)tried);
	for (w = 1; w <= 24; w++) {
		uint64_t count = (1ull << w) - 1, steps = 0;

		lfsr_init(&l, count);
		do {
			lfsr_next(&l);
			steps++;
		} while (l.state != 1 && steps <= count);
		CHECK(steps == count, "lfsr: width %u has the full period %llu",
		      w, (unsigned long long)steps);
	}
}

static struct opts base_opts(const struct testdesc *t)
{
	struct opts o = {
		.test = t, .blocksize = 512 * 1024, .erasesize = 2u << 20,
		.count = t->count ? t->count : 2, .nr_lo = 2, .nr_hi = 2,
		.fat_nr = 3,
		.scatter_order = 3, .scatter_span = 2, .interval_order = 3,
	};
	return o;
}

static int run_capture(const struct opts *o, struct dev *d, struct run *r,
		       char **text)
{
	size_t len;
	FILE *f = open_memstream(text, &len);
	int ret = run_prepare(r, o, d);

	d->log->n = 0;
	if (!ret)
		ret = run_execute(r, o, d, f);
	fclose(f);
	return ret;
}

static void test_align_pattern(void)
{
	struct opts o = base_opts(&testdesc_align);
	struct io_log log = { .rec = NULL };
	struct dev d;
	struct run r;
	char *text = NULL;
	int ret;

	o.blocksize = 1024;
	o.count = 2;
	fake_dev(&d, &log);
	ret = run_capture(&o, &d, &r, &text);
	CHECK(ret == 0, "align: runs");
	/*
	 * 1.5 GiB: the classic's maxalign fits 4 times, 256 MiB; aligns
	 * 256M..2K = 18 rows; 7 places, of which 5 fit, then round again
	 */
	CHECK(r.tab.nrows == 18, "align: 18 rows (got %zu)", r.tab.nrows);
	CHECK(log.n == 18 * 3 * 7 * 2, "align: rows*3 cols*7 places*2 rounds "
	      "reads (got %zu)", log.n);
	/* a round: pre at each place, then on, then post; then again */
	CHECK(log.rec[0].kind == IO_READ && log.rec[0].off == (256u << 20) -
	      1024 && log.rec[0].len == 1024,
	      "align: first read ends at the boundary");
	CHECK(log.rec[1].off == (512u << 20) - 1024,
	      "align: second place maxalign further");
	CHECK(log.rec[5].off == log.rec[0].off &&
	      log.rec[4].off == (1280u << 20) - 1024,
	      "align: the sixth place is the first again, not past the end");
	CHECK(log.rec[7].off == (256u << 20) - 512,
	      "align: 'on' read centred on the boundary (%llu)",
	      (unsigned long long)log.rec[7].off);
	CHECK(log.rec[14].off == 256u << 20, "align: 'post' starts at it");
	CHECK(log.rec[21].off == log.rec[0].off,
	      "align: the second round starts where the first did");
	CHECK(log.rec[3 * 7 * 2].off == (128u << 20) - 1024,
	      "align: the next row after both rounds");
	CHECK(strncmp(text, "align 268435456\tpre ", 20) == 0,
	      "align: classic row format");
	CHECK(r.plan.nranges == 0 && r.plan.io.writes == 0 &&
	      r.plan.io.discards == 0, "align: nothing written");
	run_free(&r);
	free(text);
	free(log.rec);
}

static void test_open_au_pattern(void)
{
	struct opts o = base_opts(&testdesc_open_au);
	struct io_log log = { .rec = NULL };
	struct dev d;
	struct run r;
	char *text = NULL;
	size_t i;
	int ret;

	fake_dev(&d, &log);
	ret = run_capture(&o, &d, &r, &text);
	CHECK(ret == 0, "open-au: runs");
	/* sizes 2M, 1M, 512K: (1 + 2 + 4) positions x 2 AUs */
	CHECK(log.n == 14, "open-au: 14 writes (got %zu)", log.n);
	CHECK(r.plan.nranges == 2 && r.plan.ranges[0].off == 16u << 20 &&
	      r.plan.ranges[1].off == (16u << 20) + 12 * (2u << 20) &&
	      r.plan.ranges[0].len == 2u << 20,
	      "open-au: two AUs 12 erase sizes apart from 16 MiB");
	/* linear: each position written into every AU before the next */
	CHECK(log.rec[2].len == 1u << 20 && log.rec[3].len == 1u << 20 &&
	      log.rec[2].off % (2u << 20) == 0 &&
	      log.rec[3].off % (2u << 20) == 0 &&
	      log.rec[4].off == log.rec[2].off + (1u << 20),
	      "open-au: chunk positions in order, all AUs per position");
	for (i = 0; i < log.n; i++)
		if (log.rec[i].kind != IO_WRITE)
			break;
	CHECK(i == log.n, "open-au: only writes");
	CHECK(strncmp(text, "2MiB    1G/s    \n", 17) == 0,
	      "open-au: classic padded row");
	CHECK(r.tab.nrows == 3 && r.tab.rows[0].v[0] == 1e9,
	      "open-au: rate is bytes per second (%g)", r.tab.rows[0].v[0]);
	run_free(&r);
	free(text);

	/* --random: every position exactly once per size */
	o.random = 1;
	o.nr_lo = o.nr_hi = 1;
	o.blocksize = 512;
	fake_dev(&d, &log);
	ret = run_capture(&o, &d, &r, &text);
	{
		static unsigned char seen[4096];
		size_t bad = 0, linear = 1;

		for (i = 0; i < log.n; i++)
			if (log.rec[i].len == 512) {
				uint64_t k = (log.rec[i].off - (16u << 20)) / 512;

				if (k >= 4096 || seen[k]++)
					bad++;
			}
		for (i = 0; i + 1 < log.n; i++)
			if (log.rec[i].len == 512 && log.rec[i + 1].len == 512 &&
			    log.rec[i + 1].off != log.rec[i].off + 512)
				linear = 0;
		CHECK(ret == 0 && bad == 0, "open-au --random: each 512B chunk "
		      "of the AU written once");
		CHECK(!linear, "open-au --random: not in linear order");
	}
	run_free(&r);
	free(text);
	free(log.rec);
}

static void test_sweep_and_fat(void)
{
	struct opts o = base_opts(&testdesc_open_au);
	struct io_log log = { .rec = NULL };
	struct dev d;
	struct run r;
	char *text = NULL;
	int ret;

	o.nr_lo = 1;
	o.nr_hi = 3;
	fake_dev(&d, &log);
	ret = run_capture(&o, &d, &r, &text);
	CHECK(ret == 0 && r.tab.kind == TAB_SWEEP && r.tab.ncols == 3 &&
	      r.tab.col_nr[2] == 3, "sweep: one column per N");
	CHECK(log.n == 7 * (1 + 2 + 3), "sweep: writes for N=1,2,3 (%zu)",
	      log.n);
	CHECK(strncmp(text, "size    linear=1 linear=2 linear=3 \n2MiB    1G/s",
		      47) == 0, "sweep: header names the padded columns");
	run_free(&r);
	free(text);

	o = base_opts(&testdesc_find_fat);
	fake_dev(&d, &log);
	ret = run_capture(&o, &d, &r, &text);
	CHECK(ret == 0 && r.tab.ncols == 3 && r.tab.nrows == 3,
	      "find-fat: 3 sizes x 3 AUs");
	CHECK(r.plan.nranges == 1 && r.plan.ranges[0].off == 0 &&
	      r.plan.ranges[0].len == 3 * (2u << 20),
	      "find-fat: writes exactly the first 3 AUs");
	CHECK(log.rec[0].off == 0 && log.rec[1].off == 2u << 20,
	      "find-fat: AU by AU");
	run_free(&r);
	free(text);
	free(log.rec);
}

/* --count on the write tests: that many passes, the best one kept. */
static void test_write_count(void)
{
	const struct testdesc *tests[] = {
		&testdesc_open_au, &testdesc_find_fat,
	};
	struct io_log log = { .rec = NULL };
	struct dev d;
	struct run r;
	char *text = NULL;
	size_t once, i;
	int ret;

	for (i = 0; i < 2; i++) {
		struct opts o = base_opts(tests[i]);

		CHECK(o.count == 1, "%s: one pass by default", tests[i]->name);
		fake_dev(&d, &log);
		ret = run_capture(&o, &d, &r, &text);
		once = log.n;
		run_free(&r);
		free(text);

		o.count = 3;
		fake_dev(&d, &log);
		slow_writes = 2;	/* the first pass of the first size */
		ret |= run_capture(&o, &d, &r, &text);
		slow_writes = 0;
		CHECK(ret == 0 && log.n == 3 * once, "%s: --count=3 writes "
		      "3 times (%zu, %zu)", tests[i]->name, once, log.n);
		CHECK(r.tab.nrows == 3 && r.tab.rows[0].v[0] == 1e9,
		      "%s: --count keeps the fastest pass (%g B/s)",
		      tests[i]->name, r.tab.nrows ? r.tab.rows[0].v[0] : 0);
		run_free(&r);
		free(text);
	}
	free(log.rec);
}

static void test_erase_scatter_interval(void)
{
	struct opts o = base_opts(&testdesc_erase);
	struct io_log log = { .rec = NULL };
	struct dev d;
	struct run r;
	char *text = NULL;
	int ret;

	fake_dev(&d, &log);
	ret = run_capture(&o, &d, &r, &text);
	CHECK(ret == 0 && log.n == 3 * 2 * 2 &&
	      log.rec[0].kind == IO_DISCARD && log.rec[0].off == 16u << 20 &&
	      log.rec[2].off == (18u << 20) - 512 * 1024,
	      "erase: aligned then misaligned by one block");
	CHECK(strstr(text, "aligned 1.05ms 2G/s     misaligned") != NULL,
	      "erase: time and rate columns, padded");
	run_free(&r);
	free(text);

	o = base_opts(&testdesc_scatter);
	fake_dev(&d, &log);
	ret = run_capture(&o, &d, &r, &text);
	CHECK(ret == 0 && r.tab.nrows == 8 && log.n == 16 &&
	      log.rec[0].len == 1024 * 1024, "scatter: 8 places x 2 reads "
	      "of blocksize*span");
	CHECK(log.rec[2].off != log.rec[0].off + 1024 * 1024 &&
	      r.tab.rows[1].key == o.blocksize &&
	      strncmp(text, "0.000000\t", 9) == 0 &&
	      strstr(text, "\n1.000000\t") != NULL,
	      "scatter: visited out of order, printed sorted");
	run_free(&r);
	free(text);

	o = base_opts(&testdesc_interval);
	fake_dev(&d, &log);
	ret = run_capture(&o, &d, &r, &text);
	/* time = 1000 + len + off%7 with off multiples of 512: fit exact-ish */
	CHECK(ret == 0 && strncmp(text, "512 bytes: min ", 15) == 0 &&
	      strstr(text, "\n1000 MB/s, ") != NULL,
	      "interval: classic lines, least squares finds 1G/s");
	run_free(&r);
	free(text);
	free(log.rec);
}

/* Reads that get faster with size: the fit is flat, not a negative rate. */
static void test_interval_flat(void)
{
	struct opts o = base_opts(&testdesc_interval);
	struct table t = { .kind = TAB_INTERVAL, .ncols = 3 };
	static const double ns[] = { 9010, 9000, 8960 };
	char *text = NULL;
	size_t len, i;
	FILE *f = open_memstream(&text, &len);

	for (i = 0; i < 3; i++) {
		struct table_row *r = table_add_row(&t, 512u << i);

		r->v[0] = r->v[1] = r->v[2] = ns[i];
	}
	testdesc_interval.print(f, &t, &o);
	fclose(f);
	CHECK(strstr(text, "\ninf MB/s, 8.99µs access time\n") != NULL &&
	      strstr(text, "\nbytes 512, time 9010 overhead 20\n") != NULL &&
	      strstr(text, "\nbytes 2048, time 8960 overhead -30\n") != NULL,
	      "interval: a falling line fits flat (inf MB/s, mean access)");
	table_free(&t);
	free(text);
}

static void test_errors(void)
{
	struct opts o = base_opts(&testdesc_find_fat);
	struct io_log log = { .rec = NULL };
	struct dev d;
	struct run r;
	char *text = NULL;
	int ret;

	o.fat_nr = 2;
	fake_dev(&d, &log);
	fail_off = 3 * 512 * 1024;
	ret = run_capture(&o, &d, &r, &text);
	fail_off = UINT64_MAX;
	CHECK(ret == -EIO && r.error.io == IO_WRITE &&
	      r.error.off == 3 * 512 * 1024 && r.error.len == 512 * 1024,
	      "error: comes back with operation, offset and length");
	run_free(&r);
	free(text);

	{
		/* offsets 2^62, 2^63 (too far): refused before any I/O */
		struct prog p = { .nnode = 0 };
		struct vm_node *io = prog_node(&p, VM_IO);
		struct vm_node *loop = prog_node(&p, VM_LOOP);
		struct vm vm = { .dev = &d };

		fake_dev(&d, &log);
		io->io = IO_READ;
		io->off = expr_var(VAR_POS, 0);
		io->len = expr_const(512);
		loop->var = VAR_POS;
		loop->order = ORD_LINEAR;
		loop->start = expr_const(1ll << 62);
		loop->stride = expr_const(1ll << 62);
		loop->count = expr_const(2);
		prog_kids(&p, loop, io, NULL);
		ret = vm_run(&vm, loop);
		CHECK(ret == -EOVERFLOW && log.n == 0, "overflow: a loop "
		      "past 2^63 is -EOVERFLOW before any I/O (%d)", ret);
		loop->count = expr_const(1);
		io->off.mul[VAR_POS] = 4;
		ret = vm_run(&vm, loop);
		CHECK(ret == -EOVERFLOW && log.n == 0, "overflow: an offset "
		      "expression past 2^63 is -EOVERFLOW (%d)", ret);
	}

	o = base_opts(&testdesc_align);
	o.blocksize = 1024;
	fake_dev(&d, &log);
	vm_stop = 1;
	ret = run_capture(&o, &d, &r, &text);
	vm_stop = 0;
	CHECK(ret == -EINTR && r.tab.nrows == 0, "stop flag: -EINTR before "
	      "the next I/O");
	run_free(&r);
	free(text);
	free(log.rec);
}

/* The dry run of code: planned from first passes (plan) or walked. */
static int plan_of(struct dev *d, const struct vm_node *code, int plan,
		   struct io_log *log, struct io_stats *st,
		   struct vm_error *err)
{
	struct vm vm = { .dev = d, .plan = plan };
	int ret;

	memset(log, 0, sizeof(*log));
	log->keep = LOG_EXTENTS;
	d->log = log;
	d->dry_run = 1;
	memset(&d->stats, 0, sizeof(d->stats));
	ret = vm_run(&vm, code);
	*st = d->stats;
	*err = vm.error;
	d->dry_run = 0;
	d->log = NULL;
	return ret;
}

/* Planned and walked, code gives the same plan or the same first error. */
static void same_plan(const char *what, struct dev *d,
		      const struct vm_node *code)
{
	struct io_log a, b;
	struct io_stats sa, sb;
	struct vm_error ea, eb;
	int ra = plan_of(d, code, 1, &a, &sa, &ea);
	int rb = plan_of(d, code, 0, &b, &sb, &eb);

	/* after a success, the error holds the last I/O: only the count */
	CHECK(ra == rb && (!ra || (ea.err == eb.err && ea.io == eb.io &&
				   ea.off == eb.off && ea.len == eb.len)),
	      "plan: %s: the same end (%d at %llu, walked %d at %llu)", what,
	      ra, ra ? (unsigned long long)ea.off : 0, rb,
	      rb ? (unsigned long long)eb.off : 0);
	CHECK(!memcmp(&sa, &sb, sizeof(sa)) && a.max_len == b.max_len &&
	      a.lo == b.lo && a.hi == b.hi,
	      "plan: %s: the same counts (%llu writes, walked %llu)", what,
	      (unsigned long long)sa.writes, (unsigned long long)sb.writes);
	/* no ranges: no array to compare (memcmp must not see NULL) */
	CHECK(a.written.n == b.written.n &&
	      (!a.written.n || !memcmp(a.written.r, b.written.r,
				       a.written.n * sizeof(*a.written.r))),
	      "plan: %s: the same %zu ranges (walked %zu)", what, a.written.n,
	      b.written.n);
	extents_free(&a.written);
	extents_free(&b.written);
}

/* Planning from first passes gives what walking every I/O gives. */
static void test_plan(void)
{
	const struct testdesc *tests[] = {
		&testdesc_align, &testdesc_open_au, &testdesc_find_fat,
		&testdesc_erase, &testdesc_scatter, &testdesc_interval,
	};
	struct io_log log = { .rec = NULL };
	struct prog prog;
	struct opts o;
	struct dev d;
	size_t i;
	int random;

	for (i = 0; i < sizeof(tests) / sizeof(*tests); i++)
		for (random = 0; random < 2; random++) {
			o = base_opts(tests[i]);
			o.random = random;
			o.blocksize = 4096;
			o.nr_lo = 1;
			o.nr_hi = 4;
			fake_dev(&d, &log);
			memset(&prog, 0, sizeof(prog));
			same_plan(tests[i]->name, &d,
				  tests[i]->build(&prog, &o, &d));
			prog_free(&prog);
		}
	{
		/*
		 * 4 MiB writes every 1 MiB from 1 GiB, 600 of them: the
		 * pass at 1.5 GiB - 3 MiB is the first off the 1.5 GiB
		 * device, in linear and in LFSR order
		 */
		struct prog p = { .nnode = 0 };
		struct vm_node *io = prog_node(&p, VM_IO);
		struct vm_node *pos = prog_node(&p, VM_LOOP);
		struct vm_node *rep = prog_node(&p, VM_LOOP);

		fake_dev(&d, &log);
		io->io = IO_WRITE;
		io->off = expr_var(VAR_POS, 0);
		io->len = expr_const(4 << 20);
		pos->var = VAR_POS;
		pos->start = expr_const(1ll << 30);
		pos->stride = expr_const(1 << 20);
		pos->count = expr_const(600);
		prog_kids(&p, pos, io, NULL);
		rep->var = VAR_REP;
		rep->order = ORD_LINEAR;
		rep->stride = expr_const(1);
		rep->count = expr_const(3);
		prog_kids(&p, rep, pos, NULL);
		pos->order = ORD_LINEAR;
		same_plan("a loop that leaves the device", &d, rep);
		pos->order = ORD_LFSR;
		same_plan("a loop that leaves the device, LFSR", &d, rep);
		pos->count = expr_const(509);
		same_plan("a loop up to the end of the device", &d, rep);
		/* 1 MiB writes every 3 MiB: one range each */
		io->len = expr_const(1 << 20);
		pos->stride = expr_const(3 << 20);
		pos->count = expr_const(100);
		same_plan("writes with gaps", &d, rep);
	}
	free(log.rec);
}

int main(void)
{
	test_lfsr();
	test_align_pattern();
	test_open_au_pattern();
	test_sweep_and_fat();
	test_write_count();
	test_erase_scatter_interval();
	test_interval_flat();
	test_errors();
	test_plan();
	return CHECK_DONE();
}
