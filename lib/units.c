// SPDX-License-Identifier: GPL-2.0
/* Unit formatters and the one size (and duration) parser. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/units.h"

struct unit {
	const char *name;
	double scale;
};

/*
 * Pick the unit after rounding to the printed precision, so 999.7 ns
 * becomes "1µs" rather than "1e+03ns".
 */
static char *fmt_scaled(char *buf, double v, const struct unit *u, size_t n,
			int prec)
{
	double a = fabs(v);
	size_t i = 0;
	char tmp[UNIT_BUFLEN];

	for (i = 0; i + 1 < n; i++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, a / u[i].scale);
		if (strtod(tmp, NULL) < 1000.0)
			break;
	}
	snprintf(buf, UNIT_BUFLEN, "%.*g%s", prec, v / u[i].scale, u[i].name);
	return buf;
}

char *fmt_time(char *buf, double ns)
{
	static const struct unit u[] = {
		{ "ns", 1 }, { "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};

	if (fabs(ns) < 999.5) {
		/* no "-0ns" for tiny negative values */
		snprintf(buf, UNIT_BUFLEN, "%.0fns", fabs(ns) <= 0.5 ? 0.0 : ns);
		return buf;
	}
	return fmt_scaled(buf, ns, u + 1, 3, 3);
}

char *fmt_size(char *buf, double bytes)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = bytes;
	size_t i = 0;
	int prec;

	/* Binary units step at 1024, so 1000..1023 need a fourth digit. */
	while (i + 1 < sizeof(names) / sizeof(names[0]) && fabs(v) >= 1024.0) {
		v /= 1024.0;
		i++;
	}
	prec = (i >= 3 || fabs(v) >= 999.5) ? 4 : 3;
	snprintf(buf, UNIT_BUFLEN, "%.*g%s", prec, v, names[i]);
	return buf;
}

char *fmt_rate(char *buf, double bps)
{
	static const struct unit u[] = {
		{ "B/s", 1 }, { "K/s", 1e3 }, { "M/s", 1e6 }, { "G/s", 1e9 },
	};

	return fmt_scaled(buf, bps, u, 4, 3);
}

static int suffix_shift(const char *s, unsigned *shift)
{
	static const char letters[] = "KMGT";
	const char *p;

	if (*s == '\0') {
		*shift = 0;
		return 0;
	}
	p = strchr(letters, toupper((unsigned char)*s));
	if (!p)
		return -EINVAL;
	*shift = 10 * (unsigned)(p - letters + 1);
	s++;
	if (*s == '\0' || strcasecmp(s, "iB") == 0 || strcasecmp(s, "B") == 0)
		return 0;
	return -EINVAL;
}

/* The digits in any C base (4096, 0x1000, 010), as the classic took them. */
static int parse_digits(const char *s, unsigned long long *v, char **end)
{
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, end, 0);
	return errno == ERANGE ? -ERANGE : 0;
}

int parse_uint(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int ret = parse_digits(s, &v, &end);

	if (ret)
		return ret;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned shift;
	char *end;
	int ret = parse_digits(s, &v, &end);

	if (ret)
		return ret;
	if (suffix_shift(end, &shift))
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -ERANGE;
	*out = (uint64_t)v << shift;
	return 0;
}

const char *size_problem(const char *s, uint64_t *out)
{
	int ret = parse_size(s, out);

	if (ret == -ERANGE)
		return "too large";
	if (ret)
		return "not a size (use e.g. 4M, 4MiB, 16k, 512, 0x400000)";
	return NULL;
}

/* The units of a duration, largest first: the order they must come in. */
static const struct {
	const char *name;
	uint64_t ns;
} dur_unit[] = { { "h", 3600000000000ull }, { "m", 60000000000ull },
		 { "s", 1000000000ull }, { "ms", 1000000ull } };

#define N_DUR_UNITS (sizeof(dur_unit) / sizeof(dur_unit[0]))
#define DUR_SECONDS 2	/* a bare number's unit */

/*
 * Index in dur_unit of the unit p starts with (followed by the next
 * number or the end: "m" is not the start of "ms"), searched from first
 * on: a unit already used or larger than one used ("1s1s", "1m1h") is
 * not found, as each may come once and largest first.  N_DUR_UNITS if
 * none.
 */
static size_t dur_unit_at(const char *p, size_t first)
{
	size_t n;

	for (; first < N_DUR_UNITS; first++) {
		n = strlen(dur_unit[first].name);
		if (!strncmp(p, dur_unit[first].name, n) &&
		    (!p[n] || isdigit((unsigned char)p[n])))
			return first;
	}
	return first;
}

/*
 * A duration: number-unit pairs, hours then minutes then seconds then
 * milliseconds, each at most once ("90s", "20m", "2h", "1h30m",
 * "1h30m15s", "250ms"); a bare number alone is seconds.
 */
int parse_duration(const char *s, uint64_t *ns)
{
	uint64_t total = 0;
	unsigned long long v;
	size_t next = 0;
	char *end;
	size_t i;

	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno == ERANGE)
			return -ERANGE;
		i = !*end && next == 0 ? DUR_SECONDS :
			dur_unit_at(end, next);
		if (i == N_DUR_UNITS)
			return -EINVAL;
		if (v > (UINT64_MAX - total) / dur_unit[i].ns)
			return -ERANGE;
		total += v * dur_unit[i].ns;
		next = i + 1;
		s = *end ? end + strlen(dur_unit[i].name) : end;
	}
	*ns = total;
	return 0;
}

char *fmt_duration(char *buf, double ns)
{
	double s = ns / 1e9;

	if (!(s >= 0))
		s = 0;
	if (s < 59.5)
		snprintf(buf, UNIT_BUFLEN, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, UNIT_BUFLEN, "%.0fm", s / 60);
	else if (s < 359940)
		snprintf(buf, UNIT_BUFLEN, "%.0fh%02.0fm", floor(s / 3600),
			 floor(fmod(s, 3600) / 60));
	else
		snprintf(buf, UNIT_BUFLEN, "%.0fh", s / 3600);
	return buf;
}

/*
 * A duration as the user would type it, exact: each unit's part, largest
 * first, zero parts left out ("100s" reads back as "1m40s", never "2m"),
 * so parse_duration() gives back the same value.
 */
char *fmt_duration_exact(char *buf, uint64_t ns)
{
	size_t i, len = 0;
	uint64_t part;

	buf[0] = '\0';
	for (i = 0; i < N_DUR_UNITS; i++) {
		part = ns / dur_unit[i].ns;
		ns %= dur_unit[i].ns;
		if (part && len < UNIT_BUFLEN)
			len += snprintf(buf + len, UNIT_BUFLEN - len, "%llu%s",
					(unsigned long long)part,
					dur_unit[i].name);
	}
	if (!len)
		snprintf(buf, UNIT_BUFLEN, "0s");
	return buf;
}

struct vunit {
	const char *name;
	double scale;
};

static const struct vunit time_units[] = {
	{ "ns", 1 }, { "n", 1 }, { "µs", 1e3 }, { "µ", 1e3 }, { "us", 1e3 },
	{ "u", 1e3 }, { "ms", 1e6 }, { "m", 1e6 }, { "s", 1e9 }, { "", 1 },
	{ NULL, 0 }
};

static const struct vunit rate_units[] = {
	{ "B/s", 1 }, { "K/s", 1e3 }, { "M/s", 1e6 }, { "G/s", 1e9 },
	{ "B/", 1 }, { "K/", 1e3 }, { "M/", 1e6 }, { "G/", 1e9 },
	{ "K", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "", 1 },
	{ NULL, 0 }
};

static const struct vunit size_units[] = {
	{ "B", 1 }, { "KiB", 1024.0 }, { "MiB", 1048576.0 },
	{ "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
	{ "Ki", 1024.0 }, { "Mi", 1048576.0 }, { "Gi", 1073741824.0 },
	{ "K", 1024.0 }, { "M", 1048576.0 }, { "G", 1073741824.0 },
	{ "", 1 }, { NULL, 0 }
};

int parse_value(const char *s, int kind, double *out)
{
	const struct vunit *u;
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	if (!isdigit((unsigned char)*s) && *s != '-' && *s != '.')
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || !isfinite(v))
		return -EINVAL;
	u = kind == 't' ? time_units : kind == 'r' ? rate_units : size_units;
	for (; u->name; u++) {
		if (strcmp(end, u->name) == 0) {
			/* "5e303m" is finite, but not in ns */
			if (!isfinite(v * u->scale))
				return -EINVAL;
			*out = v * u->scale;
			return 0;
		}
	}
	return -EINVAL;
}

double as_printed(double v, int kind)
{
	char buf[UNIT_BUFLEN];
	double back;

	if (!isfinite(v))
		return v;
	if (parse_value(kind == 't' ? fmt_time(buf, v) : fmt_rate(buf, v),
			kind, &back))
		return v;
	return back;
}
