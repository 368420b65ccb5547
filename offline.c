// SPDX-License-Identifier: GPL-2.0
/*
 * Offline analysis: find the tables in saved or pasted reports and give
 * the same verdicts a live run gives, one section per card.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "identity/identity.h"
#include "lib/msg.h"
#include "lib/sustain_rule.h"
#include "output/identity_out.h"
#include "offline.h"
#include "report/report.h"
#include "output/run_json.h"
#include "lib/units.h"

/* The whole of f, up to REPORT_MAX_BYTES; NULL with errno (EFBIG: more). */
static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap), *nb;

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n > REPORT_MAX_BYTES) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		if (n == cap) {
			/* one byte past the limit tells a file that is over it */
			cap = cap * 2 > REPORT_MAX_BYTES ? REPORT_MAX_BYTES + 1 :
							   cap * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
	}
	if (buf && ferror(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static char *read_report(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	char *text, lim[UNIT_BUFLEN];

	if (!f)
		die_usage("--analyze=%s: %s", path, strerror(errno));
	text = slurp(f, len);
	if (!text && errno == EFBIG)
		die_usage("--analyze=%s: more than %s, the limit for a report",
			  path, fmt_size(lim, REPORT_MAX_BYTES));
	if (!text)
		die_usage("--analyze=%s: %s", path, strerror(errno));
	if (f != stdin)
		fclose(f);
	return text;
}

/*
 * A section's identity: its dump, with the size its report gave (fdisk,
 * "Size:"), and the claims its verdicts are checked against.
 */
static void section_identity(const struct report_section *sec,
			     struct identity *id, struct analysis_ctx *ctx)
{
	struct id_attrs s = sec->attrs;
	char size[24];

	*ctx = sec->ctx;
	if (!id_attrs_get(&s, "size") && ctx->dev_size &&
	    ctx->dev_size % 512 == 0) {
		snprintf(size, sizeof(size), "%" PRIu64, ctx->dev_size / 512);
		id_attrs_set(&s, "size", size);
	}
	identity_decode(&s, id);
	identity_claims(id, ctx);
}

/* A table seen but left out of the verdicts, and why. */
struct unread {
	const char *label;	/* the table's kind, in words */
	const char *missing;	/* the JSON field that would have told */
	const char *why;
};

/*
 * An open-AU table whose N no command line or banner states cannot be
 * put in the sweep: the reader learns it was seen and left out.
 */
static const struct unread *table_unread(const struct table *t)
{
	static const struct unread no_nr = {
		"open AUs", "open_au_nr",
		"number of open AUs not stated; its rows are not counted"
	};

	return t->kind == TAB_OPENAU && !t->open_au_nr ? &no_nr : NULL;
}

static void unread_json(struct json *j, const struct report *rep,
			const struct report_section *sec)
{
	const struct unread *u;
	size_t i;

	json_open(j, "notes", '[');
	for (i = 0; i < sec->ntabs; i++) {
		u = table_unread(&rep->tabs[sec->first + i]);
		if (!u)
			continue;
		json_open(j, NULL, '{');
		json_u64(j, "table", i + 1);
		json_str(j, "missing", u->missing);
		json_str(j, "note", u->why);
		json_close(j, '}');
	}
	json_close(j, ']');
}

static void unread_text(FILE *out, const struct report *rep,
			const struct report_section *sec)
{
	const struct unread *u;
	size_t i;

	for (i = 0; i < sec->ntabs; i++) {
		u = table_unread(&rep->tabs[sec->first + i]);
		if (u)
			fprintf(out, "# note: table %zu (%s): %s\n", i + 1,
				u->label, u->why);
	}
}

static void print_section_json(struct json *j, const struct report *rep,
			       const struct report_section *sec)
{
	struct analysis_ctx ctx;
	struct identity id;
	struct analysis a;
	size_t i;

	section_identity(sec, &id, &ctx);
	analyze(rep->tabs + sec->first, sec->ntabs, &ctx, &a);
	json_open(j, NULL, '{');
	json_str(j, "device", sec->device);
	json_u64(j, "size", sec->ctx.dev_size);
	json_open(j, "tables", '[');
	for (i = 0; i < sec->ntabs; i++)
		json_table(j, &rep->tabs[sec->first + i]);
	json_close(j, ']');
	unread_json(j, rep, sec);
	identity_json(j, &id);
	analysis_json(j, &a);
	sustained_json(j, rep->tabs + sec->first, sec->ntabs);
	json_close(j, '}');
}

static void print_section_text(FILE *out, const char *path,
			       const struct report *rep,
			       const struct report_section *sec)
{
	struct analysis_ctx ctx;
	struct identity id;
	struct analysis a;

	section_identity(sec, &id, &ctx);
	analyze(rep->tabs + sec->first, sec->ntabs, &ctx, &a);
	fprintf(out, "# %s%s%s: %zu table%s\n", path, *sec->device ? " " : "",
		sec->device, sec->ntabs, sec->ntabs == 1 ? "" : "s");
	unread_text(out, rep, sec);
	if (*id.type)
		identity_print_prefixed(out, &id, "# identity: ");
	analysis_print(out, &a, "# ");
	if (*sec->capacity)
		fprintf(out, "# %s\n", sec->capacity);
	sus_print_tables(out, rep->tabs + sec->first, sec->ntabs, "# ");
}

int analyze_files(const struct front *fr, FILE *out)
{
	struct json_cmd cmd = front_cmd(fr);
	struct report rep;
	struct json j;
	size_t i, k, len;
	int found = 0;
	char *text;

	if (fr->json) {
		json_init(&j, out);
		json_open(&j, NULL, '{');
		json_meta(&j, &cmd);
		json_open(&j, "reports", '[');
	}
	for (i = 0; i < fr->nfiles; i++) {
		text = read_report(fr->files[i], &len);
		if (report_parse(text, len, &rep) < 0) {
			free(text);
			report_free(&rep);
			tell("%s: out of memory\n",
			     fr->files[i]);
			return EXIT_IO;
		}
		if (!rep.ntabs)
			tell("%s: no flashbench tables "
			     "found\n", fr->files[i]);
		found += rep.ntabs > 0;
		if (fr->json) {
			json_open(&j, NULL, '{');
			json_str(&j, "path", fr->files[i]);
			json_open(&j, "sections", '[');
		}
		for (k = 0; k < rep.nsecs; k++) {
			if (fr->json)
				print_section_json(&j, &rep, &rep.secs[k]);
			else
				print_section_text(out, fr->files[i], &rep,
						   &rep.secs[k]);
		}
		if (fr->json) {
			json_close(&j, ']');
			json_close(&j, '}');
		}
		report_free(&rep);
		free(text);
	}
	if (fr->json) {
		json_close(&j, ']');
		json_close(&j, '}');
		json_end(&j);
	}
	return found ? 0 : EXIT_IO;
}
