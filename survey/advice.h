/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_ADVICE_H
#define FLASHBENCH_ADVICE_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "output/json.h"

#define ADVICE_MAX 6

/*
 * One piece of advice: a command or setting, with the verdicts it rests
 * on and their confidence (the lowest of them).
 */
struct advice_item {
	const char *key;	/* "partition", "mkfs.ext4", ... */
	char text[384];		/* the command or setting */
	char why[192];		/* what it follows from */
	const char *from[2];	/* verdict keys; NULL: unused */
	enum confidence conf;
};

struct advice {
	struct advice_item item[ADVICE_MAX];
	size_t n;
};

/* Advice from the verdicts; dev_size 0: unknown.  Pure, no I/O. */
void advise(const struct analysis *a, uint64_t dev_size, unsigned sector,
	    struct advice *out);

/* Text: each item on lines starting with prefix. */
void advice_print(FILE *f, const struct advice *adv, const char *prefix);

/* The "advice" member of a --json document. */
void advice_json(struct json *j, const struct advice *adv);

#endif
