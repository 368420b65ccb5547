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

/*
 * The first line told since tell_mark(), as typed (NULL: none): a failed
 * run's JSON gives what went wrong in the words of its stderr line.
 */
static char *first_told;
static int marked;

void tell_mark(void)
{
	free(first_told);
	first_told = NULL;
	marked = 1;
}

const char *tell_first(void)
{
	return first_told;
}

static void keep_first(const char *fmt, va_list ap)
{
	size_t n;

	if (!marked || first_told)
		return;
	if (vasprintf(&first_told, fmt, ap) < 0) {
		first_told = NULL;
		return;
	}
	n = strlen(first_told);
	if (n && first_told[n - 1] == '\n')
		first_told[n - 1] = '\0';
}

void tell(const char *fmt, ...)
{
	va_list ap, keep;

	va_start(ap, fmt);
	va_copy(keep, ap);
	say_va(stderr, "flashbench", fmt, ap);
	keep_first(fmt, keep);
	va_end(keep);
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
