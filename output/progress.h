/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_PROGRESS_H
#define FLASHBENCH_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#include "dev.h"
#include "vm.h"

/*
 * The progress line on stderr, never on stdout.  On a terminal it is one
 * line rewritten in place: what runs, how far it is and the time left.
 * Elsewhere nothing is written from here; callers print a line per step.
 *
 * Work is counted in the device's I/O: the current run is done when
 * its planned I/O count and bytes have moved.  The time left is the
 * caller's estimate when it gives one (est_ns, a survey's plan), else an
 * extrapolation of the wall time spent on this run.
 */
struct progress {
	FILE *f;
	int tty;		/* f is a terminal */
	int shown;		/* the line is on screen */
	uint64_t delay_ns;	/* show only runs that take longer */
	uint64_t start, last;	/* wall clock of the run, of the last update */
	unsigned ticks;
	const struct dev *d;
	struct io_stats base;	/* device counters when the run started */
	double ios, bytes;	/* planned for the run */
	char label[128];
	/* survey: time spent before this run, the run's and the rest's */
	double done_ns, run_ns, rest_ns;
};

/* Ready for f (stderr); delay_ns: 0 to show at once. */
void progress_init(struct progress *p, FILE *f, uint64_t delay_ns);

/* A run of ios I/Os moving bytes bytes begins on d. */
void progress_run(struct progress *p, const struct dev *d, double ios,
		  double bytes, const char *label);

/* The engine's tick hook; arg is the progress. */
void progress_tick(void *arg, enum vm_tick what);

/*
 * The engine's again hook; arg is the progress: a pass more is part of
 * the run, so the line never shows 100 % before it and counts its time.
 */
int progress_again(void *arg, const struct vm_val *pass);
/* Draw the line now (a survey's step begins). */
void progress_show(struct progress *p);

/* Take the line off the screen (before other output on f). */
void progress_clear(struct progress *p);

#endif
