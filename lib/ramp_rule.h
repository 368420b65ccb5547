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
/* A ramp row's last value, after each part's time and rate: 1 random */
#define RAMP_ORDER (2 * RAMP_NPARTS)

/*
 * A part collapsed when its median write took more than RAMP_COLLAPSE
 * times the fastest median it had at a step that held.  The card that
 * copies least of an AU it closes early (the sim's merge=10: a tenth)
 * still takes 1.9 times as long per fine chunk (AU/16) one stream past
 * its limit.  It held when its median stayed within RAMP_HELD times
 * that: jitter moves a median of 8 writes by a few percent.  Between
 * the two it is unclear, neither held nor collapsed: a card with
 * 512 KiB AUs that copies a third of an AU it closes early took 1.46
 * times as long per coarse write (AU/2) past its limit, and a ramp that
 * called that "held" went on to a false "at least 64".
 */
#define RAMP_COLLAPSE 1.5
#define RAMP_HELD 1.25
/* A step judges at least this many writes per part: a median of 8. */
#define RAMP_JUDGED 8
/*
 * A random step's value is the median over at least this many rounds of
 * each round's mean time per write.  One stream past the random slots
 * costs the copy of one AU in each round (the stream that lost its slot
 * takes another's), not a copy in every write: a median per write never
 * sees it, a mean per round does, and the median of five such rounds
 * shrugs off the card's occasional pause.
 */
#define RAMP_ROUNDS 5
/*
 * From RAMP_WIDE streams on, RAMP_ROUNDS_WIDE rounds: a pause of up to
 * 200 ms in one write of a round then adds at most a quarter to the
 * round's mean of 512 KiB writes (RAMP_HELD), where at a few streams
 * it doubles it; and the wide steps are the dear ones, each round a
 * write into every stream's AU.
 */
#define RAMP_WIDE 12
#define RAMP_ROUNDS_WIDE 3
/*
 * A random ramp's first random step against its linear one: a card with
 * no random slot closes its AU at every backward write, 3.9 (su04g) to
 * 17 times as slow per write on the profiles; one that takes random
 * writes at a price (xporter: twice the programming) 1.5 times.  Past
 * this, no stream holds a random slot and there is nothing to count.
 */
#define RAMP_NO_SLOT 3.0

/* Each part's fastest median so far; 0: none yet. */
struct ramp_best {
	double ns[RAMP_NPARTS];
};

/* How a step went; a step that is not judged is RAMP_UNJUDGED. */
enum ramp_judged {
	RAMP_UNJUDGED = -1, RAMP_HELD_STEP, RAMP_COLLAPSED, RAMP_UNCLEAR
};

/*
 * Judge one step from its medians (ns, NAN: not measured): unjudged
 * when a part is missing; the first step judged holds.  A step
 * collapsed when a part did, else is unclear when a part is; a step
 * that held lowers the bests.
 */
enum ramp_judged ramp_judge(struct ramp_best *b,
			    const double ns[RAMP_NPARTS]);

/*
 * Judge a random ramp's first random step (ns) against the linear one
 * before it (in b): collapsed past RAMP_NO_SLOT, else held, and the
 * random steps after it are judged against it alone.
 */
enum ramp_judged ramp_judge_random_first(struct ramp_best *b,
					 const double ns[RAMP_NPARTS]);
/*
 * The rounds a part of a step of n streams judges at least: RAMP_JUDGED
 * writes, and shuffled (in random order) RAMP_ROUNDS rounds, or
 * RAMP_ROUNDS_WIDE from RAMP_WIDE streams on.
 */
unsigned ramp_rounds(unsigned n, int shuffled);
/* Median of n values, sorting them in place; NAN if n is 0. */
double ramp_median(double *v, size_t n);

#endif
