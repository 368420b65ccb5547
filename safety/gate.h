/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_GATE_H
#define FLASHBENCH_GATE_H

/*
 * FLASHBENCH_TEST_GATE=FIFO, for the test suite: a run holds after each
 * row it prints, and when --restore starts, until a byte can be read from
 * FIFO, so a test signals a run at a known point instead of racing the
 * machine's speed.  The test holds FIFO open for writing before the run
 * starts; closing it opens the gate for good.  A signal that stops the
 * run (vm_stop) ends the wait at once.  Only the test build
 * (FLASHBENCH_TEST_HOOKS, tests/flashbench-hooks) has the gate: the
 * installed binary ignores the variable.
 */

/* Open the FIFO the environment names, if any: 0, or -errno. */
int gate_open(void);

/* Hold here until the test lets the run go on; always 0. */
int gate_wait(void);

#endif
