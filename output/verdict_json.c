// SPDX-License-Identifier: GPL-2.0
/* The verdicts as the "analysis" member of the --json document. */
#include "output/verdicts.h"

/* "claims": [{"name", "bytes", "source", "agrees": true|false|null}] */
static void json_claims(struct json *j, const struct verdict *v)
{
	unsigned i;

	json_open(j, "claims", '[');
	for (i = 0; i < v->nclaims; i++) {
		const struct claim *c = &v->claims[i];

		json_open(j, NULL, '{');
		json_str(j, "name", c->name);
		json_u64(j, "bytes", c->bytes);
		json_str(j, "source", c->source);
		if (c->agrees < 0)
			json_null(j, "agrees");
		else
			json_bool(j, "agrees", c->agrees);
		json_close(j, '}');
	}
	json_close(j, ']');
}

static void json_value(struct json *j, const struct verdict *v,
		       unsigned traits, int none)
{
	size_t k;

	if (none) {
		json_null(j, "value");
	} else if (traits & VT_LIST) {
		json_open(j, "value", '[');
		for (k = 0; k < v->nlist; k++)
			json_u64(j, NULL, v->list[k]);
		json_close(j, ']');
	} else {
		json_u64(j, "value", v->value);
	}
}

static void json_verdict(struct json *j, const struct verdict *v,
			 unsigned traits)
{
	int none = v->type == V_NONE || v->is_null;

	json_value(j, v, traits, none);
	if (traits & VT_BOUND) {
		json_bool(j, "at_least", !none && v->at_least);
		json_bool(j, "at_most", !none && v->at_most);
		if (none || !v->upto)
			json_null(j, "max");
		else
			json_u64(j, "max", v->upto);
	}
	json_str(j, "confidence", confidence_name(none && v->type ==
			V_NONE ? CONF_INCONCLUSIVE : v->conf));
	json_str(j, "evidence", v->evidence[0] ? v->evidence :
		 "no table for it");
	json_str(j, "note", v->note[0] ? v->note : NULL);
	if (traits & VT_CLAIMS)
		json_claims(j, v);
	if (traits & VT_LIST)
		json_str(j, "direction", none || !v->direction ? NULL :
			 v->direction < 0 ? "slower" : "faster");
}

/*
 * "analysis": {"<key>": {"value": ..., "confidence": ..., "evidence":
 * ..., "note": ...|null}, ...} with every family's key always present;
 * open-AU and min-write verdicts also carry "at_least" and "at_most"
 * (the value is a bound: "fewer than 7" is at_most 6, "at most 32KiB"
 * at_most 32768; "between 8 and 18" is at_least 8 with "max" 18, else
 * "max" is null), erase_size the device's "claims", fat_aus the
 * "direction" of its AUs ("slower" or "faster" than the others where
 * write order does not matter; null with no AU listed).  value is null
 * when not derivable.
 */
void analysis_json(struct json *j, const struct analysis *a)
{
	const struct verdict_family *fam;
	size_t i, n;

	fam = analysis_families(&n);
	json_open(j, "analysis", '{');
	for (i = 0; i < n; i++) {
		json_open(j, fam[i].key, '{');
		json_verdict(j, family_verdict(a, &fam[i]), fam[i].traits);
		json_close(j, '}');
	}
	json_close(j, '}');
}
