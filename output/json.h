/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_JSON_H
#define FLASHBENCH_JSON_H

#include <stdint.h>
#include <stdio.h>

/* A streaming JSON writer: tracks nesting so commas come out right. */
struct json {
	FILE *f;
	int depth;
	int first[32];		/* no member written yet at this depth */
	int after_key;
};

void json_init(struct json *j, FILE *f);
void json_open(struct json *j, const char *key, char brace);	/* '{' or '[' */
void json_close(struct json *j, char brace);			/* '}' or ']' */
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_int(struct json *j, const char *key, long long v);
void json_double(struct json *j, const char *key, double v); /* NaN: null */
void json_bool(struct json *j, const char *key, int v);
void json_null(struct json *j, const char *key);
void json_end(struct json *j);	/* final newline */

#endif
