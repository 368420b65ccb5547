/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_UNITS_H
#define FLASHBENCH_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define UNIT_BUFLEN 32

/* Formatters write into buf (at least UNIT_BUFLEN bytes) and return it. */
char *fmt_time(char *buf, double ns);
char *fmt_size(char *buf, double bytes);
char *fmt_rate(char *buf, double bytes_per_sec);

/*
 * Parse a size: a number in any C base (4096, 0x2000000, 0755), plain or
 * with a binary suffix K/M/G/T, KB/MB/.., KiB/MiB/GiB/TiB (case-
 * insensitive, 'k' allowed).  Returns 0, or -EINVAL for junk/empty/
 * negative, -ERANGE for overflow.  parse_uint: the same number, no suffix.
 */
int parse_size(const char *s, uint64_t *out);
int parse_uint(const char *s, uint64_t *out);

/*
 * parse_size() for a command line: NULL, or what is wrong with s as a
 * phrase for a message ("too large", "not a size (use e.g. 4M, ...)").
 */
const char *size_problem(const char *s, uint64_t *out);

/*
 * Parse a duration: hours, minutes, seconds, milliseconds, each at most
 * once and in that order ("90s", "20m", "2h", "1h30m", "1h30m15s",
 * "100ms"; a bare number is seconds) into ns.  0, -EINVAL or -ERANGE.
 */
int parse_duration(const char *s, uint64_t *ns);

/* A duration for people: "45s", "12m", "1h05m", "200h". */
char *fmt_duration(char *buf, double ns);

/* A duration as typed, exactly: "1m40s", "1h30m", "250ms" (rest < 1ms dropped). */
char *fmt_duration_exact(char *buf, uint64_t ns);

/*
 * Parse a value as printed by the formatters or by the classic tool,
 * including truncated forms ("-12097n", "1e+03µ", bare numbers).  kind is
 * 't' for times (result in ns), 'r' for rates (bytes/s), 's' for sizes
 * (bytes).  Returns 0 or -EINVAL.
 */
int parse_value(const char *s, int kind, double *out);

/*
 * v as fmt_time ('t') or fmt_rate ('r') prints it, read back: what a
 * table keeps, so that its text judges as the live run did.
 */
double as_printed(double v, int kind);

#endif
