// SPDX-License-Identifier: GPL-2.0
/* Building blocks for the test descriptions. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

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
	return (v + to - 1) / to * to;
}

uint64_t write_offset(const struct opts *o)
{
	if (o->have_offset)
		return o->offset;
	return round_up(16ull << 20, o->erasesize);
}
