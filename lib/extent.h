/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_EXTENT_H
#define FLASHBENCH_EXTENT_H

#include <stddef.h>
#include <stdint.h>

struct range {
	uint64_t off, len;
};

/*
 * A set of byte ranges kept sorted and merged as they are added, so its
 * size follows the number of disjoint ranges, not the number of I/Os that
 * made them: a plan of a billion writes over 40 AUs holds 40 ranges.
 */
struct extents {
	struct range *r;
	size_t n, cap;
	size_t hint;		/* the range touched last */
};

/* Add [off, off + len) (off + len must not wrap); 0 or -ENOMEM. */
int extents_add(struct extents *e, uint64_t off, uint64_t len);

/*
 * Add count copies of src, shifted by lo + k * step for k = 0..count-1
 * (count >= 1; every shifted range must lie inside 0..2^64): a range at
 * least as long as step takes one range whatever the count.  0 or -ENOMEM.
 */
int extents_add_shifted(struct extents *e, const struct extents *src,
			int64_t lo, uint64_t step, uint64_t count);

/* Bytes covered. */
uint64_t extents_bytes(const struct extents *e);

void extents_free(struct extents *e);

#endif
