/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal test helpers: one "PASS:"/"FAIL:" line per check, read by run.sh. */
#ifndef FLASHBENCH_CHECK_H
#define FLASHBENCH_CHECK_H

#include <stdio.h>

static int check_failed;

#define CHECK(cond, ...)						\
	do {								\
		if (cond) {						\
			printf("PASS: ");				\
		} else {						\
			printf("FAIL: %s:%d: ", __FILE__, __LINE__);	\
			check_failed++;					\
		}							\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	} while (0)

#define CHECK_DONE() (check_failed ? 1 : 0)

#endif
