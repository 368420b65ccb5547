// SPDX-License-Identifier: GPL-2.0
/* The verdicts as text lines, in the order of the verdict families. */
#include "output/verdicts.h"
#include "lib/units.h"

static void value_text(const struct verdict *v, char *buf, size_t len)
{
	size_t i, n;

	if (v->is_null) {
		snprintf(buf, len, "unknown");
	} else if (v->type == V_BYTES) {
		n = snprintf(buf, len, "%s", v->at_most ? "at most " : "");
		fmt_size(buf + n, (double)v->value);
	} else if (v->type == V_COUNT && v->upto) {
		snprintf(buf, len, "between %llu and %llu",
			 (unsigned long long)v->value,
			 (unsigned long long)v->upto);
	} else if (v->type == V_COUNT) {
		snprintf(buf, len, "%s%llu", v->at_least ? "at least " :
			 v->at_most ? "fewer than " : "",
			 (unsigned long long)v->value + !!v->at_most);
	} else if (!v->nlist) {
		snprintf(buf, len, "none");
	} else {
		for (i = 0, n = 0; i < v->nlist && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%llu", i ? "," : "",
				      (unsigned long long)v->list[i]);
	}
}

/*
 * One line per derived verdict:
 *
 *   <prefix><key>: <value> (<confidence>) -- <evidence>[; note: <note>]
 *
 * key as in the JSON; value a size ("4MiB"), a count ("6", "at least
 * 7", "fewer than 7", "between 8 and 18"), an AU list ("1", "0,3", "none") or "unknown".
 */
void analysis_print(FILE *f, const struct analysis *a, const char *prefix)
{
	const struct verdict_family *fam;
	char val[UNIT_BUFLEN * 4];
	size_t i, n;

	fam = analysis_families(&n);
	for (i = 0; i < n; i++) {
		const struct verdict *v = family_verdict(a, &fam[i]);

		if (v->type == V_NONE)
			continue;
		value_text(v, val, sizeof(val));
		fprintf(f, "%s%s: %s (%s) -- %s%s%s\n", prefix ? prefix : "",
			fam[i].key, val, confidence_name(v->conf),
			v->evidence[0] ? v->evidence : "no evidence",
			v->note[0] ? "; note: " : "", v->note);
	}
}
