// SPDX-License-Identifier: GPL-2.0
/*
 * Verdicts: the conclusions an expert draws from the result tables, each
 * with a confidence and the rows it rests on.  Pure functions, no I/O.
 */
#include <string.h>

#include "analysis/internal.h"

#define AT(member) offsetof(struct analysis, member)

/*
 * In dependency order, as libblkid lists its probers: a family may read
 * the verdicts of those above it and amend them, never one below.  The
 * open-AU counts scale by the erase block (a test AU of two blocks
 * written at random takes two slots), the random count is bounded by the
 * linear one, and the FAT family lowers the open-AU counts whose test
 * AUs it found special.  The text lines and the JSON keep this order.
 */
static const struct verdict_family families[] = {
	{ "erase_size", AT(erase_size), VT_CLAIMS, family_erase_size },
	/* read with the erase block, from the same steps; else from writes */
	{ "page_size", AT(page_size), 0, family_page_writes },
	{ "open_au_linear", AT(open_au_linear), VT_BOUND,
	  family_open_au_linear },
	{ "open_au_random", AT(open_au_random), VT_BOUND,
	  family_open_au_random },
	{ "min_full_speed_write", AT(min_full_speed_write), VT_BOUND,
	  family_min_write },
	{ "fat_aus", AT(fat_aus), VT_LIST, family_fat },
};

const struct verdict_family *analysis_families(size_t *n)
{
	*n = sizeof(families) / sizeof(families[0]);
	return families;
}

const struct verdict *family_verdict(const struct analysis *a,
				     const struct verdict_family *f)
{
	return (const struct verdict *)((const char *)a + f->offset);
}

void analyze(const struct table *tabs, size_t ntabs,
	     const struct analysis_ctx *ctx, struct analysis *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i].run)
			families[i].run(tabs, ntabs, ctx, out);
}
