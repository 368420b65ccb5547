// SPDX-License-Identifier: GPL-2.0
/*
 * The unit formatters and the one size parser, table by table: each
 * row an input, what must come out, and why that row is there.
 * DESIGN.md section 4 "Units" is the specification.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "lib/units.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct fmt_case {
	double v;
	const char *want;
	const char *why;
};

static const struct fmt_case times[] = {
	{ 0, "0ns", "zero" },
	{ 123, "123ns", "below 1000: whole ns" },
	{ 0.6, "1ns", "ns rounded" },
	{ -0.3, "0ns", "no -0ns for a tiny negative" },
	{ -0.6, "-1ns", "negative ns" },
	{ 999.4, "999ns", "last value in ns" },
	{ 999.5, "1µs", "rounds to 1000ns: µs" },
	{ 999.7, "1µs", "unit after rounding, never 1e+03ns" },
	{ -999.5, "-1µs", "negative, at the boundary" },
	{ 12097, "12.1µs", "3 digits" },
	{ -12097, "-12.1µs", "negative like positive, not -12097n" },
	{ 99949, "99.9µs", "3 digits, below" },
	{ 99950, "100µs", "3 digits, rounded up" },
	{ 999499, "999µs", "last value in µs" },
	{ 999500, "1ms", "rounds to 1000µs: ms" },
	{ 1.23e6, "1.23ms", "ms" },
	{ 999.4e6, "999ms", "last value in ms" },
	{ 999.5e6, "1s", "rounds to 1000ms: s" },
	{ 2.5e9, "2.5s", "s" },
	{ -2.5e9, "-2.5s", "negative s" },
	{ 999e9, "999s", "s stays the unit" },
};

static const struct fmt_case sizes[] = {
	{ 0, "0B", "zero" },
	{ 512, "512B", "bytes" },
	{ 1000, "1000B", "1000..1023: a fourth digit, still B" },
	{ 1023, "1023B", "last value in B" },
	{ 1024, "1KiB", "binary step" },
	{ 1536, "1.5KiB", "fraction" },
	{ 1023 * 1024, "1023KiB", "a fourth digit in KiB" },
	{ 1048576, "1MiB", "MiB" },
	{ 1310720, "1.25MiB", "3 digits" },
	{ 4194304, "4MiB", "the default erase size" },
	{ -4096, "-4KiB", "negative like positive" },
	{ -1310720, "-1.25MiB", "negative fraction" },
	{ 1073741824.0, "1GiB", "GiB" },
	{ 7948206080.0, "7.402GiB", "GiB: 4 digits (a card's size)" },
	{ 1099511627776.0, "1TiB", "TiB" },
};

static const struct fmt_case rates[] = {
	{ 0, "0B/s", "zero" },
	{ 123.456, "123B/s", "3 digits" },
	{ 999.4, "999B/s", "last value in B/s" },
	{ 999.5, "1K/s", "rounds to 1000B/s: K/s" },
	{ 1000, "1K/s", "decimal step" },
	{ 829e3, "829K/s", "K/s" },
	{ 999.4e3, "999K/s", "last value in K/s" },
	{ 999.5e3, "1M/s", "rounds to 1000K/s: M/s" },
	{ 999.9e3, "1M/s", "unit after rounding" },
	{ 9.06e6, "9.06M/s", "M/s" },
	{ -9.06e6, "-9.06M/s", "negative like positive" },
	{ -999.5, "-1K/s", "negative, at the boundary" },
	{ 1e9, "1G/s", "G/s" },
};

static void check_fmt(const char *what, char *(*fmt)(char *, double),
		      const struct fmt_case *c, size_t n)
{
	char b[UNIT_BUFLEN];
	size_t i;

	for (i = 0; i < n; i++) {
		fmt(b, c[i].v);
		CHECK(!strcmp(b, c[i].want), "%s %.10g: %s (%s), got %s", what,
		      c[i].v, c[i].want, c[i].why, b);
	}
}

struct parse_case {
	const char *s;
	int ret;
	uint64_t want;
	const char *why;
};

static const struct parse_case size_cases[] = {
	{ "4194304", 0, 4194304, "plain bytes" },
	{ "0", 0, 0, "zero parses (options refuse it)" },
	{ "3072", 0, 3072, "what --blocksize=$[3*1024] expands to" },
	{ "16k", 0, 16384, "lower-case k" },
	{ "4K", 0, 4096, "K" },
	{ "4KB", 0, 4096, "KB is binary" },
	{ "4kib", 0, 4096, "suffix case-insensitive" },
	{ "4M", 0, 4u << 20, "M" },
	{ "4MiB", 0, 4u << 20, "MiB" },
	{ "4G", 0, 4ull << 30, "G" },
	{ "4GiB", 0, 4ull << 30, "GiB" },
	{ "2T", 0, 2ull << 40, "T" },
	{ "2TiB", 0, 2ull << 40, "TiB" },
	{ "0x2000000", 0, 0x2000000, "hex" },
	{ "0X10M", 0, 16u << 20, "hex with a suffix" },
	{ "010", 0, 8, "octal, as C" },
	{ "0755", 0, 0755, "octal" },
	{ "18446744073709551615", 0, UINT64_MAX, "the largest" },
	{ "16777215T", 0, 16777215ull << 40, "the largest in T" },
	{ "99999999999999999999", -ERANGE, 0, "overflow" },
	{ "18446744073709551616", -ERANGE, 0, "one past the largest" },
	{ "16777216T", -ERANGE, 0, "suffix overflow, T" },
	{ "17179869184G", -ERANGE, 0, "suffix overflow, G" },
	{ "$[3*1024]", -EINVAL, 0, "not expanded by the shell" },
	{ "", -EINVAL, 0, "empty" },
	{ "-1", -EINVAL, 0, "negative" },
	{ "-0", -EINVAL, 0, "negative zero" },
	{ "+1", -EINVAL, 0, "a sign" },
	{ " 4", -EINVAL, 0, "leading space" },
	{ "4M ", -EINVAL, 0, "trailing junk" },
	{ "4 K", -EINVAL, 0, "space before the suffix" },
	{ "4X", -EINVAL, 0, "junk suffix" },
	{ "4P", -EINVAL, 0, "no P" },
	{ "4B", -EINVAL, 0, "B alone is no suffix" },
	{ "4MiBs", -EINVAL, 0, "junk after the suffix" },
	{ "4.5K", -EINVAL, 0, "no fractions" },
	{ "1e3", -EINVAL, 0, "no exponent" },
	{ "K", -EINVAL, 0, "suffix without a number" },
	{ "0x", -EINVAL, 0, "hex without digits" },
	{ "08", -EINVAL, 0, "not octal" },
};

static const struct parse_case uint_cases[] = {
	{ "12", 0, 12, "plain" },
	{ "0x20", 0, 32, "hex" },
	{ "4K", -EINVAL, 0, "no suffix" },
	{ "-1", -EINVAL, 0, "negative" },
	{ "99999999999999999999", -ERANGE, 0, "overflow" },
};

static const struct parse_case duration_cases[] = {
	{ "90s", 0, 90000000000ull, "seconds" },
	{ "20m", 0, 1200000000000ull, "minutes" },
	{ "2h", 0, 7200000000000ull, "hours" },
	{ "1h30m", 0, 5400000000000ull, "pairs add up" },
	{ "45", 0, 45000000000ull, "bare: seconds" },
	{ "1h30", -EINVAL, 0, "bare after a unit" },
	{ "5x", -EINVAL, 0, "junk unit" },
	{ "m", -EINVAL, 0, "no number" },
	{ "-1s", -EINVAL, 0, "negative" },
	{ "99999999999h", -ERANGE, 0, "overflow" },
	{ "1h30m15s", 0, 5415000000000ull, "all three, largest first" },
	{ "1h15s", 0, 3615000000000ull, "a unit left out" },
	{ "1s1s", -EINVAL, 0, "a unit twice" },
	{ "1m1h", -EINVAL, 0, "smaller unit first" },
	{ "30m1h", -EINVAL, 0, "smaller unit first" },
	{ "1d", -EINVAL, 0, "no days" },
	{ "", -EINVAL, 0, "empty" },
	{ "1h 30m", -EINVAL, 0, "a space" },
	{ "250ms", 0, 250000000ull, "milliseconds" },
	{ "1s500ms", 0, 1500000000ull, "seconds then milliseconds" },
	{ "1m5ms", 0, 60005000000ull, "minutes then milliseconds" },
	{ "5ms1s", -EINVAL, 0, "milliseconds first" },
	{ "5mss", -EINVAL, 0, "junk after ms" },
};

static void check_parse(const char *what,
			int (*parse)(const char *, uint64_t *),
			const struct parse_case *c, size_t n)
{
	uint64_t v;
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		v = 0;
		ret = parse(c[i].s, &v);
		CHECK(ret == c[i].ret && (ret || v == c[i].want),
		      "%s '%s': %d %llu (%s), got %d %llu", what, c[i].s,
		      c[i].ret, (unsigned long long)c[i].want, c[i].why, ret,
		      (unsigned long long)v);
	}
}

static const struct fmt_case durations[] = {
	{ 45e9, "45s", "seconds" },
	{ 720e9, "12m", "minutes" },
	{ 41760e9, "11h36m", "hours and minutes" },
};

/* A budget echoed exactly: it parses back to the same value. */
static void exact_durations(void)
{
	static const char *const typed[] = { "100s", "2m", "1h30m", "250ms",
					     "1h15s", "1s500ms", "0s" };
	static const char *const shown[] = { "1m40s", "2m", "1h30m", "250ms",
					     "1h15s", "1s500ms", "0s" };
	char buf[UNIT_BUFLEN];
	uint64_t ns, back;
	size_t i;

	for (i = 0; i < N(typed); i++) {
		CHECK(!parse_duration(typed[i], &ns), "parse '%s'", typed[i]);
		fmt_duration_exact(buf, ns);
		CHECK(!strcmp(buf, shown[i]), "exact '%s': want %s, got %s",
		      typed[i], shown[i], buf);
		CHECK(!parse_duration(buf, &back) && back == ns,
		      "exact '%s' reads back", typed[i]);
	}
}

/* The phrase a size option's message gives, or none. */
static void problems(void)
{
	uint64_t v;

	CHECK(!size_problem("4M", &v) && v == 4u << 20, "size_problem: 4M");
	CHECK(!strcmp(size_problem("17179869184G", &v), "too large"),
	      "size_problem: too large");
	CHECK(!strncmp(size_problem("4X", &v), "not a size (use e.g. ", 21),
	      "size_problem: not a size, with examples");
}

int main(void)
{
	check_fmt("time", fmt_time, times, N(times));
	check_fmt("size", fmt_size, sizes, N(sizes));
	check_fmt("rate", fmt_rate, rates, N(rates));
	check_fmt("duration", fmt_duration, durations, N(durations));
	check_parse("parse_size", parse_size, size_cases, N(size_cases));
	check_parse("parse_uint", parse_uint, uint_cases, N(uint_cases));
	check_parse("parse_duration", parse_duration, duration_cases,
		    N(duration_cases));
	exact_durations();
	problems();
	return CHECK_DONE();
}
