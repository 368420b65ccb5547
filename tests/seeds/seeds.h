/* SPDX-License-Identifier: GPL-2.0 */
/* Load a seed report from tests/seeds/ and parse it. */
#ifndef FLASHBENCH_TESTS_SEEDS_H
#define FLASHBENCH_TESTS_SEEDS_H

#include <stdio.h>
#include <stdlib.h>

#include "report/report.h"

#define SEED_000 "000_e1b1b75654890f18.txt"
#define SEED_001 "001_9ac5dd19bf759b36.txt"
#define SEED_002 "002_b87f7c75a8a4b11f.txt"
#define SEED_003 "003_ad72078305abb6c0.txt"
#define SEED_004 "004_fec5542d2a9e122c.txt"

/* The text of a seed (run from the top directory or from tests/). */
static char *seed_text(const char *name, size_t *len)
{
	static const char *const dirs[] = { "tests/seeds/", "seeds/" };
	char path[256];
	size_t i, n;
	char *buf;
	FILE *f = NULL;

	for (i = 0; i < 2 && !f; i++) {
		snprintf(path, sizeof(path), "%s%s", dirs[i], name);
		f = fopen(path, "rb");
	}
	if (!f)
		return NULL;
	buf = malloc(1 << 20);
	n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	*len = n;
	return buf;
}

/* Parse a seed into r; the number of tables or -1. */
static int seed_parse(const char *name, struct report *r)
{
	size_t len;
	char *text = seed_text(name, &len);
	int n;

	if (!text) {
		printf("FAIL: cannot read seed %s\n", name);
		return -1;
	}
	n = report_parse(text, len, r);
	free(text);
	return n;
}

#endif
