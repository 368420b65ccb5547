// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>

#include "table.h"

struct table_row *table_add_row(struct table *t, uint64_t key)
{
	struct table_row *r;
	unsigned i;

	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct table_row *n = realloc(t->rows, cap * sizeof(*n));

		if (!n)
			return NULL;
		t->rows = n;
		t->cap = cap;
	}
	r = &t->rows[t->nrows++];
	r->key = key;
	for (i = 0; i < TABLE_MAXCOLS; i++)
		r->v[i] = NAN;
	return r;
}

void table_free(struct table *t)
{
	free(t->rows);
	t->rows = NULL;
	t->nrows = t->cap = 0;
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
		[TAB_INTERVAL] = "interval",
	};

	return names[k];
}
