// SPDX-License-Identifier: GPL-2.0
/*
 * Report text: what a terminal log, a mail archive or a web page did to
 * the tool's output, undone as far as the words go.
 *
 * Terminal logs (script(1), wrapper logs) carry colour escapes, typing
 * fixed with backspace and stray NULs; mail archives quote with '>';
 * pastebins and wikis add list bullets and markdown tables ("| 4MiB |
 * 9M/s |", "|---:|"), code fences and bold or code marks.  None of it
 * is part of a word, so the parser never sees it.
 */
#include <stdlib.h>
#include <string.h>

#include "report/clean.h"

/* Length of the escape sequence at p (p[0] is ESC). */
static size_t escape_len(const char *p, const char *end)
{
	const char *q = p + 1;

	if (q >= end)
		return 1;
	if (*q == '[') {
		/* CSI: parameters and intermediates, then one final byte */
		for (q++; q < end && (unsigned char)*q >= 0x20 &&
		     (unsigned char)*q < 0x40; q++)
			;
		return (size_t)(q - p) + (q < end);
	}
	if (*q == ']') {
		/* OSC (window titles): up to BEL or ESC backslash */
		for (q++; q < end && *q != '\a' && *q != '\033'; q++)
			;
		if (q < end && *q == '\033')
			q++;
		return (size_t)(q - p) + (q < end);
	}
	return 2;
}

/* Backspace: take back the last character typed on this line. */
static size_t rub_out(const char *out, size_t n)
{
	if (!n || out[n - 1] == '\n')
		return n;
	while (n > 1 && ((unsigned char)out[n - 1] & 0xc0) == 0x80)
		n--;
	return n - 1;
}

static int kept_control(unsigned char c)
{
	return c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

char *text_clean(const char *text, size_t len, size_t *out_len)
{
	const char *p = text, *end = text + len;
	char *out = malloc(len + 1);
	size_t n = 0;

	if (!out)
		return NULL;
	while (p < end) {
		unsigned char c = (unsigned char)*p;

		if (c == '\033') {
			p += escape_len(p, end);
			continue;
		}
		if (c == '\b')
			n = rub_out(out, n);
		else if ((c >= 0x20 && c != 0x7f) || kept_control(c))
			out[n++] = (char)c;
		p++;
	}
	out[n] = '\0';
	*out_len = n;
	return out;
}

/*
 * Word separators: white space, the cell walls of markdown tables, and
 * the UTF-8 no-break space and bullet of pasted web pages.
 */
static size_t space_len(const char *p, const char *end)
{
	unsigned char c = (unsigned char)*p;

	if (c == ' ' || c == '|' || (c >= '\t' && c <= '\r'))
		return 1;
	if (c == 0xc2 && p + 1 < end && (unsigned char)p[1] == 0xa0)
		return 2;
	if (c == 0xe2 && p + 2 < end && (unsigned char)p[1] == 0x80 &&
	    (unsigned char)p[2] == 0xa2)
		return 3;
	return 0;
}

/*
 * Quote marks in front, code marks and markdown bold around ("*" alone
 * may be a product in "$[4 * 1024]").
 */
static void strip_marks(const char **start, const char **stop)
{
	while (*start < *stop && (**start == '>' || **start == '`'))
		(*start)++;
	while (*stop > *start && (*stop)[-1] == '`')
		(*stop)--;
	if (*stop - *start > 4 && !strncmp(*start, "**", 2) &&
	    !strncmp(*stop - 2, "**", 2)) {
		*start += 2;
		*stop -= 2;
	}
}

int next_tok(struct cursor *c, struct tok *t)
{
	for (;;) {
		const char *start, *stop;
		size_t n;

		while (c->p < c->end && (n = space_len(c->p, c->end)))
			c->p += n;
		if (c->p >= c->end)
			return 0;
		start = c->p;
		while (c->p < c->end && !space_len(c->p, c->end))
			c->p++;
		stop = c->p;
		strip_marks(&start, &stop);
		n = (size_t)(stop - start);
		if (!n)
			continue;
		t->junk = n >= TOK_MAX;
		if (t->junk)
			n = TOK_MAX - 1;
		memcpy(t->s, start, n);
		t->s[n] = '\0';
		return 1;
	}
}

int peek_tok(const struct cursor *c, unsigned ahead, struct tok *t)
{
	struct cursor d = *c;
	unsigned i;

	for (i = 0; i < ahead; i++)
		if (!next_tok(&d, t))
			return 0;
	return 1;
}

int tok_uint(const struct tok *t, uint64_t *v)
{
	size_t n = strlen(t->s);

	if (t->junk || !n || n > 19 || strspn(t->s, "0123456789") != n)
		return 0;
	*v = strtoull(t->s, NULL, 10);
	return 1;
}

int tok_decoration(const struct tok *t)
{
	return !t->junk && strspn(t->s, "*#=-:~+_.") == strlen(t->s);
}
