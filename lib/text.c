// SPDX-License-Identifier: GPL-2.0
/* Safe text for messages and JSON; see text.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/text.h"

size_t utf8_char(const unsigned char *p, uint32_t *cp)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n, i;
	uint32_t c;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	c = p[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

int is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

void put_safe(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t cp;
	size_t n;

	while (*p) {
		n = utf8_char(p, &cp);
		if (n && cp == '\n') {
			fputs("\\n", f);
		} else if (n && !is_control(cp)) {
			fwrite(p, 1, n, f);
		} else {
			/* byte by byte: a stray one may start a good one */
			fprintf(f, "\\x%02x", *p);
			n = 1;
		}
		p += n;
	}
}

/*
 * A name longer than this is shown by its two ends: the reason after it
 * must not scroll off or be cut.
 */
#define NAME_SHOWN 160

/* Each run of bytes without a space longer than NAME_SHOWN, elided. */
static void put_elided(FILE *f, char *msg)
{
	size_t n, keep = NAME_SHOWN / 2 - 2;
	char c;

	while (*msg) {
		n = strcspn(msg, " ");
		if (n > NAME_SHOWN) {
			c = msg[keep];
			msg[keep] = '\0';
			put_safe(f, msg);
			msg[keep] = c;
			fputs("...", f);
			msg += n - keep;
		}
		n = strcspn(msg, " ");
		n += msg[n] == ' ';
		c = msg[n];
		msg[n] = '\0';
		put_safe(f, msg);
		msg[n] = c;
		msg += n;
	}
}

void say_va(FILE *f, const char *prog, const char *fmt, va_list ap)
{
	char *msg = NULL;
	size_t n;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	n = msg ? strlen(msg) : 0;
	if (n && msg[n - 1] == '\n')
		msg[n - 1] = '\0';
	fprintf(f, "%s: ", prog);
	if (msg)
		put_elided(f, msg);
	else
		fputs("out of memory", f);
	fputc('\n', f);
	free(msg);
}
