// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: parse_size() and parse_value() on arbitrary bytes.
 *
 * Besides not crashing, every value that parses must survive a round
 * trip: a size printed as a plain number parses back to itself, and a
 * value printed by fmt_size/fmt_time/fmt_rate parses back to nearly the
 * same value (the formatters keep three or four significant digits).
 *
 * Built with -fsanitize=fuzzer by "make fuzz"; tests/unit_fuzz_replay.c
 * includes this file with FUZZ_REPLAY defined to replay saved inputs.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/units.h"

#define FUZZ_SIZE_MAX 256

static void size_fail(const char *what, const char *in, const char *out)
{
	fprintf(stderr, "fuzz_size: %s: input '%s' output '%s'\n", what, in,
		out);
	abort();
}

/* Printed with 3 significant digits: relative error at most 0.5%. */
static int near(double a, double b, double abs_slack)
{
	double d = fabs(a - b);

	return d <= abs_slack || d <= 0.0051 * fmax(fabs(a), fabs(b));
}

static void size_round_trip(const char *s, uint64_t v)
{
	char buf[UNIT_BUFLEN + 8];
	uint64_t w;
	double d;

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	if (parse_size(buf, &w) || w != v)
		size_fail("plain number does not parse back", s, buf);
	if (v <= UINT64_MAX >> 10) {
		snprintf(buf, sizeof(buf), "%lluKiB", (unsigned long long)v);
		if (parse_size(buf, &w) || w != v << 10)
			size_fail("KiB suffix does not parse back", s, buf);
	}
	fmt_size(buf, (double)v);
	if (parse_value(buf, 's', &d) || !near(d, (double)v, 0.5))
		size_fail("fmt_size does not parse back", s, buf);
}

static void value_round_trip(const char *s, int kind, double v)
{
	char buf[UNIT_BUFLEN];
	double w;

	if (!isfinite(v))
		size_fail("parse_value gave a non-finite value", s, "");
	if (kind == 't')
		fmt_time(buf, v);
	else if (kind == 'r')
		fmt_rate(buf, v);
	else
		fmt_size(buf, v);
	/* fmt_time prints whole nanoseconds below 1µs */
	if (parse_value(buf, kind, &w) || !near(w, v, kind == 't' ? 0.5 : 0))
		size_fail("formatted value does not parse back", s, buf);
}

int fuzz_size_one(const uint8_t *data, size_t size)
{
	static const char kinds[] = "trs";
	char s[FUZZ_SIZE_MAX + 1];
	uint64_t v;
	double d;
	int i;

	if (size > FUZZ_SIZE_MAX)
		size = FUZZ_SIZE_MAX;
	memcpy(s, data, size);
	s[size] = '\0';

	if (parse_size(s, &v) == 0)
		size_round_trip(s, v);
	for (i = 0; kinds[i]; i++)
		if (parse_value(s, kinds[i], &d) == 0)
			value_round_trip(s, kinds[i], d);
	return 0;
}

#ifndef FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_size_one(data, size);
}
#endif
