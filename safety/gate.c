// SPDX-License-Identifier: GPL-2.0
/* The test gate: a run held at its announced points; see gate.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "safety/gate.h"
#include "vm.h"

static int gate_fd = -1;

/*
 * Only the test build opens the gate: in the installed binary the
 * environment must not be able to pause a run (e.g. one under sudo
 * holding a device between its --preserve and its restore).
 */
int gate_open(void)
{
#ifdef FLASHBENCH_TEST_HOOKS
	const char *path = getenv("FLASHBENCH_TEST_GATE");

	if (!path || !*path)
		return 0;
	/* non-blocking: the open must not wait for a writer */
	gate_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	return gate_fd < 0 ? -errno : 0;
#else
	return 0;
#endif
}

static void gate_shut(void)
{
	close(gate_fd);
	gate_fd = -1;
}

int gate_wait(void)
{
	struct pollfd p = { .fd = gate_fd, .events = POLLIN };
	sigset_t all, old;
	ssize_t n;
	char c;

	if (gate_fd < 0)
		return 0;
	/*
	 * Signals held off until ppoll() lets them in atomically: one that
	 * came just before the wait cannot be missed.
	 */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	while (!vm_stop && ppoll(&p, 1, NULL, &old) < 0 && errno == EINTR)
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (vm_stop)
		return 0;
	n = read(gate_fd, &c, 1);
	/* end of file: the test closed its end */
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		gate_shut();
	return 0;
}
