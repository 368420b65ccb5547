/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_RAMP_RULE_H
#define FLASHBENCH_RAMP_RULE_H

#include <stddef.h>

/*
 * The open-AU ramp's rule, shared by the live run (ramp.c), which
 * decides from it when to drop and re-add a stream, and the analysis
 * (analysis/openau_ramp.c), which reads a pasted table with it: the
 * same numbers give the same judgement in both.
 */

/* The two write sizes of each step, in the columns' order. */
enum ramp_part { RAMP_COARSE, RAMP_FINE, RAMP_NPARTS };

/*
 * A part collapsed when its median write took this many times the
 * fastest median it had at a step that held.  The card that copies
 * least of an AU it closes early (the sim's merge=10: a tenth) still
 * takes 1.9 times as long per fine chunk (AU/16) one stream past its
 * limit; jitter moves a median of 8 writes by a few percent, and a
 * collapse also has to come back when a stream is dropped and re-added.
 */
#define RAMP_COLLAPSE 1.5

/* Each part's fastest median so far; 0: none yet. */
struct ramp_best {
	double ns[RAMP_NPARTS];
};

/*
 * Judge one step from its medians (ns, NAN: not measured): 1 collapsed,
 * 0 held, -1 not judged (a part missing, or no step before it to judge
 * it against).  A step that held lowers the bests.
 */
int ramp_judge(struct ramp_best *b, const double ns[RAMP_NPARTS]);

/* Median of n values, sorting them in place; NAN if n is 0. */
double ramp_median(double *v, size_t n);

#endif
