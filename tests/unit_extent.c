// SPDX-License-Identifier: GPL-2.0
/* The merged range sets that plans are made of. */
#include <stdlib.h>

#include "check.h"
#include "lib/extent.h"

static int is(const struct extents *e, size_t i, uint64_t off, uint64_t len)
{
	return i < e->n && e->r[i].off == off && e->r[i].len == len;
}

static void merging(void)
{
	struct extents e = { .r = NULL };

	extents_add(&e, 100, 10);
	extents_add(&e, 0, 10);
	extents_add(&e, 200, 10);
	CHECK(e.n == 3 && is(&e, 0, 0, 10) && is(&e, 1, 100, 10) &&
	      is(&e, 2, 200, 10), "extents: disjoint ranges kept sorted");
	extents_add(&e, 10, 90);
	CHECK(e.n == 2 && is(&e, 0, 0, 110), "extents: a range touching two "
	      "merges them");
	extents_add(&e, 50, 10);
	CHECK(e.n == 2 && is(&e, 0, 0, 110), "extents: a range inside adds "
	      "nothing");
	extents_add(&e, 105, 200);
	CHECK(e.n == 1 && is(&e, 0, 0, 305) && extents_bytes(&e) == 305,
	      "extents: an overlapping range swallows the ones it covers");
	extents_add(&e, 305, 5);
	CHECK(e.n == 1 && is(&e, 0, 0, 310), "extents: adjacent extends");
	extents_free(&e);
}

/* Interleaved chunk writes over 40 AUs, as -O does: 40 ranges, always. */
static void bounded(void)
{
	struct extents e = { .r = NULL };
	uint64_t au = 1 << 20, pos, k, grew = 0;

	for (pos = 0; pos < au; pos += 512)
		for (k = 0; k < 40; k++) {
			extents_add(&e, 16 * au + 12 * au * k + pos, 512);
			grew += e.n > 40;
		}
	CHECK(e.n == 40 && !grew && is(&e, 39, 16 * au + 12 * au * 39, au),
	      "extents: 81920 interleaved writes make 40 ranges (%zu)", e.n);
	extents_free(&e);
}

int main(void)
{
	merging();
	bounded();
	return CHECK_DONE();
}
