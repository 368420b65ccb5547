/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SUSTAIN_RULE_H
#define FLASHBENCH_SUSTAIN_RULE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One window of --sustained: where it starts in the region, its time. */
struct sus_win {
	uint64_t at, ns;
	int idle;		/* written after --idle */
};

/*
 * A --sustained run as its windows and how it ended: what the stopping
 * rule and the verdicts (lib/sustain_rule.c) read, live or from a table.
 */
struct sus_run {
	uint64_t window;	/* bytes per window */
	struct sus_win *w;
	size_t n, cap;
	double best;		/* the fastest window before the cliff, B/ns */
	size_t cliff;		/* the first window under the cliff; 0: none */
	unsigned down;		/* windows down since, the cliff's included */
	size_t relapse;		/* after idle: the first one down again + 1 */
	uint64_t idle_ns;	/* the wait before the second pass; 0: none */
	int budget;		/* --max-write or --max-time ended a pass */
	int region_end;		/* the first pass reached the region's end */
	int whole;		/* ...which is the device's */
};

/* Add a window (at: bytes from the region's start); 0 or -ENOMEM. */
int sus_add(struct sus_run *r, uint64_t at, uint64_t ns, int idle);

/* Whether the pass (idle: the second) has seen enough to stop. */
int sus_enough(const struct sus_run *r, int idle);

/* The verdict lines, each led by prefix, in the verdicts' grammar. */
void sus_print(FILE *f, const struct sus_run *r, const char *prefix);

void sus_free(struct sus_run *r);

#endif
