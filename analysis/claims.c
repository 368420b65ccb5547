// SPDX-License-Identifier: GPL-2.0
/*
 * Performance classes against a measurement: the floors of the SD
 * speed, UHS speed, video speed and application performance classes,
 * as a table, and the line each claim gets.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/claims.h"

/* A class: its floors, 0 where it sets none. */
struct perf_class {
	const char *name;
	double read_iops, write_iops, seq_mbps;
};

/* SD Physical Layer: the classes and their floors. */
static const struct perf_class classes[] = {
	{ "A1", 1500, 500, 10 }, { "A2", 4000, 2000, 10 },
	{ "C2", 0, 0, 2 }, { "C4", 0, 0, 4 }, { "C6", 0, 0, 6 },
	{ "C10", 0, 0, 10 }, { "U1", 0, 0, 10 }, { "U3", 0, 0, 30 },
	{ "V6", 0, 0, 6 }, { "V10", 0, 0, 10 }, { "V30", 0, 0, 30 },
	{ "V60", 0, 0, 60 }, { "V90", 0, 0, 90 },
};

#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

/*
 * A measurement meets or misses a floor only this far from it: one
 * run's means move by some percent between runs, and a verdict is a
 * promise, so a value within it is inconclusive.
 */
#define CLASS_MARGIN 1.10

/*
 * The confidence of a clear verdict: the run keeps means, not the
 * spread of single I/Os, so never high.
 */
#define CLAIM_CONFIDENCE "medium"

/* Worst last: a floor missed outweighs one not measured (NAN). */
enum reach { R_MEETS, R_NEAR, R_UNMEASURED, R_BELOW };

static enum reach reach(double v, double floor)
{
	if (!floor || v >= floor * CLASS_MARGIN)
		return R_MEETS;
	if (v != v)
		return R_UNMEASURED;
	if (v == v && v > floor / CLASS_MARGIN)
		return R_NEAR;
	return R_BELOW;
}

/* The worst of a class's floors, and which one. */
static enum reach class_reach(const struct perf_class *c,
			      const struct claims_measured *m,
			      const char **what)
{
	const struct { double v, floor; const char *name; } f[] = {
		{ m->read_iops, c->read_iops, "read" },
		{ m->write_iops, c->write_iops, "write" },
		{ m->seq_mbps, c->seq_mbps, "sequential write" },
	};
	enum reach worst = R_MEETS, r;
	size_t i;

	*what = "";
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		r = reach(f[i].v, f[i].floor);
		if (r > worst) {
			worst = r;
			*what = f[i].name;
		}
	}
	return worst;
}

static const struct perf_class *find_class(const char *name)
{
	size_t i;

	for (i = 0; i < NCLASSES; i++)
		if (!strcmp(classes[i].name, name))
			return &classes[i];
	return NULL;
}

static void print_claim(FILE *f, const struct claims_measured *m,
			const char *name)
{
	const struct perf_class *c = find_class(name);
	const char *what;

	fprintf(f, "claims %s: ", name);
	if (!c) {
		fputs("not a class flashbench knows (inconclusive)\n", f);
		return;
	}
	if (c->read_iops && m->read_iops == m->read_iops)
		fprintf(f, "%.0f read / %.0f write IOPS, ", m->read_iops,
			m->write_iops);
	else if (c->read_iops)
		fputs("IOPS not measured, ", f);
	if (m->seq_mbps == m->seq_mbps)
		fprintf(f, "%.1f MB/s sequential write: ", m->seq_mbps);
	else
		fputs("sequential write not measured: ", f);
	switch (class_reach(c, m, &what)) {
	case R_MEETS:
		fprintf(f, "meets %s (%s)\n", name, CLAIM_CONFIDENCE);
		break;
	case R_NEAR:
		fprintf(f, "%s within %.0f%% of the %s floor (inconclusive)\n",
			what, (CLASS_MARGIN - 1) * 100, name);
		break;
	case R_UNMEASURED:
		fprintf(f, "%s not measured (inconclusive)\n", what);
		break;
	case R_BELOW:
		fprintf(f, "%s below %s (%s)\n", what, name, CLAIM_CONFIDENCE);
		break;
	}
}

static void print_qualifies(FILE *f, const struct claims_measured *m,
			    const char *why)
{
	const char *sep = "", *what;
	size_t i;

	fputs("qualifies for ", f);
	for (i = 0; i < NCLASSES; i++) {
		if (class_reach(&classes[i], m, &what) != R_MEETS)
			continue;
		fprintf(f, "%s%s", sep, classes[i].name);
		sep = ", ";
	}
	fprintf(f, "%s (from measurement; %s)\n", *sep ? "" : "no class",
		why);
}

void claims_print(FILE *f, const struct claims_measured *m,
		  const struct claims_stated *s)
{
	/* the register's fields, each naming its class by letter + value */
	const struct { unsigned v; char letter; } stated[] = {
		{ s->speed_class, 'C' }, { s->uhs_grade, 'U' },
		{ s->video_class, 'V' }, { s->app_class, 'A' },
	};
	char name[16];
	int any = 0;
	size_t i;

	if (!s->readable) {
		print_qualifies(f, m, "the card's claims are not readable here");
		return;
	}
	for (i = 0; i < sizeof(stated) / sizeof(stated[0]); i++) {
		if (!stated[i].v)
			continue;
		snprintf(name, sizeof(name), "%c%u", stated[i].letter,
			 stated[i].v);
		print_claim(f, m, name);
		any = 1;
	}
	if (!any)
		print_qualifies(f, m, "the card states no class");
}
