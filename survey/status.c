// SPDX-License-Identifier: GPL-2.0
/*
 * How the survey speaks while it runs and how it ends early: notes on
 * stderr, the reason and exit status of a stop.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/msg.h"
#include "safety/signals.h"
#include "survey/internal.h"

/* A line on stderr, off the progress line; names in it made safe. */
void survey_note(struct survey *s, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;

	progress_clear(&s->pg);
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	tell("%s", msg ? msg : "out of memory");
	free(msg);
}

void survey_stop(struct survey *s, int status, const char *fmt, ...)
{
	va_list ap;

	if (s->stopped[0])
		return;
	s->status = status;
	va_start(ap, fmt);
	vsnprintf(s->stopped, sizeof(s->stopped), fmt, ap);
	va_end(ap);
}

void survey_interrupted(struct survey *s)
{
	char sig[32];
	int n = s->cfg->stop_signal();

	survey_stop(s, 128 + n, "interrupted by %s",
		    signal_name(n, sig, sizeof(sig)));
}
