/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_MSG_H
#define FLASHBENCH_MSG_H

#include <limits.h>
#include <stdio.h>

/*
 * Room for a message naming two paths as long as the kernel takes, so
 * the reason after them is never cut off.
 */
#define MSG_MAX (3 * PATH_MAX)

/* Exit statuses, documented in --help and README. */
#define EXIT_IO		1
#define EXIT_USAGE	2
#define EXIT_NODISCARD	3
/* A --survey cut short by a budget (3 is free there: it never discards). */
#define EXIT_PARTIAL	3
#define EXIT_FAKE	4	/* --capacity: the card stores less */

/*
 * One line "flashbench: ..." on stderr, control characters and stray
 * bytes of the names in it shown as \xHH (a final newline is optional).
 */
void tell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* From now on, remember the first line told (tell_first()). */
void tell_mark(void);

/* The first line told since tell_mark() without "flashbench: "; NULL: none. */
const char *tell_first(void);

/* The same, then exit status 2. */
void die_usage(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/*
 * Flush and close the results (stdout or --out): data that did not get
 * there is lost, so a failed write, flush or close is a message naming
 * where and why, and EXIT_IO when status was 0.  quiet: already said.
 */
int close_out(FILE *f, const char *name, int status, int quiet);

#endif
