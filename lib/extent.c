// SPDX-License-Identifier: GPL-2.0
/* Merged sets of byte ranges: what a test plan writes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/extent.h"

static uint64_t end_of(const struct range *r)
{
	return r->off + r->len;
}

/* Index of the first range that ends at or after off. */
static size_t first_reaching(const struct extents *e, uint64_t off)
{
	size_t lo = 0, hi = e->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (end_of(&e->r[mid]) < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int make_room(struct extents *e)
{
	size_t cap = e->cap ? 2 * e->cap : 16;
	struct range *r;

	if (e->n < e->cap)
		return 0;
	r = realloc(e->r, cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	e->r = r;
	e->cap = cap;
	return 0;
}

/*
 * Tests write each AU in passes over the same bytes, so the common case
 * is a range inside or right after the one touched last: checked first.
 */
static int near_hint(struct extents *e, uint64_t off, uint64_t end)
{
	struct range *h = &e->r[e->hint];

	if (off < h->off || off > end_of(h))
		return 0;
	if (end <= end_of(h))
		return 1;
	if (e->hint + 1 < e->n && end >= e->r[e->hint + 1].off)
		return 0;
	h->len = end - h->off;
	return 1;
}

int extents_add(struct extents *e, uint64_t off, uint64_t len)
{
	uint64_t end = off + len;
	size_t i, j;

	if (e->n && near_hint(e, off, end))
		return 0;
	i = first_reaching(e, off);
	e->hint = i;
	if (i < e->n && near_hint(e, off, end))
		return 0;
	for (j = i; j < e->n && e->r[j].off <= end; j++)
		;
	if (j == i) {
		if (make_room(e))
			return -ENOMEM;
		memmove(&e->r[i + 1], &e->r[i], (e->n - i) * sizeof(*e->r));
		e->r[i] = (struct range){ off, len };
		e->n++;
	} else {
		/* ranges i..j-1 touch [off, end): one range replaces them */
		if (e->r[i].off < off)
			off = e->r[i].off;
		if (end_of(&e->r[j - 1]) > end)
			end = end_of(&e->r[j - 1]);
		e->r[i] = (struct range){ off, end - off };
		memmove(&e->r[i + 1], &e->r[j], (e->n - j) * sizeof(*e->r));
		e->n -= j - i - 1;
	}
	return 0;
}

int extents_add_shifted(struct extents *e, const struct extents *src,
			int64_t lo, uint64_t step, uint64_t count)
{
	uint64_t sweep = (count - 1) * step, k;
	const struct range *r;
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < src->n; i++) {
		r = &src->r[i];
		/* each copy reaches the next: together one range */
		if (r->len >= step) {
			ret = extents_add(e, r->off + (uint64_t)lo,
					  r->len + sweep);
			continue;
		}
		for (k = 0; !ret && k < count; k++)
			ret = extents_add(e, r->off + (uint64_t)lo + k * step,
					  r->len);
	}
	return ret;
}

uint64_t extents_bytes(const struct extents *e)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < e->n; i++)
		sum += e->r[i].len;
	return sum;
}

void extents_free(struct extents *e)
{
	free(e->r);
	memset(e, 0, sizeof(*e));
}
