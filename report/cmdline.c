// SPDX-License-Identifier: GPL-2.0
/*
 * How a pasted table was measured: the flashbench command line before it
 * (--open-au-nr=N, --random, --erasesize=$[4*1024*1024], -f ...) and the
 * headings people and wrapper scripts print ("Trying N open AUs:",
 * "N AUs, random access", "=== N open, linear ===").  A heading speaks
 * for the tables after it until the next command line; a command without
 * --open-au-nr ran with the classic default of 2.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/cmdline.h"
#include "lib/units.h"

#define NR_MAX 100000		/* above: not an AU count */
#define ORDER_NEAR 6		/* words from an order to its heading's N */
#define CLASSIC_NR 2

static void heading_reset(struct report_heading *h)
{
	memset(h, 0, sizeof(*h));
	h->random = -1;
}

void how_init(struct report_how *h)
{
	memset(h, 0, sizeof(*h));
	heading_reset(&h->head);
}

/* Evaluate "$[4*1024*1024]" (products and quotients), 0 on junk. */
static int eval_arith(const char *s, uint64_t *out)
{
	uint64_t acc = 0;
	char op = '*';
	int first = 1;

	while (*s && *s != ']') {
		unsigned long long v;
		char *end;

		while (*s == ' ')
			s++;
		if (!isdigit((unsigned char)*s))
			return 0;
		errno = 0;
		v = strtoull(s, &end, 10);
		if (errno)
			return 0;
		if (first)
			acc = v;
		else if (op == '*' && v && acc > UINT64_MAX / v)
			return 0;
		else if (op == '*')
			acc *= v;
		else if (!v)
			return 0;
		else
			acc /= v;
		first = 0;
		for (s = end; *s == ' '; s++)
			;
		if (*s == '*' || *s == '/')
			op = *s++;
		else if (*s && *s != ']')
			return 0;
	}
	*out = acc;
	return !first;
}

/*
 * The value of a size option: 0 and *v set, 1 for a shell variable
 * ("$i"), -1 for anything else.  A number glued to the next word
 * ("1024align") yields its leading digits.
 */
static int option_value(const char *s, uint64_t *v)
{
	if (s[0] == '$' && s[1] == '[')
		return eval_arith(s + 2, v) ? 0 : -1;
	if (*s == '$')
		return 1;
	if (!isdigit((unsigned char)*s))
		return -1;
	if (!parse_size(s, v))
		return 0;
	errno = 0;
	*v = strtoull(s, NULL, 10);
	return errno ? -1 : 0;
}

/*
 * Collect the text of an option value: "$[4 * 1024]" spans words.  With
 * no "=", the value is the next word, taken only when it is all value
 * (a glued "1024align" must stay for the table).
 */
static void read_value(struct cursor *c, const char *attached, char *buf,
		       size_t len)
{
	struct tok t;
	size_t n;
	int i;

	if (attached) {
		snprintf(buf, len, "%s", attached);
	} else if (peek_tok(c, 1, &t) && !t.junk) {
		snprintf(buf, len, "%s", t.s);
		if (t.s[0] == '$' || strspn(t.s, "0123456789") == strlen(t.s))
			next_tok(c, &t);
	} else {
		buf[0] = '\0';
		return;
	}
	for (i = 0; i < 8 && buf[0] == '$' && buf[1] == '[' &&
	     !strchr(buf, ']'); i++) {
		if (!next_tok(c, &t))
			break;
		n = strlen(buf);
		snprintf(buf + n, len - n, " %s", t.s);
	}
}

static void long_option(struct report_cmd *cmd, struct cursor *c,
			const char *name, const char *val)
{
	static const struct {
		const char *name;
		char mode;
	} modes[] = {
		{ "align", 'a' }, { "open-au", 'O' }, { "find-fat", 'f' },
		{ "findfat", 'f' },
	};
	char buf[2 * TOK_MAX];
	uint64_t v = 0;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (!strcmp(name, modes[i].name)) {
			cmd->mode = modes[i].mode;
			return;
		}
	}
	if (!strcmp(name, "random")) {
		cmd->random = 1;
		return;
	}
	if (strcmp(name, "open-au-nr") && strcmp(name, "blocksize") &&
	    strcmp(name, "erasesize") && strcmp(name, "offset"))
		return;
	read_value(c, val, buf, sizeof(buf));
	rc = option_value(buf, &v);
	if (!strcmp(name, "open-au-nr")) {
		cmd->nr = rc == 0 && v < NR_MAX ? (unsigned)v : 0;
		cmd->nr_var = rc == 1;
	} else if (!strcmp(name, "offset")) {
		cmd->has_offset = rc == 0;
		cmd->offset = rc == 0 ? v : 0;
	} else if (rc == 0) {
		*(name[0] == 'b' ? &cmd->blocksize : &cmd->erasesize) = v;
	}
}

static void option(struct report_cmd *cmd, struct cursor *c, char *s)
{
	size_t n = strlen(s);
	char *eq;

	while (n && s[n - 1] == ';')
		s[--n] = '\0';
	if (s[1] == '-') {
		eq = strchr(s, '=');
		if (eq)
			*eq++ = '\0';
		long_option(cmd, c, s + 2, eq);
		return;
	}
	for (s++; *s; s++) {
		switch (*s) {
		case 'a': cmd->mode = 'a'; break;
		case 'O': cmd->mode = 'O'; break;
		case 'f': cmd->mode = 'f'; break;
		case 'r': cmd->random = 1; break;
		case 'b':
			long_option(cmd, c, "blocksize", s[1] ? s + 1 : NULL);
			return;
		case 'e':
			long_option(cmd, c, "erasesize", s[1] ? s + 1 : NULL);
			return;
		case 'n':
			/* a wrapper's count ("flashbench -O -n 4"), not head's */
			if (cmd->started)
				long_option(cmd, c, "open-au-nr",
					    s[1] ? s + 1 : NULL);
			return;
		default:
			return;
		}
	}
}

static int is_command(const char *s)
{
	const char *base = strrchr(s, '/');

	return !strcmp(base ? base + 1 : s, "flashbench");
}

/* A heading's word without case and punctuation: "(random)," -> "random" */
static void bare_word(const char *s, char *w)
{
	size_t n, i;

	while (*s && !isalnum((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && !isalnum((unsigned char)s[n - 1]))
		n--;
	for (i = 0; i < n && i < TOK_MAX - 1; i++)
		w[i] = (char)tolower((unsigned char)s[i]);
	w[i] = '\0';
}

static int is_one_of(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(w, *list))
			return 1;
	return 0;
}

/* Names a banner gives the count: "N=3", "AU = 3", "nr=4". */
static const char *const count_names[] = {
	"n", "nr", "au", "aus", "open-au-nr", NULL
};

/* Of those, the ones the count may follow without "=": "open-au-nr 4". */
static const char *const count_lead[] = { "nr", "open-au-nr", NULL };

/* "N=3", "AU=3," (w as bare_word leaves it). */
static int count_assign(const char *w, uint64_t *v)
{
	const char *eq = strchr(w, '=');
	char name[TOK_MAX];
	struct tok num = { .junk = 0 };

	if (!eq || (size_t)(eq - w) >= sizeof(name))
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)(eq - w), w);
	snprintf(num.s, sizeof(num.s), "%s", eq + 1);
	return is_one_of(name, count_names) && tok_uint(&num, v);
}

/* "AU = 3", "open-au-nr 4": the name w, maybe "=", then the count. */
static int count_named(const struct cursor *c, const char *w, uint64_t *v)
{
	struct tok next = { .junk = 0 };
	char nw[TOK_MAX];
	unsigned ahead = 1;

	if (!is_one_of(w, count_names) || !peek_tok(c, 1, &next))
		return 0;
	if (!strcmp(next.s, "="))
		ahead = 2;
	else if (!is_one_of(w, count_lead))
		return 0;
	if (!peek_tok(c, ahead, &next))
		return 0;
	bare_word(next.s, nw);
	snprintf(next.s, sizeof(next.s), "%s", nw);
	return tok_uint(&next, v);
}

/*
 * The noun after a count that makes it a count of AUs: "4 open", "4
 * AUs", "8 erase blocks"; "open" also says the test (*mode).
 */
static int au_noun(const struct cursor *c, char *mode)
{
	static const char *const au[] = {
		"au", "aus", "au's", "au(s", "eraseblock", "eraseblocks",
		"erase-block", "erase-blocks", NULL
	};
	static const char *const block[] = { "block", "blocks", NULL };
	char w[TOK_MAX];
	struct tok next;

	if (!peek_tok(c, 1, &next))
		return 0;
	bare_word(next.s, w);
	if (!strcmp(w, "open")) {
		*mode = 'O';
		return 1;
	}
	if (is_one_of(w, au))
		return 1;
	if (strcmp(w, "erase") || !peek_tok(c, 2, &next))
		return 0;
	bare_word(next.s, w);
	return is_one_of(w, block);
}

/* The count a banner's word states, 0 for none. */
static unsigned banner_count(struct report_how *h, const struct cursor *c,
			     const struct tok *t, const char *w)
{
	char mode = 0;
	uint64_t v;

	if (count_assign(w, &v) || count_named(c, w, &v))
		return v && v < NR_MAX ? (unsigned)v : 0;
	if (!tok_uint(t, &v) || !v || v >= NR_MAX || !au_noun(c, &mode))
		return 0;
	if (mode)
		h->head.mode = mode;
	return (unsigned)v;
}

/*
 * An order named in a banner's words: 1 random, 0 linear, -1 none.
 * "in order" is linear; "in random order" names it before "order".
 */
static int banner_order(const struct report_how *h, const char *w)
{
	static const char *const random[] = {
		"random", "randomly", "shuffled", "shuffle", NULL
	};
	static const char *const linear[] = {
		"linear", "linearly", "sequential", "sequentially", "in-order",
		NULL
	};

	if (is_one_of(w, random))
		return 1;
	if (is_one_of(w, linear) || (!strcmp(w, "order") &&
				     !strcmp(h->prev, "in")))
		return 0;
	return -1;
}

/*
 * A banner names the count and/or the order of the tables after it; what
 * it leaves out comes from the nearest earlier statement.  One exception:
 * an order said just after a count (within ORDER_NEAR words: "Trying 3
 * open AUs, random:", "8 erase blocks in random order") qualifies that
 * count only, as such scripts name the order only when it is not the
 * default: the next count without one is linear again.  An order said
 * first or on its own ("# random, 6 AUs", "[linear] 3 open", "=== random
 * ===") holds for every later count.
 */
static void heading_word(struct report_how *h, const struct cursor *c,
			 const struct tok *t)
{
	static const char *const fat[] = { "find-fat", "findfat", "fat", NULL };
	char w[TOK_MAX];
	unsigned nr;
	int order;

	bare_word(t->s, w);
	order = banner_order(h, w);
	if (order >= 0) {
		h->head.random = order;
		h->head.random_at = h->words;
		h->head.order_tied = h->head.nr_at &&
				     h->words - h->head.nr_at <= ORDER_NEAR;
	} else if (is_one_of(w, fat)) {
		h->head.mode = 'f';
	}
	snprintf(h->prev, sizeof(h->prev), "%s", w);
	nr = banner_count(h, c, t, w);
	if (!nr)
		return;
	if (h->head.order_tied)
		h->head.random = -1;
	h->head.order_tied = 0;
	h->head.nr = nr;
	h->head.nr_at = h->words;
}

void how_table(struct report_how *h)
{
	h->head.nr_at = 0;
}

void how_new_card(struct report_how *h)
{
	heading_reset(&h->head);
}

int how_word(struct report_how *h, struct cursor *c, struct tok *t)
{
	h->words++;
	if (t->junk)
		return 0;
	if (is_command(t->s)) {
		memset(&h->cmd, 0, sizeof(h->cmd));
		h->cmd.started = 1;
		heading_reset(&h->head);
		return 1;
	}
	if (t->s[0] == '-' && t->s[1]) {
		option(&h->cmd, c, t->s);
		return 1;
	}
	if (!strncmp(t->s, "/dev/", 5) || !strncmp(t->s, "sim:", 4)) {
		h->cmd.dev = h->cmd.dev || h->cmd.mode;
	} else if (t->s[0] != '$') {
		/* past the command line: "head -n 20" is not a count */
		h->cmd.started = 0;
	}
	heading_word(h, c, t);
	return 0;
}

char how_mode(const struct report_how *h)
{
	return h->head.mode ? h->head.mode : h->cmd.mode;
}

int how_random(const struct report_how *h)
{
	return h->head.random >= 0 ? h->head.random : h->cmd.random;
}

unsigned how_nr(const struct report_how *h, int have_int, uint64_t last_int)
{
	if (h->head.nr)
		return h->head.nr;
	if (h->cmd.nr_var)
		return have_int && last_int < NR_MAX ? (unsigned)last_int : 0;
	if (h->cmd.nr)
		return h->cmd.nr;
	return h->cmd.mode == 'O' && h->cmd.dev ? CLASSIC_NR : 0;
}
