/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_CLAIMS_H
#define FLASHBENCH_CLAIMS_H

#include <stdio.h>

/* What --iops measured; NAN: not measured (never judged). */
struct claims_measured {
	double read_iops, write_iops;	/* 4KiB, queue depth 1 */
	double seq_mbps;		/* sequential write, 10^6 bytes/s */
};

/* The classes the SD Status register states; 0 = none stated. */
struct claims_stated {
	int readable;			/* the register was read at all */
	unsigned speed_class;		/* 2, 4, 6, 10 */
	unsigned uhs_grade;		/* 1, 3 */
	unsigned video_class;		/* 6, 10, 30, 60, 90 */
	unsigned app_class;		/* 1 = A1, 2 = A2 */
};

/*
 * One line per class stated, the measurement against its floors; where
 * none is stated or readable, one line of the classes it qualifies for.
 */
void claims_print(FILE *f, const struct claims_measured *m,
		  const struct claims_stated *s);

#endif
