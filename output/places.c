// SPDX-License-Identifier: GPL-2.0
/*
 * The places of a live -a table in text:
 *
 *   # places at 0 1073741824 ... (...)	where each place starts
 *   # places 4194304 pre T.. on T.. post T..	one row's reads there, ns
 *
 * to the ns the table keeps (vm.c), so --analyze of a survey's text
 * judges the page and erase size as the survey did.
 */
#include <inttypes.h>
#include <math.h>

#include "output/places.h"

static void values(FILE *f, const char *name, const double *v, unsigned n)
{
	unsigned k;

	fprintf(f, " %s", name);
	for (k = 0; k < n; k++) {
		if (isfinite(v[k]))
			fprintf(f, " %.0f", v[k]);
		else
			fputs(" -", f);
	}
}

void places_text(FILE *f, const struct table *t)
{
	unsigned np = t->nkept / 3, k;
	size_t i;

	if (t->kind != TAB_ALIGN || !np || t->nkept % 3)
		return;
	fputs("# places at", f);
	for (k = 0; k < np; k++)
		fprintf(f, " %" PRIu64, t->kept_at[k]);
	fputs(" (the reads each row above averages: before, on and after "
	      "its boundary past each place, in ns)\n", f);
	for (i = 0; i < t->nrows; i++) {
		const double *v = t->rows[i].v + t->kept_from;

		fprintf(f, "# places %" PRIu64, t->rows[i].key);
		values(f, "pre", v, np);
		values(f, "on", v + np, np);
		values(f, "post", v + 2 * np, np);
		fputc('\n', f);
	}
}
