/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_REPORT_CMD_H
#define FLASHBENCH_REPORT_CMD_H

#include <stdint.h>

#include "report/clean.h"

/*
 * How the next pasted table was measured, from the flashbench command
 * line before it (options, a shell loop's "--open-au-nr=$i") and from
 * headings in free words ("Trying 3 open AUs", "4 AUs, random access",
 * "=== 4 open, linear ===").
 */
struct report_cmd {
	char mode;		/* 'a', 'O', 'f' or 0 */
	int random;
	unsigned nr;		/* --open-au-nr, 0 = not given */
	int nr_var;		/* --open-au-nr=$i: N comes from the loop */
	int started;		/* on a flashbench command line */
	int dev;		/* a device named: the command ran as typed */
	uint64_t blocksize, erasesize;
	int has_offset;		/* --offset typed */
	uint64_t offset;
};

struct report_heading {
	unsigned nr;		/* 0: none */
	int random;		/* -1: not said */
	char mode;		/* 'O', 'f' or 0 */
	unsigned random_at;	/* word count when the order was named */
	unsigned nr_at;		/* ... and the count */
	int order_tied;		/* the order qualified the count before it */
};

struct report_how {
	struct report_cmd cmd;
	struct report_heading head;	/* since the last command */
	unsigned words;
	char prev[TOK_MAX];		/* the word before, as a banner reads it */
};

void how_init(struct report_how *h);

/*
 * A word outside any table, taking the option values that follow it from
 * c.  Returns 1 if it was part of a command line.
 */
int how_word(struct report_how *h, struct cursor *c, struct tok *t);

/* A table was read: an order named after it starts a new banner. */
void how_table(struct report_how *h);

/* Another card: what banners said is not about it. */
void how_new_card(struct report_how *h);

/* What the command line and headings say; last_int: an echoed $i. */
char how_mode(const struct report_how *h);
int how_random(const struct report_how *h);
unsigned how_nr(const struct report_how *h, int have_int, uint64_t last_int);

#endif
