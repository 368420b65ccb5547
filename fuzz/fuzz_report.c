// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: report_parse() and analyze() on arbitrary text, as pasted
 * from a mail archive.  The text is passed without a terminating NUL, so
 * the sanitizers catch any read past len.  Besides not crashing, the
 * parser must keep to its documented limits and hand analyze() tables it
 * can digest; the verdicts are printed (to /dev/null) as text and JSON.
 *
 * Built with -fsanitize=fuzzer by "make fuzz"; tests/unit_fuzz_replay.c
 * includes this file with FUZZ_REPLAY defined to replay saved inputs.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "output/json.h"
#include "output/verdicts.h"
#include "report/report.h"
#include "lib/table.h"

static void report_fail(const char *what, size_t a, size_t b)
{
	fprintf(stderr, "fuzz_report: %s (%zu, %zu)\n", what, a, b);
	abort();
}

static void check_verdict(const struct verdict *v)
{
	if (v->conf > CONF_HIGH || v->type > V_LIST)
		report_fail("verdict out of range", v->conf, v->type);
	if (v->nlist > TABLE_MAXCOLS)
		report_fail("verdict list too long", v->nlist, TABLE_MAXCOLS);
	if (!memchr(v->evidence, '\0', sizeof(v->evidence)) ||
	    !memchr(v->note, '\0', sizeof(v->note)))
		report_fail("verdict text not terminated", 0, 0);
}

static void check_analysis(const struct analysis *a, FILE *out)
{
	struct json j;

	check_verdict(&a->erase_size);
	check_verdict(&a->page_size);
	check_verdict(&a->open_au_linear);
	check_verdict(&a->open_au_random);
	check_verdict(&a->min_full_speed_write);
	check_verdict(&a->fat_aus);
	if (!out)
		return;
	analysis_print(out, a, "# ");
	json_init(&j, out);
	json_open(&j, NULL, '{');
	analysis_json(&j, a);
	json_close(&j, '}');
	json_end(&j);
}

static void check_report(const struct report *r, int n)
{
	size_t i, rows = 0;

	if ((size_t)n != r->ntabs)
		report_fail("return value is not the table count", (size_t)n,
			    r->ntabs);
	if (r->ntabs > REPORT_MAX_TABLES)
		report_fail("too many tables", r->ntabs, REPORT_MAX_TABLES);
	if (r->nsecs > REPORT_MAX_SECTIONS)
		report_fail("too many sections", r->nsecs,
			    REPORT_MAX_SECTIONS);
	for (i = 0; i < r->ntabs; i++) {
		const struct table *t = &r->tabs[i];

		rows += t->nrows;
		if (t->ncols > TABLE_MAXCOLS || t->kind > TAB_INTERVAL)
			report_fail("bad table", t->ncols, (size_t)t->kind);
	}
	if (rows > REPORT_MAX_ROWS)
		report_fail("too many rows", rows, REPORT_MAX_ROWS);
	for (i = 0; i < r->nsecs; i++) {
		const struct report_section *s = &r->secs[i];

		if (s->first > r->ntabs || s->ntabs > r->ntabs - s->first)
			report_fail("section outside the tables", s->first,
				    s->ntabs);
		if (!memchr(s->device, '\0', sizeof(s->device)))
			report_fail("device name not terminated", i, 0);
	}
}

int fuzz_report_one(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	struct report r;
	struct analysis a;
	char *text;
	size_t i;
	int n;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	/* exactly size bytes, no NUL: an over-read is a sanitizer error */
	text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	n = report_parse(text, size, &r);
	if (n >= 0) {
		check_report(&r, n);
		analyze(r.tabs, r.ntabs, &r.ctx, &a);
		check_analysis(&a, devnull);
		for (i = 0; i < r.nsecs; i++) {
			/* no tables: r.tabs may be NULL, and NULL + 0 is UB */
			analyze(r.secs[i].ntabs ? r.tabs + r.secs[i].first :
				r.tabs, r.secs[i].ntabs, &r.secs[i].ctx, &a);
			check_analysis(&a, devnull);
		}
	}
	report_free(&r);
	free(text);
	return 0;
}

#ifndef FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_report_one(data, size);
}
#endif
