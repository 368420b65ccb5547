// SPDX-License-Identifier: GPL-2.0
/* Building verdicts: values, confidence steps, evidence text. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/internal.h"

/* Append to a verdict's evidence or note, "; "-separated. */
void say(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(buf + n, "; ", 3);
		n += 2;
	}
	if (n >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

void verdict_init(struct verdict *v, enum verdict_type type)
{
	memset(v, 0, sizeof(*v));
	v->type = type;
	v->is_null = 1;
	v->conf = CONF_INCONCLUSIVE;
}

void set_value(struct verdict *v, uint64_t value, enum confidence c)
{
	v->is_null = 0;
	v->value = value;
	v->conf = c;
}

enum confidence conf_down(enum confidence c)
{
	return c > CONF_LOW ? c - 1 : c;
}

enum confidence conf_min(enum confidence a, enum confidence b)
{
	return a < b ? a : b;
}

uint64_t odd_part(uint64_t k)
{
	while (k && !(k & 1))
		k >>= 1;
	return k;
}

const char *confidence_name(enum confidence c)
{
	static const char *const names[] = {
		[CONF_INCONCLUSIVE] = "inconclusive", [CONF_LOW] = "low",
		[CONF_MEDIUM] = "medium", [CONF_HIGH] = "high",
	};

	return c <= CONF_HIGH ? names[c] : "?";
}

static void add_claim(struct verdict *v, const char *name, uint64_t bytes,
		      const char *source)
{
	struct claim *c = &v->claims[v->nclaims];

	if (!bytes || v->nclaims == MAX_CLAIMS)
		return;
	c->name = name;
	c->bytes = bytes;
	c->source = source;
	c->agrees = v->is_null ? -1 : bytes == v->value;
	v->nclaims++;
}

void note_claims(struct verdict *v, const struct analysis_ctx *ctx)
{
	v->nclaims = 0;
	add_claim(v, "ssr_au_size", ctx->au_size, "the card's SSR");
	add_claim(v, "preferred_erase_size", ctx->preferred_erase,
		  ctx->preferred_erase_src);
	add_claim(v, "discard_granularity", ctx->discard_granularity,
		  "the block queue");
}
