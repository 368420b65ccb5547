/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SIGNALS_H
#define FLASHBENCH_SIGNALS_H

/*
 * Every catchable signal whose default would end the process (an ssh
 * drop's SIGHUP, SIGQUIT, SIGPIPE from "| head", SIGTERM, ^C, ...) stops
 * the run at the next I/O boundary instead, so --preserve can put the
 * data back; the exit status is then 128 + the signal.  Faults (SIGSEGV,
 * SIGBUS, ...) keep their default: the program cannot go on after them.
 */
void stop_on_signals(void);

/* The signal that stopped the run, or 0. */
int stop_signal(void);

/* "SIGHUP", "SIGRTMIN+3", ... */
const char *signal_name(int sig, char *buf, unsigned len);

#endif
