// SPDX-License-Identifier: GPL-2.0
/*
 * flashbench-erase DEVICE START LENGTH: discard one range, with the
 * arguments and the "erasing START to END on DEVICE" line of the classic
 * package's program, which scripts call between runs to put a card back
 * in its fresh state.  Unlike it: sizes take suffixes and C bases (it
 * turned "1G" into 1), a range off the sectors or past the end is refused
 * before any I/O, and so is a device that is mounted or in use, unless
 * --force.  Exit status as flashbench: 0, 1 I/O error, 2 usage, 3 no
 * discard.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "safety/inuse.h"
#include "safety/lock.h"
#include "lib/text.h"
#include "lib/units.h"

#define EXIT_IO		1
#define EXIT_USAGE	2
#define EXIT_NODISCARD	3

/* Names in messages are made safe and shortened: see say_va(). */
static int __attribute__((format(printf, 2, 3)))
failed(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_va(stderr, "flashbench-erase", fmt, ap);
	va_end(ap);
	return status;
}

static void __attribute__((format(printf, 1, 2), noreturn))
usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_va(stderr, "flashbench-erase", fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

static uint64_t number(const char *name, const char *arg)
{
	uint64_t v;
	const char *why = size_problem(arg, &v);

	if (why)
		usage_error("%s %s: %s", name, arg, why);
	return v;
}

/* Sectors, bounds and a nonzero length: all before the first I/O. */
static void check_range(const struct dev *d, uint64_t start, uint64_t len,
			const char *s, const char *l)
{
	char size[UNIT_BUFLEN];

	if (!len)
		usage_error("LENGTH %s: must not be zero", l);
	if (start % d->sector || len % d->sector)
		usage_error("START %s LENGTH %s: not multiples of the %u-byte "
			    "sector", s, l, d->sector);
	if (start >= d->size || len > d->size - start)
		usage_error("START %s LENGTH %s: past the end of %s (%s)", s, l,
			    d->path, fmt_size(size, (double)d->size));
}

int main(int argc, char **argv)
{
	char msg[3 * PATH_MAX];		/* two names and the reason */
	uint64_t start, len, ns;
	int force = argc > 1 && strcmp(argv[1], "--force") == 0;
	const char *path;
	struct storage_lock held;
	struct dev d;
	int ret;

	if (argc != 4 + force) {
		fputs("usage: flashbench-erase [--force] DEVICE START LENGTH\n",
		      stderr);
		return EXIT_USAGE;
	}
	path = argv[1 + force];
	if (strlen(path) >= PATH_MAX)
		usage_error("%s: longer than %d bytes, the longest name the "
			    "kernel takes", path, PATH_MAX - 1);
	start = number("START", argv[2 + force]);
	len = number("LENGTH", argv[3 + force]);
	if (!force && dev_in_use(path, msg, sizeof(msg)))
		usage_error("%s: in use: %s (%s)", path, msg,
			    held_by_kernel(path) ? "the kernel holds the "
			    "device while it is: --force cannot override that" :
			    "use --force to override");
	/* held until the discard is done: no other run may write there */
	if (storage_lock(&held, path, 1, force, msg, sizeof(msg)))
		usage_error("%s", msg);
	if (dev_open(&d, path, DEV_RDWR | DEV_EXCL, msg, sizeof(msg)))
		usage_error("%s", msg);
	check_range(&d, start, len, argv[2 + force], argv[3 + force]);
	printf("erasing %llu to %llu on ", (unsigned long long)start,
	       (unsigned long long)(start + len));
	put_safe(stdout, path);
	putchar('\n');
	fflush(stdout);
	ret = dev_discard(&d, start, len, &ns);
	dev_close(&d);
	storage_unlock(&held);
	if (ret == -EOPNOTSUPP)
		return failed(EXIT_NODISCARD, "%s: discard is not supported "
			      "by this device", path);
	if (ret)
		return failed(EXIT_IO, "discard %llu bytes at offset %llu of "
			      "%s: %s", (unsigned long long)len,
			      (unsigned long long)start, path, strerror(-ret));
	return 0;
}
