// SPDX-License-Identifier: GPL-2.0
/*
 * Verdicts: the conclusions an expert draws from the result tables, each
 * with a confidence and the rows it rests on.  Pure functions, no I/O.
 */
#include <string.h>

#include "analysis/internal.h"
#include "lib/units.h"

void analyze(const struct table *tabs, size_t ntabs,
	     const struct analysis_ctx *ctx, struct analysis *out)
{
	char a[UNIT_BUFLEN];
	struct fat_scope scope;

	memset(out, 0, sizeof(*out));
	verdict_init(&out->erase_size, V_NONE);
	verdict_init(&out->page_size, V_NONE);
	analyze_align(tabs, ntabs, ctx, out);
	/* a hint where -a found nothing; other tests say nothing of it */
	if (out->erase_size.is_null && out->erase_size.type != V_NONE &&
	    ctx && ctx->dev_size) {
		say(out->erase_size.evidence, sizeof(out->erase_size.evidence),
		    "largest power of two dividing the device size: %s",
		    fmt_size(a, (double)(ctx->dev_size & -ctx->dev_size)));
	}
	if (ctx && out->erase_size.is_null)
		note_claims(&out->erase_size, ctx);
	analyze_open_au(tabs, ntabs, out);
	analyze_fat(tabs, ntabs, &out->fat_aus, &scope);
	note_fat_region(tabs, ntabs, &out->fat_aus, &scope, out);
}

/* ---- output ---- */

struct named {
	const char *key;
	const struct verdict *v;
};

static void names(const struct analysis *a, struct named n[6])
{
	n[0] = (struct named){ "erase_size", &a->erase_size };
	n[1] = (struct named){ "page_size", &a->page_size };
	n[2] = (struct named){ "open_au_linear", &a->open_au_linear };
	n[3] = (struct named){ "open_au_random", &a->open_au_random };
	n[4] = (struct named){ "min_full_speed_write",
			       &a->min_full_speed_write };
	n[5] = (struct named){ "fat_aus", &a->fat_aus };
}

static void value_text(const struct verdict *v, char *buf, size_t len)
{
	size_t i, n;

	if (v->is_null) {
		snprintf(buf, len, "unknown");
	} else if (v->type == V_BYTES) {
		n = snprintf(buf, len, "%s", v->at_most ? "at most " : "");
		fmt_size(buf + n, (double)v->value);
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
 * 7", "fewer than 7"), an AU list ("1", "0,3", "none") or "unknown".
 */
void analysis_print(FILE *f, const struct analysis *a, const char *prefix)
{
	struct named n[6];
	char val[UNIT_BUFLEN * 4];
	size_t i;

	names(a, n);
	for (i = 0; i < 6; i++) {
		const struct verdict *v = n[i].v;

		if (v->type == V_NONE)
			continue;
		value_text(v, val, sizeof(val));
		fprintf(f, "%s%s: %s (%s) -- %s%s%s\n", prefix ? prefix : "",
			n[i].key, val, confidence_name(v->conf),
			v->evidence[0] ? v->evidence : "no evidence",
			v->note[0] ? "; note: " : "", v->note);
	}
}

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

/*
 * "analysis": {"<key>": {"value": ..., "confidence": ..., "evidence":
 * ..., "note": ...|null}, ...} with all six keys always present; open-AU
 * and min-write verdicts also carry "at_least" and "at_most" (the value
 * is a bound: "fewer than 7" is at_most 6, "at most 32KiB" at_most
 * 32768), erase_size the device's "claims", fat_aus the "direction" of
 * its AUs ("slower" or "faster" than the others where write order does
 * not matter; null with no AU listed).  value is null when not
 * derivable.
 */
void analysis_json(struct json *j, const struct analysis *a)
{
	struct named n[6];
	size_t i, k;

	names(a, n);
	json_open(j, "analysis", '{');
	for (i = 0; i < 6; i++) {
		const struct verdict *v = n[i].v;
		int none = v->type == V_NONE || v->is_null;

		json_open(j, n[i].key, '{');
		if (none) {
			json_null(j, "value");
		} else if (i == 5) {
			json_open(j, "value", '[');
			for (k = 0; k < v->nlist; k++)
				json_u64(j, NULL, v->list[k]);
			json_close(j, ']');
		} else {
			json_u64(j, "value", v->value);
		}
		if (i == 2 || i == 3 || i == 4) {
			json_bool(j, "at_least", !none && v->at_least);
			json_bool(j, "at_most", !none && v->at_most);
		}
		json_str(j, "confidence", confidence_name(none && v->type ==
				V_NONE ? CONF_INCONCLUSIVE : v->conf));
		json_str(j, "evidence", v->evidence[0] ? v->evidence :
			 "no table for it");
		json_str(j, "note", v->note[0] ? v->note : NULL);
		if (i == 0)
			json_claims(j, v);
		if (i == 5)
			json_str(j, "direction", none || !v->direction ? NULL :
				 v->direction < 0 ? "slower" : "faster");
		json_close(j, '}');
	}
	json_close(j, '}');
}

