/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_RUN_H
#define FLASHBENCH_RUN_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/extent.h"
#include "testdesc.h"

/* What a test will do, worked out by running it on a recording dry run. */
struct plan {
	struct io_stats io;	/* counts and bytes of every I/O */
	uint64_t max_len;	/* largest single I/O: the buffer size */
	struct range *ranges;	/* merged byte ranges written or discarded */
	size_t nranges;
	uint64_t written;	/* bytes in those ranges */
	uint64_t lo, hi;	/* every I/O lies in [lo, hi); hi 0: none */
};

struct run {
	struct prog prog;
	const struct vm_node *code;
	const struct opts *opts;	/* as run_prepare() was given them */
	struct plan plan;
	struct table tab;
	struct vm_error error;
	int (*after_row)(void);	/* for the vm; NULL: none */
	/* optional, passed to the engine: see struct vm */
	int (*row_done)(void *arg, const struct table *t);
	void (*tick)(void *arg, enum vm_tick what);
	int (*again)(void *arg, const struct vm_val *pass);
	void *hook_arg;
};

/* Build the test's program and work out its plan; 0 or -errno. */
int run_prepare(struct run *r, const struct opts *o, struct dev *d);

/* Print the plan: every I/O (with verbose) and the totals. */
int run_print_plan(struct run *r, const struct opts *o, struct dev *d,
		   FILE *f);

/* One line on f naming the exact byte ranges the test will write. */
void run_announce(const struct run *r, const struct opts *o,
		  const struct dev *d, FILE *f);

/*
 * Run it for real: rows go to out (NULL: only the table) as they are
 * measured.  0 or -errno with r->error telling which I/O failed.
 */
int run_execute(struct run *r, const struct opts *o, struct dev *d,
		FILE *out);

/*
 * The message of a failed device I/O, the same from a single test and
 * from a survey step: "read 1024 bytes at offset 0 of DEV: error", with
 * why when the card was pulled out or the device detached; into buf.
 */
/* Room for it: the device's path and the rest of the line. */
#define RUN_ERROR_LEN (PATH_MAX + 160)

void run_io_error_text(const struct vm_error *e, const char *dev, char *buf,
		       size_t len);

void run_free(struct run *r);

#endif
