// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/table.h"

/* Values every row of a kind has, whatever ncols says. */
static unsigned kind_width(enum table_kind k)
{
	switch (k) {
	case TAB_ALIGN:
	case TAB_ERASE:
	case TAB_IOPS:
		return 4;
	case TAB_INTERVAL:
	case TAB_CAPACITY:
		return 2;
	case TAB_SUSTAINED:
	case TAB_EWRITE:
		return 3;
	case TAB_RAMP:
		return 5;
	default:
		return 1;
	}
}

/*
 * Move every row's values to a pool of cap rows of width w; rows keep
 * their slot index, so sorted or not they stay with their values.
 */
static int relayout(struct table *t, size_t cap, unsigned w)
{
	double *pool = malloc(cap * w * sizeof(*pool));
	size_t i, slot;
	unsigned j;

	if (!pool)
		return -1;
	for (i = 0; i < cap * w; i++)
		pool[i] = NAN;
	for (i = 0; i < t->nrows; i++) {
		slot = (size_t)(t->rows[i].v - t->pool) / t->width;
		for (j = 0; j < t->width; j++)
			pool[slot * w + j] = t->rows[i].v[j];
		t->rows[i].v = pool + slot * w;
	}
	free(t->pool);
	t->pool = pool;
	t->width = w;
	return 0;
}

static int grow(struct table *t, unsigned w)
{
	size_t cap = t->nrows == t->cap ? (t->cap ? t->cap * 2 : 16) : t->cap;
	struct table_row *rows;

	if (cap != t->cap) {
		rows = realloc(t->rows, cap * sizeof(*rows));
		if (!rows)
			return -1;
		t->rows = rows;
	}
	if (relayout(t, cap, w))
		return -1;
	t->cap = cap;
	return 0;
}

struct table_row *table_add_row(struct table *t, uint64_t key)
{
	unsigned w = t->ncols > kind_width(t->kind) ? t->ncols :
		     kind_width(t->kind);
	struct table_row *r;

	if (w < t->width)
		w = t->width;
	if ((t->nrows == t->cap || w > t->width) && grow(t, w))
		return NULL;
	r = &t->rows[t->nrows];
	r->key = key;
	r->lat = NULL;
	r->v = t->pool + t->nrows * t->width;
	t->nrows++;
	return r;
}

int table_widen(struct table *t, unsigned w)
{
	if (w <= t->width)
		return 0;
	if (t->ncols < w)
		t->ncols = w;
	return t->cap ? relayout(t, t->cap, w) : 0;
}

void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrows; i++)
		free(t->rows[i].lat);
	free(t->rows);
	free(t->pool);
	t->rows = NULL;
	t->pool = NULL;
	t->nrows = t->cap = 0;
	t->width = 0;
}

void put_field(FILE *f, const char *s, unsigned width)
{
	unsigned cols = 0;
	const char *p;

	/* columns, not bytes: "µ" is two bytes of UTF-8 */
	for (p = s; *p; p++)
		cols += ((unsigned char)*p & 0xc0) != 0x80;
	fputs(s, f);
	do
		fputc(' ', f);
	while (++cols < width);
}

const char *table_kind_name(enum table_kind k)
{
	static const char *const names[] = {
		[TAB_ALIGN] = "align", [TAB_OPENAU] = "open_au",
		[TAB_SWEEP] = "open_au_sweep", [TAB_FAT] = "find_fat",
		[TAB_ERASE] = "erase", [TAB_SCATTER] = "scatter",
		[TAB_INTERVAL] = "interval", [TAB_RAMP] = "open_au_ramp",
		[TAB_IOPS] = "iops", [TAB_SUSTAINED] = "sustained",
		[TAB_EWRITE] = "erase_writes", [TAB_CAPACITY] = "capacity",
	};

	return names[k];
}
