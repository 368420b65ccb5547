// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>

#include "output/json.h"
#include "lib/text.h"

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->first[0] = 1;
}

/*
 * JSON text is Unicode: a byte that is not part of well-formed UTF-8 (a
 * file name in Latin-1, say) becomes U+FFFD, the replacement character.
 */
static void put_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t n;

	fputc('"', f);
	for (; *p; p += n) {
		n = utf8_char(p, &cp);
		if (!n) {
			fputs("\\ufffd", f);
			n = 1;
		} else if (cp == '"' || cp == '\\') {
			fprintf(f, "\\%c", (char)cp);
		} else if (cp == '\n') {
			fputs("\\n", f);
		} else if (cp == '\t') {
			fputs("\\t", f);
		} else if (is_control(cp)) {
			fprintf(f, "\\u%04x", (unsigned)cp);
		} else {
			fwrite(p, 1, n, f);
		}
	}
	fputc('"', f);
}

/* Comma, indentation and "key": before a member. */
static void member(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = 0;
	if (j->depth) {
		fputc('\n', j->f);
		fprintf(j->f, "%*s", 2 * j->depth, "");
	}
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

void json_open(struct json *j, const char *key, char brace)
{
	member(j, key);
	fputc(brace, j->f);
	if (j->depth + 1 < (int)(sizeof(j->first) / sizeof(j->first[0])))
		j->depth++;
	j->first[j->depth] = 1;
}

void json_close(struct json *j, char brace)
{
	int empty = j->first[j->depth];

	if (j->depth)
		j->depth--;
	if (!empty)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(brace, j->f);
}

void json_str(struct json *j, const char *key, const char *v)
{
	member(j, key);
	if (v)
		put_string(j->f, v);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	member(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_int(struct json *j, const char *key, long long v)
{
	member(j, key);
	fprintf(j->f, "%lld", v);
}

/*
 * Quantities are in base units (ns, bytes, bytes/s), whose resolution is
 * one: digits past the point would claim a precision nothing measured.
 */
void json_double(struct json *j, const char *key, double v)
{
	member(j, key);
	if (!isfinite(v))
		fputs("null", j->f);
	else if (fabs(v) >= 1)
		fprintf(j->f, "%.0f", v);
	else
		fprintf(j->f, "%.3g", v);
}

void json_bool(struct json *j, const char *key, int v)
{
	member(j, key);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	member(j, key);
	fputs("null", j->f);
}

void json_end(struct json *j)
{
	fputc('\n', j->f);
}
