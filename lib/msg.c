// SPDX-License-Identifier: GPL-2.0
/*
 * Messages to the user on stderr, one line each, and the exit status
 * that goes with them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/msg.h"
#include "lib/text.h"

void tell(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_va(stderr, "flashbench", fmt, ap);
	va_end(ap);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_va(stderr, "flashbench", fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

int close_out(FILE *f, const char *name, int status, int quiet)
{
	int bad = fflush(f) != 0 || ferror(f), err = errno;

	if (fclose(f) != 0 && !bad) {
		bad = 1;
		err = errno;
	}
	if (!bad)
		return status;
	if (!quiet)
		fprintf(stderr, "flashbench: writing the results to %s: %s\n",
			name, strerror(err ? err : EIO));
	return status ? status : EXIT_IO;
}
