// SPDX-License-Identifier: GPL-2.0
/* The signals that stop a run and their names; see signals.h. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "safety/signals.h"
#include "vm.h"

static volatile sig_atomic_t stopped_by;

static const struct {
	int sig;
	const char *name;
} stoppers[] = {
	{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
	{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
	{ SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" }, { SIGXCPU, "SIGXCPU" },
	{ SIGXFSZ, "SIGXFSZ" }, { SIGVTALRM, "SIGVTALRM" },
	{ SIGPROF, "SIGPROF" }, { SIGIO, "SIGIO" }, { SIGPWR, "SIGPWR" },
#ifdef SIGSTKFLT
	{ SIGSTKFLT, "SIGSTKFLT" },
#endif
};

#define NSTOPPERS (sizeof(stoppers) / sizeof(stoppers[0]))

static void on_signal(int sig)
{
	/* the first one tells the exit status */
	if (!stopped_by)
		stopped_by = sig;
	vm_stop = 1;
}

void stop_on_signals(void)
{
	struct sigaction sa;
	size_t i;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* rows half written to a slow pipe go on, not fail with EINTR */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSTOPPERS; i++)
		sigaction(stoppers[i].sig, &sa, NULL);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
}

int stop_signal(void)
{
	return stopped_by;
}

const char *signal_name(int sig, char *buf, unsigned len)
{
	size_t i;

	for (i = 0; i < NSTOPPERS; i++)
		if (stoppers[i].sig == sig)
			return stoppers[i].name;
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, len, "SIGRTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, len, "signal %d", sig);
	return buf;
}
