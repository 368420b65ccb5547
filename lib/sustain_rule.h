/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SUSTAIN_RULE_H
#define FLASHBENCH_SUSTAIN_RULE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/table.h"

/* How a run ended, as its table's last line names it (sus_end_word). */
enum sus_end { SUS_CUT, SUS_HELD, SUS_REGION, SUS_DEVICE, SUS_BUDGET,
	       SUS_NEND };

extern const char *const sus_end_word[SUS_NEND];

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
	enum sus_end end;	/* how the run ended */
};

/* Add a window (at: bytes from the region's start); 0 or -ENOMEM. */
int sus_add(struct sus_run *r, uint64_t at, uint64_t ns, int idle);

/* Whether the pass (idle: the second) has seen enough to stop. */
int sus_enough(const struct sus_run *r, int idle);

/* One verdict of a --sustained run, for the text lines and the JSON. */
struct sus_verdict {
	const char *key;	/* write_cache, sustained_write, cache_recovery */
	char value[48];		/* as the text line says it */
	/* write_cache: bytes (bound: none within that many), sustained_
	 * write: bytes/s, cache_recovery: bytes fast again; NAN: unknown */
	double num;
	int bound;
	int conf;		/* 0 inconclusive, 1 low, 2 medium, 3 high */
	char evidence[256];
};

#define SUS_VERDICTS 3

/*
 * The verdicts of the first TAB_SUSTAINED table of tabs into v (room for
 * SUS_VERDICTS), the rule replayed over its rows: the same live and read
 * back from a report.  Their count; 0 without such a table.
 */
size_t sus_judge_tables(const struct table *tabs, size_t n,
			struct sus_verdict *v);

/* A verdict's confidence as the lines and the JSON name it. */
const char *sus_conf_word(int conf);

/* Those verdicts as lines in the verdicts' grammar, each led by prefix. */
void sus_print_tables(FILE *f, const struct table *tabs, size_t n,
		      const char *prefix);

void sus_free(struct sus_run *r);

#endif
