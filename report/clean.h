/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_REPORT_TEXT_H
#define FLASHBENCH_REPORT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Pasted text as the report parser reads it: terminal noise removed, then
 * cut into words with the decoration of mail quotes, lists and markdown
 * tables taken off.
 */
#define TOK_MAX 136		/* an SSR dump is 128 hex digits */

struct tok {
	char s[TOK_MAX];
	int junk;		/* too long to be anything we look for */
};

struct cursor {
	const char *p, *end;
};

/*
 * A copy of text as a terminal would have shown it: ANSI escapes gone,
 * backspaces applied, NULs and other control bytes dropped (tabs, line
 * ends kept).  NULL when out of memory; *out_len is its length.
 */
char *text_clean(const char *text, size_t len, size_t *out_len);

/* Next word; 0 at the end. */
int next_tok(struct cursor *c, struct tok *t);

/* The word ahead words further on (1: the next), 0 past the end. */
int peek_tok(const struct cursor *c, unsigned ahead, struct tok *t);

/* A word of digits only (up to 19 of them). */
int tok_uint(const struct tok *t, uint64_t *v);

/* A word that is only decoration: "**", "#", "---:", "===", a bullet. */
int tok_decoration(const struct tok *t);

#endif
