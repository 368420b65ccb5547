// SPDX-License-Identifier: GPL-2.0
/* Building blocks for the test descriptions. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testdesc.h"
#include "lib/units.h"

struct vm_node *prog_node(struct prog *p, enum vm_op op)
{
	struct vm_node *n;

	/* Programs are fixed shapes; running out is a programming error. */
	if (p->nnode >= PROG_NODES)
		abort();
	n = &p->node[p->nnode++];
	memset(n, 0, sizeof(*n));
	n->op = op;
	return n;
}

void prog_kids(struct prog *p, struct vm_node *n, ...)
{
	const struct vm_node *k;
	va_list ap;

	n->kids = &p->kid[p->nkid];
	va_start(ap, n);
	while ((k = va_arg(ap, const struct vm_node *))) {
		if (p->nkid >= PROG_KIDS)
			abort();
		p->kid[p->nkid++] = k;
		n->nkids++;
	}
	va_end(ap);
}

void prog_free(struct prog *p)
{
	free(p->list);
	p->list = NULL;
}

struct vm_node *best_of(struct prog *p, const struct opts *o,
			const struct vm_node *body)
{
	struct vm_node *rep = prog_node(p, VM_LOOP);

	rep->var = VAR_REP;
	rep->order = ORD_LINEAR;
	rep->count = expr_const(o->count);
	rep->stride = expr_const(1);
	rep->reduce = RED_MIN;
	prog_kids(p, rep, body, NULL);
	return rep;
}

/*
 * Each pass of a write test writes its region again, so another only
 * where it pays: where a pause of the card took PAUSE_SHARE of the
 * fastest pass so far or more (vm.c: paused(), pass_again()).  Such pauses, more than the jitter of
 * the writes, move the rows of the write tests: on the accuracy suite's
 * cards (seed 1) without them 90.1 % of the verdicts are right, against
 * 86.2 % with.  Linear order only: a random-order pass leaves its AUs in
 * a state the next one starts from (which hold a random slot, which were
 * merged), so a second pass measures something else, and an I/O that
 * stands out there is often the card at work, not a pause.
 */
#define PAUSE_SHARE 0.02

struct vm_node *best_pass(struct prog *p, const struct opts *o,
			  const struct vm_node *body)
{
	struct vm_node *rep = best_of(p, o, body);

	if (!o->count_typed && !o->random)
		rep->again = PAUSE_SHARE;
	return rep;
}

struct vm_node *chunk_write(struct prog *p)
{
	struct vm_node *io = prog_node(p, VM_IO);

	io->io = IO_WRITE;
	io->off = expr_var(VAR_AU, 0);
	io->off.mul[VAR_POS] = 1;
	io->len = expr_var(VAR_LEN, 0);
	return io;
}

struct vm_node *au_walk(struct prog *p, const struct opts *o,
			const struct vm_node *body)
{
	struct vm_node *pos = prog_node(p, VM_LOOP);

	pos->var = VAR_POS;
	pos->order = o->random ? ORD_LFSR : ORD_LINEAR;
	pos->stride = expr_var(VAR_LEN, 0);
	pos->span = o->erasesize;
	pos->reduce = RED_TOTAL;
	prog_kids(p, pos, body, NULL);
	return pos;
}

struct vm_node *size_series(struct prog *p, const struct opts *o,
			    struct vm_node *row)
{
	struct vm_node *series = prog_node(p, VM_LOOP);

	row->key = VAR_LEN;
	row->fmt = FMT_SIZE;
	series->var = VAR_LEN;
	series->order = ORD_HALVING;
	series->start = expr_const((int64_t)o->erasesize);
	series->stop = o->blocksize;
	prog_kids(p, series, row, NULL);
	return series;
}

struct vm_expr expr_var(enum vm_var v, int64_t add)
{
	struct vm_expr e = { .add = add };

	e.mul[v] = 1;
	return e;
}

struct vm_expr expr_const(int64_t add)
{
	return (struct vm_expr){ .add = add };
}

uint64_t round_up(uint64_t v, uint64_t to)
{
	/* not (v + to - 1) / to * to: that wraps for an erase size near 2^64 */
	return (v / to + (v % to != 0)) * to;
}

const char *shown(const char *typed, uint64_t v, char *buf, size_t len)
{
	if (typed)
		return typed;
	snprintf(buf, len, "%llu", (unsigned long long)v);
	return buf;
}

int does_not_fit(char *err, size_t errlen, const struct dev *d,
		 const char *need, ...)
{
	const char *first, *name, *typed = NULL;
	char s[UNIT_BUFLEN];
	va_list ap;

	va_start(ap, need);
	first = name = va_arg(ap, const char *);
	while (name && !(typed = va_arg(ap, const char *)))
		name = va_arg(ap, const char *);
	va_end(ap);
	fmt_size(s, (double)d->size);
	if (typed)
		snprintf(err, errlen, "--%s=%s: %s, but %s has %s", name, typed,
			 need, d->path, s);
	else
		snprintf(err, errlen, "%s (%s) is too small for the defaults: "
			 "%s; give a smaller --%s", d->path, s, need, first);
	return -EINVAL;
}

int check_offset(const struct opts *o, const struct dev *d, char *err,
		 size_t errlen)
{
	uint64_t off = write_offset(o);
	char v[32], s[UNIT_BUFLEN], e[UNIT_BUFLEN];

	if (off < d->size && off % d->sector == 0)
		return 0;
	/* the user never typed --offset: name what was defaulted */
	if (!o->have_offset)
		snprintf(err, errlen, "%s (%s) is too small for the write "
			 "tests, which start at 16MiB or 8 erase sizes (8 x "
			 "%s), whichever is larger: %s; give an --offset "
			 "inside it",
			 d->path, fmt_size(s, (double)d->size),
			 fmt_size(e, (double)o->erasesize),
			 o->erasesize > UINT64_MAX / 8 ? "past 2^64" :
			 shown(NULL, off, v, sizeof(v)));
	else if (off % d->sector)
		snprintf(err, errlen,
			 "--offset=%s: not a multiple of the %u-byte sector",
			 shown(o->offset_arg, off, v, sizeof(v)), d->sector);
	else
		snprintf(err, errlen, "--offset=%s: past the end of %s (%s)",
			 shown(o->offset_arg, off, v, sizeof(v)), d->path,
			 fmt_size(s, (double)d->size));
	return -EINVAL;
}

/*
 * Clear of the first AUs, where FAT-optimized areas live: one of them
 * taking no open slot makes a sweep count one AU too many.  The classic
 * default, 16 MiB rounded up to the erase size, is AU 1 for 16 MiB AUs.
 */
uint64_t write_offset(const struct opts *o)
{
	if (o->have_offset)
		return o->offset;
	/* past 2^64 (where 8 erase sizes wrapped): past any device's end */
	if (o->erasesize > UINT64_MAX / 8)
		return UINT64_MAX;
	if (8 * o->erasesize > 16ull << 20)
		return 8 * o->erasesize;
	return round_up(16ull << 20, o->erasesize);
}

/*
 * After a driven test printed a row (ret: how that went): the run's row
 * hook, and an output error told apart from an I/O one.
 */
int drive_row_end(struct vm *vm, int ret)
{
	if (!ret && vm->after_row)
		ret = vm->after_row();
	if (ret)
		vm->error.output = ret == -EIO;
	return ret;
}

int drive_write(struct vm *vm, uint64_t off, uint64_t len, uint64_t *ns)
{
	int ret;

	vm->error = (struct vm_error){ 0, IO_WRITE, off, len, 0 };
	if (vm_stop)
		ret = -EINTR;
	else {
		if (vm->tick)
			vm->tick(vm->hook_arg, TICK_IO);
		ret = dev_transfer(vm->dev, IO_WRITE, vm->buf, vm->buf_len,
				   len, off, ns);
	}
	if (ret) {
		vm->error.err = ret;
		return ret;
	}
	vm_write_latency(vm, *ns);
	if (vm->trace)
		fprintf(vm->trace, "write   %-12llu %llu %llu ns\n",
			(unsigned long long)off, (unsigned long long)len,
			(unsigned long long)*ns);
	return 0;
}
