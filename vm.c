// SPDX-License-Identifier: GPL-2.0
/* The test-program interpreter. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"
#include "vm.h"

volatile sig_atomic_t vm_stop;

/*
 * Galois LFSR feedback masks giving the maximal period 2^w - 1 for each
 * register width w; tests/unit_vm.c checks every width it relies on.
 */
static const uint32_t lfsr_taps[33] = {
	0, 0x1, 0x3, 0x6, 0xC, 0x14, 0x30, 0x60, 0xB8, 0x110, 0x240,
	0x500, 0x829, 0x100D, 0x2015, 0x6000, 0xD008, 0x12000, 0x20400,
	0x40023, 0x90000, 0x140000, 0x300000, 0x420000, 0xE10000,
	0x1200000, 0x2000023, 0x4000013, 0x9000000, 0x14000000,
	0x20000029, 0x48000000, 0x80200003,
};

void lfsr_init(struct lfsr *l, uint64_t count)
{
	unsigned w = 1;

	while (w < 32 && ((uint64_t)1 << w) - 1 < count)
		w++;
	l->count = count;
	l->taps = lfsr_taps[w];
	l->state = 1;
}

static uint32_t lfsr_step(uint32_t s, uint32_t taps)
{
	return (s >> 1) ^ (-(s & 1u) & taps);
}

/*
 * The register runs through 1..2^w-1 once per period; states above count
 * are skipped, so each position 0..count-1 comes out exactly once.
 */
uint64_t lfsr_next(struct lfsr *l)
{
	uint32_t s;

	do {
		s = l->state;
		l->state = lfsr_step(s, l->taps);
	} while (s > l->count);
	return s - 1;
}

/*
 * Checked: sizes near 2^63 must end in a clear error, not in a wrapped
 * offset.  0 or -EOVERFLOW.
 */
static int eval(const struct vm *vm, const struct vm_expr *e, int64_t *out)
{
	int64_t v = e->add, t;
	unsigned i;

	for (i = 0; i < VM_NVARS; i++) {
		if (!e->mul[i])
			continue;
		if (__builtin_mul_overflow(e->mul[i], vm->var[i], &t) ||
		    __builtin_add_overflow(v, t, &v))
			return -EOVERFLOW;
	}
	*out = v;
	return 0;
}

struct iter {
	const struct vm_node *n;
	uint64_t i, count, cur, stride;
	int64_t start;
	struct lfsr lfsr;
};

static int iter_begin(struct vm *vm, const struct vm_node *n, struct iter *it)
{
	int64_t count, stride;

	memset(it, 0, sizeof(*it));
	it->n = n;
	if (eval(vm, &n->start, &it->start) || eval(vm, &n->stride, &stride) ||
	    eval(vm, &n->count, &count))
		return -EOVERFLOW;
	if (n->span) {
		if (stride <= 0)
			return -EINVAL;
		count = (int64_t)(n->span / (uint64_t)stride);
	}
	if (count < 0 || stride < 0 || it->start < 0)
		return -EINVAL;
	/* the last value, start + (count - 1) * stride, must fit */
	if ((n->order == ORD_LINEAR || n->order == ORD_LFSR) &&
	    count > 1 && stride &&
	    (uint64_t)(count - 1) > (uint64_t)(INT64_MAX - it->start) /
				    (uint64_t)stride)
		return -EOVERFLOW;
	it->count = (uint64_t)count;
	it->stride = (uint64_t)stride;
	it->cur = (uint64_t)it->start;
	if (n->order == ORD_LFSR)
		lfsr_init(&it->lfsr, it->count);
	return 0;
}

/* Next value of the loop variable; 0 when the sequence is over. */
static int iter_next(struct vm *vm, struct iter *it, int64_t *v)
{
	const struct vm_node *n = it->n;
	uint64_t k;

	if (n->order == ORD_HALVING) {
		if (it->cur == 0 || it->cur < n->stop ||
		    it->cur % vm->dev->sector)
			return 0;
		*v = (int64_t)it->cur;
		it->cur /= 2;
		return 1;
	}
	if (it->i >= it->count)
		return 0;
	it->i++;
	switch (n->order) {
	case ORD_LFSR:
		k = lfsr_next(&it->lfsr);
		break;
	case ORD_LIST:
		*v = (int64_t)n->list[it->start + (int64_t)it->i - 1];
		return 1;
	default:
		k = it->i - 1;
		break;
	}
	*v = it->start + (int64_t)(k * it->stride);
	return 1;
}

static void reduce(enum vm_reduce r, struct vm_val *acc, const struct vm_val *v)
{
	double io_sum = acc->io_sum + v->io_sum;
	double io_max = acc->io_max > v->io_max ? acc->io_max : v->io_max;
	uint64_t ios = acc->ios + v->ios;

	if (acc->n == 0) {
		*acc = *v;
		acc->n = 1;
		return;
	}
	switch (r) {
	case RED_MIN:
		if (v->ns < acc->ns) {
			acc->ns = v->ns;
			acc->bytes = v->bytes;
		}
		break;
	case RED_MAX:
		if (v->ns > acc->ns) {
			acc->ns = v->ns;
			acc->bytes = v->bytes;
		}
		break;
	case RED_AVG:
	case RED_TOTAL:
	case RED_NONE:
		acc->ns += v->ns;
		acc->bytes += v->bytes;
		break;
	}
	acc->io_sum = io_sum;
	acc->io_max = io_max;
	acc->ios = ios;
	acc->n++;
}

static int run_node(struct vm *vm, const struct vm_node *n,
		    struct vm_val *out);

/* -v: the classic printed every step; this prints every timed I/O. */
static void trace_io(FILE *f, enum io_kind io, uint64_t off, uint64_t len,
		     uint64_t ns)
{
	char t[UNIT_BUFLEN], l[UNIT_BUFLEN];

	fprintf(f, "%-8s%-12llu %-9s%s\n", io_kind_name(io),
		(unsigned long long)off, fmt_size(l, (double)len),
		fmt_time(t, (double)ns));
}

static int do_io(struct vm *vm, const struct vm_node *n, int64_t off,
		 int64_t len, uint64_t *ns)
{
	if (vm_stop)
		return -EINTR;
	if (off < 0 || len <= 0)
		return -EINVAL;
	return dev_transfer(vm->dev, n->io, vm->buf, vm->buf_len,
			    (uint64_t)len, (uint64_t)off, ns);
}

static int run_io(struct vm *vm, const struct vm_node *n, struct vm_val *out)
{
	int64_t off = 0, len = 0;
	uint64_t ns = 0;
	int ret = eval(vm, &n->off, &off);

	if (!ret)
		ret = eval(vm, &n->len, &len);
	vm->error = (struct vm_error){ 0, n->io, (uint64_t)off, (uint64_t)len, 0 };
	if (!ret && vm->tick)
		vm->tick(vm->hook_arg, TICK_IO);
	if (!ret)
		ret = do_io(vm, n, off, len, &ns);
	if (ret) {
		vm->error.err = ret;
		return ret;
	}
	if (vm->trace)
		trace_io(vm->trace, n->io, (uint64_t)off, (uint64_t)len, ns);
	if (n->io == IO_WRITE)
		vm_write_latency(vm, ns);
	*out = (struct vm_val){ (double)ns, (double)len, 1, (double)ns,
				(double)ns, 1 };
	return 0;
}

/*
 * Planning (vm->plan, a dry run) need not walk every pass of a loop whose
 * passes differ only by where they are: it runs the first pass into a log
 * of its own and counts the others as copies of it, shifted.  Planning a
 * sweep of 200 million writes then costs what one of a few thousand does.
 * Where it cannot vouch for the copies (one would leave the device, a
 * count would overflow), the walk goes on from the second pass and meets
 * the same first error as ever.
 */

/*
 * Every offset under n moves by *mul per unit of v and nothing else
 * depends on v: not a length, not an inner loop's bounds.  Only loops and
 * I/Os: a row under the loop would be printed once per pass.
 */
static int moves_with(const struct vm_node *n, enum vm_var v, int *seen,
		      int64_t *mul)
{
	unsigned i;

	if (n->op == VM_IO) {
		if (n->len.mul[v] || (*seen && n->off.mul[v] != *mul))
			return 0;
		*seen = 1;
		*mul = n->off.mul[v];
		return 1;
	}
	if (n->op != VM_LOOP || n->var == v || n->start.mul[v] ||
	    n->stride.mul[v] || n->count.mul[v])
		return 0;
	for (i = 0; i < n->nkids; i++)
		if (!moves_with(n->kids[i], v, seen, mul))
			return 0;
	return 1;
}

/*
 * The shifts of the other passes relative to the one run at v0: lo + k *
 * step for k = 0..count-1, each on a sector and keeping the pass's I/Os
 * ([plo, phi)) on the device.  0, or -1 where that cannot be vouched for.
 */
static int pass_shifts(const struct vm *vm, const struct iter *it,
		       int64_t v0, int64_t mul, const struct io_log *pass,
		       int64_t *lo, uint64_t *step)
{
	/* iter_begin() checked that the last value fits */
	int64_t last = it->start + (int64_t)((it->count - 1) * it->stride);
	int64_t a, b, s, end;

	if (__builtin_mul_overflow(mul, it->start - v0, &a) ||
	    __builtin_mul_overflow(mul, last - v0, &b) ||
	    __builtin_mul_overflow(mul, (int64_t)it->stride, &s))
		return -1;
	*lo = a < b ? a : b;
	*step = (uint64_t)(s < 0 ? -s : s);
	if (!pass->hi)
		return 0;
	if (*step % vm->dev->sector || pass->hi > INT64_MAX ||
	    (int64_t)pass->lo + *lo < 0 ||
	    __builtin_add_overflow((int64_t)pass->hi, a > b ? a : b, &end) ||
	    (uint64_t)end > vm->dev->size)
		return -1;
	return 0;
}

/*
 * The first pass of loop n (at v0) into a log of its own, then, when they
 * can be vouched for, the other passes counted from it, leaving the
 * iterator at its end; else only the first pass.
 */
static int plan_loop(struct vm *vm, const struct vm_node *n, struct iter *it,
		     int64_t v0, int64_t mul, struct vm_val *out)
{
	struct dev *d = vm->dev;
	struct io_log *log = d->log, pass = { .keep = LOG_EXTENTS };
	struct io_stats stats = d->stats;
	uint64_t step = 0, times = 1;
	int64_t lo = 0;
	int ret;

	vm->var[n->var] = v0;
	d->log = &pass;
	memset(&d->stats, 0, sizeof(d->stats));
	ret = run_node(vm, n->kids[0], out);
	d->log = log;
	if (!ret && !pass_shifts(vm, it, v0, mul, &pass, &lo, &step) &&
	    !io_stats_add(&stats, &d->stats, it->count)) {
		times = it->count;
		it->i = it->count;
	} else {
		io_stats_add(&stats, &d->stats, 1);
		lo = 0;
	}
	d->stats = stats;
	if (io_log_add_shifted(log, &pass, lo, step, times) && !ret) {
		vm->error = (struct vm_error){ .err = -ENOMEM };
		ret = -ENOMEM;
	}
	extents_free(&pass.written);
	return ret;
}

static int plans(const struct vm *vm, const struct vm_node *n,
		 const struct iter *it, int64_t *mul)
{
	int seen = 0;

	*mul = 0;
	/* a keep loop's steps are columns of their own: walked */
	return vm->plan && it->count > 1 && !n->keep &&
	       (n->order == ORD_LINEAR || n->order == ORD_LFSR) &&
	       moves_with(n->kids[0], n->var, &seen, mul);
}

/*
 * A step one of whose I/Os took PAUSE_OVER times the mean of the others
 * and, over that mean, share of the step's time or more: the card
 * stopped for housekeeping (seed 000: a row in five at a third of its
 * rate), which a step more is unlikely to meet again.  A card slow at
 * every such I/O is as slow the second time, and the faster step kept
 * is no faster.
 */
#define PAUSE_OVER 3.0

static int paused(const struct vm_val *v, double share)
{
	double rest;

	if (v->ios < 2)
		return 0;
	rest = (v->io_sum - v->io_max) / (double)(v->ios - 1);
	return v->io_max >= PAUSE_OVER * rest &&
	       v->io_max - rest >= share * v->ns;
}

/*
 * Steps more, AGAIN_MAX at most, while the fastest so far was paused.
 * A third pass where the second met a pause too: accuracy.py --cards 300
 * seeds 1/3/7/11, 0.2 to 0.4 % more right and 2 fewer wrong-confident
 * in all; at noise=15 (a pause per 7 MiB) -O writes 18 % more than with
 * two.
 */
#define AGAIN_MAX 2

static int pass_again(struct vm *vm, const struct vm_node *n, int64_t v,
		      struct vm_val *acc)
{
	struct vm_val best = *acc, one;
	int64_t k;
	int ret = 0;

	for (k = 1; k <= AGAIN_MAX && paused(&best, n->again); k++) {
		if (vm->again && vm->again(vm->hook_arg, k > 1 ? &one : acc))
			break;
		vm->var[n->var] = v + k;
		ret = run_node(vm, n->kids[0], &one);
		if (ret)
			break;
		reduce(n->reduce, acc, &one);
		if (one.ns < best.ns)
			best = one;
	}
	return ret;
}

static int run_loop(struct vm *vm, const struct vm_node *n, struct vm_val *out)
{
	int64_t saved = vm->var[n->var], v, mul;
	struct vm_val acc = { .n = 0 }, one;
	struct iter it;
	int ret;

	ret = iter_begin(vm, n, &it);
	if (ret) {
		vm->error = (struct vm_error){ .err = ret };
		return ret;
	}
	if (plans(vm, n, &it, &mul) && iter_next(vm, &it, &v)) {
		ret = plan_loop(vm, n, &it, v, mul, &one);
		if (!ret)
			reduce(n->reduce, &acc, &one);
	}
	while (!ret && !vm->done && iter_next(vm, &it, &v)) {
		vm->var[n->var] = v;
		ret = run_node(vm, n->kids[0], &one);
		if (ret)
			break;
		/* a warm-up step is run, not counted */
		if (!n->warm || it.count < 2 || it.i > 1)
			reduce(n->reduce, &acc, &one);
		if (n->keep && vm->nkept < TABLE_MAXCOLS) {
			vm->kept_at[vm->nkept] = v;
			vm->kept[vm->nkept++] = one.ns;
		}
	}
	/* a plan counts the I/O that is sure to come, not this */
	if (!ret && !vm->done && !vm->plan && !vm->dev->dry_run &&
	    n->again > 0 && acc.n == 1)
		ret = pass_again(vm, n, v, &acc);
	vm->var[n->var] = saved;
	if (n->reduce == RED_AVG && acc.n) {
		acc.ns /= acc.n;
		acc.bytes /= acc.n;
	}
	*out = acc;
	return ret;
}

static double column_value(enum vm_fmt fmt, const struct vm_val *v)
{
	if (fmt == FMT_RATE)
		return v->ns > 0 ? v->bytes * 1e9 / v->ns : NAN;
	return v->ns;
}

static const char *format_value(char *buf, enum vm_fmt fmt, double v)
{
	if (isnan(v))
		return "-";
	switch (fmt) {
	case FMT_TIME:
		return fmt_time(buf, v);
	case FMT_RATE:
		return fmt_rate(buf, v);
	case FMT_SIZE:
		return fmt_size(buf, v);
	case FMT_NUM:
		snprintf(buf, UNIT_BUFLEN, "%.0f", v);
		return buf;
	case FMT_NONE:
		break;
	}
	return "";
}

struct row {
	double v[TABLE_MAXCOLS];
	struct vm_val val[TABLE_MAXCOLS];
	const struct vm_node *col[TABLE_MAXCOLS];
	unsigned n;
};

static int add_col(struct vm *vm, struct row *r, const struct vm_node *n,
		   const struct vm_val *val, double v)
{
	if (r->n >= TABLE_MAXCOLS) {
		vm->error = (struct vm_error){ .err = -E2BIG };
		return -E2BIG;
	}
	r->col[r->n] = n;
	r->val[r->n] = val ? *val : (struct vm_val){ .ns = v };
	r->v[r->n++] = v;
	return 0;
}

/* Columns computed from earlier columns of the same row. */
static int derived_col(struct vm *vm, struct row *r, const struct vm_node *k)
{
	const struct vm_val *a = &r->val[k->a];

	if (k->a >= r->n || k->b >= r->n || k->c >= r->n)
		return -EINVAL;
	if (k->op == VM_RATEOF)
		return add_col(vm, r, k, NULL, column_value(FMT_RATE, a));
	if (k->op == VM_AVGOF)
		return add_col(vm, r, k, NULL,
			       a->ios ? a->io_sum / (double)a->ios : NAN);
	if (k->op == VM_MAXOF)
		return add_col(vm, r, k, NULL, a->ios ? a->io_max : NAN);
	return add_col(vm, r, k, NULL,
		       r->v[k->b] - (r->v[k->a] + r->v[k->c]) / 2);
}

/*
 * A loop whose steps are columns; dead columns are skipped (NaN).  A
 * reversed one runs its steps from the last to the first, each still
 * printed in its own column.
 */
static int run_cols(struct vm *vm, const struct vm_node *n, struct row *r)
{
	int64_t saved = vm->var[n->var], val[TABLE_MAXCOLS], v;
	unsigned base = r->n, nv = 0, k, i, j;
	struct vm_val one;
	struct iter it;
	double rate;
	int ret;

	ret = iter_begin(vm, n, &it);
	while (!ret && iter_next(vm, &it, &v)) {
		ret = add_col(vm, r, n, NULL, NAN);
		if (!ret)
			val[nv++] = v;
	}
	for (k = 0; !ret && k < nv; k++) {
		i = n->reverse ? nv - 1 - k : k;
		j = base + i;
		if (vm->col_dead[j])
			continue;
		vm->var[n->var] = val[i];
		ret = run_node(vm, n->kids[0], &one);
		if (ret)
			break;
		rate = column_value(n->fmt, &one);
		r->v[j] = rate;
		r->val[j].ns = rate;
		if (isnan(rate) || n->prune <= 0)
			continue;
		if (rate > vm->col_best[j])
			vm->col_best[j] = rate;
		else if (rate < n->prune * vm->col_best[j])
			vm->col_dead[j] = 1;
	}
	vm->var[n->var] = saved;
	return ret;
}

/* A label and its value: "pre 1.02ms" */
static const char *field(char *buf, size_t len, const char *label,
			 enum vm_fmt fmt, double v)
{
	char val[UNIT_BUFLEN];

	snprintf(buf, len, "%s%s", label ? label : "",
		 format_value(val, fmt, v));
	return buf;
}

static void print_row(FILE *f, const struct vm_node *n, double key,
		      const struct row *r)
{
	char buf[2 * UNIT_BUFLEN];
	const struct vm_node *c;
	unsigned i;

	field(buf, sizeof(buf), n->label, n->fmt, key);
	if (n->width)
		put_field(f, buf, ROW_KEY_WIDTH);
	else
		fputs(buf, f);
	for (i = 0; i < r->n; i++) {
		c = r->col[i];
		if (c->fmt == FMT_NONE)
			continue;
		field(buf, sizeof(buf), c->op == VM_COLS ? NULL : c->label,
		      c->fmt, r->v[i]);
		if (n->width) {
			put_field(f, buf, n->width);
		} else {
			fputc('\t', f);
			fputs(buf, f);
		}
	}
	fputc('\n', f);
}

/* Kept steps go after the printed columns, unprinted. */
static int add_kept(struct vm *vm, struct row *r)
{
	static const struct vm_node hidden = { .op = VM_LOOP,
					       .fmt = FMT_NONE };
	unsigned i, first = r->n;
	int ret = 0;

	for (i = 0; i < vm->nkept && !ret; i++)
		ret = add_col(vm, r, &hidden, NULL, vm->kept[i]);
	if (ret || !vm->tab || !vm->nkept)
		return ret;
	vm->tab->kept_from = first;
	vm->tab->nkept = vm->nkept;
	for (i = 0; i < vm->nkept; i++)
		vm->tab->kept_at[i] = (uint64_t)vm->kept_at[i];
	return 0;
}

/* Without memory for it a row just has no latency: not worth failing. */
static void keep_latency(struct table_row *tr, const struct latency *l)
{
	tr->lat = malloc(sizeof(*tr->lat));
	if (tr->lat)
		*tr->lat = *l;
}

static void new_row_latency(struct vm *vm)
{
	latency_init(&vm->row_lat, vm->stall_ns ? vm->stall_ns : LAT_STALL_NS);
}

void vm_row_latency(struct vm *vm, struct table_row *tr)
{
	if (tr && vm->row_lat.count)
		keep_latency(tr, &vm->row_lat);
	new_row_latency(vm);
}

void vm_write_latency(struct vm *vm, uint64_t ns)
{
	if (vm->plan)
		return;
	if (!vm->row_lat.threshold_ns)
		new_row_latency(vm);
	latency_add(&vm->row_lat, ns);
}

/*
 * A value as the table keeps it: as printed, and a kept step (shown by
 * the survey, output/places.c) to the ns, so that --analyze of the text
 * judges what the run judged live.
 */
static double kept_value(enum vm_fmt fmt, double v)
{
	switch (fmt) {
	case FMT_TIME:
		return as_printed(v, 't');
	case FMT_RATE:
		return as_printed(v, 'r');
	case FMT_NONE:
		return isfinite(v) ? round(v) : v;
	default:
		return v;
	}
}

static int emit_row(struct vm *vm, const struct vm_node *n,
		    const struct row *r)
{
	double key = (double)vm->var[n->key];
	struct table_row *tr;
	unsigned i;

	if (vm->tab) {
		if (r->n > vm->tab->ncols)
			vm->tab->ncols = r->n;
		tr = table_add_row(vm->tab, (uint64_t)vm->var[n->key]);
		for (i = 0; tr && i < r->n; i++)
			tr->v[i] = vm->rows_printed ?
				   kept_value(r->col[i]->fmt, r->v[i]) :
				   r->v[i];
		if (tr && vm->row_lat.count)
			keep_latency(tr, &vm->row_lat);
	}
	if (vm->out) {
		if (vm->tick)
			vm->tick(vm->hook_arg, TICK_ROW);
		errno = 0;
		print_row(vm->out, n, key, r);
		/* results that cannot be kept: stop before writing more */
		if (fflush(vm->out) || ferror(vm->out)) {
			vm->error = (struct vm_error){
				.err = errno ? -errno : -EIO, .output = 1 };
			return vm->error.err;
		}
	}
	return vm->after_row ? vm->after_row() : 0;
}

/*
 * A row's kept steps (each keep loop's result at each place) with their
 * shown columns, and the row printed.
 */
static int finish_row(struct vm *vm, const struct vm_node *n, struct row *r,
		      int ret)
{
	if (!ret)
		ret = add_kept(vm, r);
	if (ret) {
		if (!vm->error.err)
			vm->error = (struct vm_error){ .err = ret };
		return ret;
	}
	ret = emit_row(vm, n, r);
	if (!ret && vm->row_done && vm->tab &&
	    vm->row_done(vm->hook_arg, vm->tab))
		vm->done = 1;
	return ret;
}

static int derived(const struct vm_node *k)
{
	return k->op == VM_DIFF || k->op == VM_RATEOF || k->op == VM_AVGOF ||
	       k->op == VM_MAXOF;
}

/*
 * The measured columns of a row once each, round after round, each kept
 * step's best over the rounds; a column (a loop that keeps its steps) is
 * then the mean of its steps' best.  A card whose baseline shifts while a
 * row is measured (housekeeping, a power state) moves every column of a
 * round alike: measured column after column, the shift would land
 * between them and pass for a step (-a: pre, on and post).
 */
static int run_rounds(struct vm *vm, const struct vm_node *n)
{
	unsigned from[TABLE_MAXCOLS], to[TABLE_MAXCOLS], i, j, round;
	double best[TABLE_MAXCOLS], sum;
	struct row r = { .n = 0 };
	struct vm_val v;
	int ret = 0;

	for (round = 0; round < n->rounds && !ret; round++) {
		vm->nkept = 0;
		for (i = 0; i < n->nkids && !ret; i++) {
			if (derived(n->kids[i]))
				continue;
			from[i] = vm->nkept;
			ret = run_node(vm, n->kids[i], &v);
			to[i] = vm->nkept;
		}
		for (j = 0; j < vm->nkept; j++)
			best[j] = round ? fmin(best[j], vm->kept[j]) :
				  vm->kept[j];
	}
	for (j = 0; j < vm->nkept; j++)
		vm->kept[j] = best[j];
	for (i = 0; i < n->nkids && !ret; i++) {
		if (derived(n->kids[i])) {
			ret = derived_col(vm, &r, n->kids[i]);
			continue;
		}
		for (j = from[i], sum = 0; j < to[i]; j++)
			sum += best[j];
		ret = add_col(vm, &r, n->kids[i], NULL, to[i] > from[i] ?
			      sum / (to[i] - from[i]) : NAN);
	}
	return finish_row(vm, n, &r, ret);
}

static int run_row(struct vm *vm, const struct vm_node *n)
{
	struct row r = { .n = 0 };
	const struct vm_node *k;
	struct vm_val v;
	unsigned i;
	int ret = 0;

	vm->nkept = 0;
	new_row_latency(vm);
	if (n->rounds)
		return run_rounds(vm, n);
	for (i = 0; i < n->nkids && !ret; i++) {
		k = n->kids[i];
		if (k->op == VM_COLS) {
			ret = run_cols(vm, k, &r);
		} else if (derived(k)) {
			ret = derived_col(vm, &r, k);
		} else {
			ret = run_node(vm, k, &v);
			if (!ret)
				ret = add_col(vm, &r, k, &v,
					      column_value(k->fmt, &v));
		}
	}
	return finish_row(vm, n, &r, ret);
}

static int run_node(struct vm *vm, const struct vm_node *n,
		    struct vm_val *out)
{
	*out = (struct vm_val){ .n = 0 };
	switch (n->op) {
	case VM_IO:
		return run_io(vm, n, out);
	case VM_LOOP:
		return run_loop(vm, n, out);
	case VM_ROW:
		return run_row(vm, n);
	case VM_COLS:
	case VM_DIFF:
	case VM_RATEOF:
	case VM_AVGOF:
	case VM_MAXOF:
		break;
	}
	vm->error = (struct vm_error){ .err = -EINVAL };
	return -EINVAL;
}

int vm_run(struct vm *vm, const struct vm_node *prog)
{
	struct vm_val v;

	memset(&vm->error, 0, sizeof(vm->error));
	vm->done = 0;
	memset(vm->col_best, 0, sizeof(vm->col_best));
	memset(vm->col_dead, 0, sizeof(vm->col_dead));
	return run_node(vm, prog, &v);
}
