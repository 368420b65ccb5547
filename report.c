// SPDX-License-Identifier: GPL-2.0
/*
 * Report parser: finds flashbench tables and device facts in any text.
 *
 * Mail archives collapse lines and quote with '>', so the text is read as
 * a stream of whitespace-separated tokens and tables are recognised by
 * the shape of their rows, not by line breaks:
 *
 *   align N pre T on T post T diff T	alignment test (-a)
 *   SIZE RATE [RATE...]		open-AU (-O) or find-FAT (-f) row
 *   size linear=1 linear=2 ...		header of an open-AU sweep; then
 *   SIZE RATE|- RATE|- ...		one rate per column, '-' = not run
 *
 * (the sweep header may name its columns "random=N" for --random runs,
 * or "nr=N").  A table ends at the first token that does not fit its
 * pattern (a prompt, prose, "^C"); "**" and "#" markers are skipped.  The
 * command line before a table (--open-au-nr=N, --random, --erasesize=
 * $[4*1024*1024], -f ...) or a heading "Trying N open AUs:" tells how it
 * was measured.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report.h"
#include "report_identity.h"
#include "units.h"

#define TOK_MAX 136		/* an SSR dump is 128 hex digits */

struct tok {
	char s[TOK_MAX];
	int junk;		/* too long to be anything we look for */
};

struct cursor {
	const char *p, *end;
};

/* What the last flashbench command line said about the next table. */
struct cmd {
	char mode;		/* 'a', 'O', 'f' or 0 */
	int random;
	unsigned nr;		/* --open-au-nr, 0 = not given */
	int nr_var;		/* --open-au-nr=$i: N comes from the loop */
	uint64_t blocksize, erasesize;
};

struct parser {
	struct report *r;
	struct cursor c;
	struct cmd cmd;
	unsigned heading_nr;	/* "Trying N open AUs:" */
	int have_int;		/* the previous token was a bare integer */
	uint64_t last_int;
	struct table *cur;	/* table the next row may extend */
	int broken;		/* a foreign token since cur's last row */
	unsigned cur_cols;	/* values per row as printed */
	size_t rows;		/* over all tables */
	int disk_ago;		/* tokens since "Disk", -1 = none near */
	int pref_ago;		/* tokens since "preferred_erase_size" */
	int size_next;		/* previous token was "Size:" */
	struct id_scan ids;	/* identity dumps */
	int nomem;
};

static size_t space_len(const char *p, const char *end)
{
	unsigned char c = (unsigned char)*p;

	if (c == ' ' || c == '\0' || (c >= '\t' && c <= '\r'))
		return 1;
	/* UTF-8 no-break space, common in pasted web pages */
	if (c == 0xc2 && p + 1 < end && (unsigned char)p[1] == 0xa0)
		return 2;
	return 0;
}

/* Next token with leading '>' quote marks removed; 0 at the end. */
static int next_tok(struct cursor *c, struct tok *t)
{
	for (;;) {
		const char *start;
		size_t n;

		while (c->p < c->end && (n = space_len(c->p, c->end)))
			c->p += n;
		if (c->p >= c->end)
			return 0;
		start = c->p;
		while (c->p < c->end && !space_len(c->p, c->end))
			c->p++;
		while (start < c->p && *start == '>')
			start++;
		n = (size_t)(c->p - start);
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

/* Hand-made markers ("**" next to a row, "##" comments) */
static int ignorable(const struct tok *t)
{
	return strspn(t->s, "*#") == strlen(t->s);
}

static int tok_uint(const struct tok *t, uint64_t *v)
{
	size_t n = strlen(t->s);

	if (t->junk || !n || n > 19 || strspn(t->s, "0123456789") != n)
		return 0;
	*v = strtoull(t->s, NULL, 10);
	return 1;
}

/* A size as printed in a table ("4MiB", "2.5MiB", "512B"). */
static int tok_size(const struct tok *t, uint64_t *key)
{
	size_t n = strlen(t->s);
	double v;

	if (t->junk || !n || t->s[n - 1] != 'B')
		return 0;
	if (parse_value(t->s, 's', &v) || !(v >= 1.0 && v < 4.6e18))
		return 0;
	*key = (uint64_t)llround(v);
	return 1;
}

/* A rate ("9.06M/s", or cut at 7 bytes by the classic tool: "9.061M/"). */
static int tok_rate(const struct tok *t, double *v)
{
	size_t n = strlen(t->s);

	if (t->junk || n < 2 || !strchr(t->s, '/'))
		return 0;
	if (strcmp(t->s + n - 2, "/s") && t->s[n - 1] != '/')
		return 0;
	return !parse_value(t->s, 'r', v) && *v >= 0;
}

static int peek(const struct parser *p, unsigned ahead, struct tok *t)
{
	struct cursor c = p->c;
	unsigned i;

	for (i = 0; i < ahead; i++)
		if (!next_tok(&c, t))
			return 0;
	return 1;
}

static struct report_section *section(struct parser *p)
{
	struct report *r = p->r;

	if (!r->nsecs) {
		memset(&r->secs[0], 0, sizeof(r->secs[0]));
		r->nsecs = 1;
	}
	return &r->secs[r->nsecs - 1];
}

/*
 * Another card's identity, or a device name: starts a new section when
 * the current one already holds tables.
 */
static void identity(struct parser *p, const char *dev)
{
	struct report_section *s = section(p);
	size_t a = strlen(s->device), b = dev ? strlen(dev) : 0;

	if (dev && (!a || !strncmp(s->device, dev, a < b ? a : b))) {
		if (!a)
			snprintf(s->device, sizeof(s->device), "%s", dev);
		return;
	}
	if (s->ntabs && p->r->nsecs < REPORT_MAX_SECTIONS) {
		s = &p->r->secs[p->r->nsecs++];
		memset(s, 0, sizeof(*s));
		s->first = p->r->ntabs;
		p->cur = NULL;
	}
	if (dev)
		snprintf(s->device, sizeof(s->device), "%s", dev);
}

static void set_fact(struct parser *p, int which, uint64_t v)
{
	struct analysis_ctx *c[2] = { &section(p)->ctx, &p->r->ctx };
	int i;

	if (!v)
		return;
	for (i = 0; i < 2; i++) {
		uint64_t *f = which ? &c[i]->preferred_erase : &c[i]->dev_size;

		if (!*f)
			*f = v;
	}
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
 * Collect the text of an option value: "$[4 * 1024]" spans tokens.  With
 * no "=", the value is the next token, taken only when it is all value
 * (a glued "1024align" must stay for the table).
 */
static void read_value(struct parser *p, const char *attached, char *buf,
		       size_t len)
{
	struct tok t;
	size_t n;
	int i;

	if (attached) {
		snprintf(buf, len, "%s", attached);
	} else if (peek(p, 1, &t) && !t.junk) {
		snprintf(buf, len, "%s", t.s);
		if (t.s[0] == '$' || strspn(t.s, "0123456789") == strlen(t.s))
			next_tok(&p->c, &t);
	} else {
		buf[0] = '\0';
		return;
	}
	for (i = 0; i < 8 && buf[0] == '$' && buf[1] == '[' &&
	     !strchr(buf, ']'); i++) {
		if (!next_tok(&p->c, &t))
			break;
		n = strlen(buf);
		snprintf(buf + n, len - n, " %s", t.s);
	}
}

static void long_option(struct parser *p, const char *name, const char *val)
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
			p->cmd.mode = modes[i].mode;
			return;
		}
	}
	if (!strcmp(name, "random")) {
		p->cmd.random = 1;
		return;
	}
	if (strcmp(name, "open-au-nr") && strcmp(name, "blocksize") &&
	    strcmp(name, "erasesize"))
		return;
	read_value(p, val, buf, sizeof(buf));
	rc = option_value(buf, &v);
	if (!strcmp(name, "open-au-nr")) {
		p->cmd.nr = rc == 0 && v < 100000 ? (unsigned)v : 0;
		p->cmd.nr_var = rc == 1;
	} else if (rc == 0) {
		*(name[0] == 'b' ? &p->cmd.blocksize : &p->cmd.erasesize) = v;
	}
}

static void option(struct parser *p, char *s)
{
	size_t n = strlen(s);
	char *eq;

	while (n && s[n - 1] == ';')
		s[--n] = '\0';
	if (s[1] == '-') {
		eq = strchr(s, '=');
		if (eq)
			*eq++ = '\0';
		long_option(p, s + 2, eq);
		return;
	}
	for (s++; *s; s++) {
		switch (*s) {
		case 'a': p->cmd.mode = 'a'; break;
		case 'O': p->cmd.mode = 'O'; break;
		case 'f': p->cmd.mode = 'f'; break;
		case 'r': p->cmd.random = 1; break;
		case 'b':
			long_option(p, "blocksize", s[1] ? s + 1 : NULL);
			return;
		case 'e':
			long_option(p, "erasesize", s[1] ? s + 1 : NULL);
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

/* Device facts: fdisk, hdparm, a "Size:" line, sysfs preferred_erase. */
static void facts(struct parser *p, const struct tok *t)
{
	uint64_t v;
	const char *f;

	if (p->disk_ago >= 0 && p->disk_ago <= 6 && p->have_int &&
	    (!strcmp(t->s, "bytes") || !strcmp(t->s, "bytes,")))
		set_fact(p, 0, p->last_int);
	if (p->size_next && tok_size(t, &v))
		set_fact(p, 0, v);
	if (p->pref_ago >= 0 && p->pref_ago <= 2 && tok_uint(t, &v))
		set_fact(p, 1, v);
	if (!strncmp(t->s, "LBAsects=", 9) && !t->junk) {
		struct tok n;

		snprintf(n.s, sizeof(n.s), "%s", t->s + 9);
		n.junk = 0;
		if (tok_uint(&n, &v) && v < (UINT64_MAX >> 9))
			set_fact(p, 0, v << 9);
	}
	f = strstr(t->s, "preferred_erase_size");
	if (f) {
		p->pref_ago = -1;
		f += strlen("preferred_erase_size");
		if ((*f == ':' || *f == '=') && isdigit((unsigned char)f[1]))
			set_fact(p, 1, strtoull(f + 1, NULL, 10));
		else
			p->pref_ago = 0;
	} else if (p->pref_ago >= 0) {
		p->pref_ago++;
	}
	p->size_next = !strcmp(t->s, "Size:");
	if (!strcmp(t->s, "Disk"))
		p->disk_ago = 0;
	else if (p->disk_ago >= 0)
		p->disk_ago++;
}

/* Tokens that are not table rows: commands, headings, facts, identity. */
static void other(struct parser *p, struct tok *t)
{
	struct tok a, b;
	size_t n = strlen(t->s);
	uint64_t v;

	p->broken = 1;
	facts(p, t);
	if (t->junk)
		return;
	if (is_command(t->s)) {
		memset(&p->cmd, 0, sizeof(p->cmd));
		p->heading_nr = 0;
	} else if (t->s[0] == '-' && t->s[1]) {
		option(p, t->s);
	} else if (tok_uint(t, &v) && peek(p, 1, &a) && peek(p, 2, &b) &&
		   !strcasecmp(a.s, "open") && !strncasecmp(b.s, "AU", 2)) {
		p->heading_nr = v < 100000 ? (unsigned)v : 0;
	} else if (!strncmp(t->s, "/dev/", 5) && n > 5) {
		while (n && strchr(":,;", t->s[n - 1]))
			t->s[--n] = '\0';
		identity(p, t->s);
	} else if ((n >= 4 && !strcmp(t->s + n - 4, "/cid")) ||
		   !strcmp(t->s, "cid:") || !strcmp(t->s, "lsusb") ||
		   !strncmp(t->s, "Model=", 6)) {
		identity(p, NULL);
	}
	id_scan_token(&p->ids, &section(p)->attrs, t->s);
}

static struct table *new_table(struct parser *p, enum table_kind kind)
{
	struct report *r = p->r;
	struct report_section *s = section(p);
	struct table *t;

	if (r->ntabs == REPORT_MAX_TABLES)
		return NULL;
	if (r->ntabs % 16 == 0) {
		struct table *n = realloc(r->tabs, (r->ntabs + 16) * sizeof(*n));

		if (!n) {
			p->nomem = 1;
			return NULL;
		}
		r->tabs = n;
	}
	t = &r->tabs[r->ntabs++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->blocksize = p->cmd.blocksize;
	t->erasesize = p->cmd.erasesize;
	t->random = p->cmd.random;
	if (kind == TAB_OPENAU) {
		if (p->heading_nr)
			t->open_au_nr = p->heading_nr;
		else if (p->cmd.nr_var && p->have_int && p->last_int < 100000)
			t->open_au_nr = (unsigned)p->last_int;
		else
			t->open_au_nr = p->cmd.nr;
	}
	s->ntabs++;
	p->cur = t;
	return t;
}

/* cur, if the row keyed key may extend it; a new table otherwise. */
static struct table *row_table(struct parser *p, enum table_kind kind,
			       unsigned cols, uint64_t key)
{
	struct table *t = p->cur;

	if (t && !p->broken && t->kind == kind && p->cur_cols == cols &&
	    t->nrows && key < t->rows[t->nrows - 1].key)
		return t;
	p->cur_cols = cols;
	return new_table(p, kind);
}

static struct table_row *add_row(struct parser *p, struct table *t,
				 uint64_t key)
{
	struct table_row *row;

	p->broken = 0;
	p->have_int = 0;
	if (!t || p->rows >= REPORT_MAX_ROWS)
		return NULL;
	row = table_add_row(t, key);
	if (row)
		p->rows++;
	else
		p->nomem = 1;
	return row;
}

static int try_align(struct parser *p)
{
	static const char *const names[] = { "pre", "on", "post", "diff" };
	struct cursor save = p->c;
	struct table_row *row;
	struct table *t;
	struct tok t1, t2;
	double v[4];
	uint64_t key;
	int i;

	if (!next_tok(&p->c, &t1) || !tok_uint(&t1, &key) || !key)
		goto fail;
	for (i = 0; i < 4; i++) {
		if (!next_tok(&p->c, &t1) || !next_tok(&p->c, &t2) ||
		    strcmp(t1.s, names[i]) || t2.junk ||
		    parse_value(t2.s, 't', &v[i]))
			goto fail;
	}
	t = row_table(p, TAB_ALIGN, 4, key);
	if (t && t->nrows == 0)
		t->random = 0;
	row = add_row(p, t, key);
	if (row)
		memcpy(row->v, v, sizeof(v));
	return 1;
fail:
	p->c = save;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Several samples of one open-AU run pasted side by side: their median. */
static double median_of(double *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Cells after a size: rates, and in a sweep '-' for a run not done. */
static unsigned read_cells(struct parser *p, double *v, int sweep)
{
	struct tok t;
	unsigned n = 0;
	double x;

	while (peek(p, 1, &t)) {
		if (tok_rate(&t, &x))
			;
		else if (sweep && (!strcmp(t.s, "-") || !strcasecmp(t.s, "nan")))
			x = NAN;
		else
			break;
		next_tok(&p->c, &t);
		if (n < TABLE_MAXCOLS)
			v[n] = x;
		n++;
	}
	return n;
}

static int try_rates(struct parser *p, uint64_t key)
{
	struct table *cur = p->cur;
	int sweep = cur && cur->kind == TAB_SWEEP && !p->broken &&
		    (!cur->nrows || key < cur->rows[cur->nrows - 1].key);
	double v[TABLE_MAXCOLS];
	struct table_row *row;
	enum table_kind kind;
	unsigned n, i;

	n = read_cells(p, v, sweep);
	if (!n)
		return 0;
	if (n > TABLE_MAXCOLS)
		n = TABLE_MAXCOLS;
	if (sweep) {
		row = add_row(p, cur, key);
		for (i = 0; row && i < n && i < cur->ncols; i++)
			row->v[i] = v[i];
		return 1;
	}
	kind = n > 1 && p->cmd.mode != 'O' && !p->heading_nr ?
	       TAB_FAT : TAB_OPENAU;
	cur = row_table(p, kind, n, key);
	if (cur && !cur->nrows) {
		cur->ncols = kind == TAB_FAT ? n : 1;
		if (!cur->erasesize)
			cur->erasesize = key;
	}
	row = add_row(p, cur, key);
	if (!row)
		return 1;
	if (kind == TAB_FAT)
		memcpy(row->v, v, n * sizeof(v[0]));
	else
		row->v[0] = median_of(v, n);
	return 1;
}

/* "size linear=1 linear=2 ..." (or random=N, nr=N): a sweep header. */
static int try_sweep_header(struct parser *p)
{
	unsigned nr[TABLE_MAXCOLS], n = 0;
	int random = p->cmd.random;
	struct tok t;
	char *eq;

	while (peek(p, 1, &t) && !t.junk && (eq = strchr(t.s, '='))) {
		struct tok v = { .junk = 0 };
		uint64_t x;

		*eq = '\0';
		snprintf(v.s, sizeof(v.s), "%s", eq + 1);
		if (strcmp(t.s, "linear") && strcmp(t.s, "random") &&
		    strcmp(t.s, "nr") && strcmp(t.s, "N"))
			break;
		if (!tok_uint(&v, &x) || x >= 100000)
			break;
		if (n == 0 && strcmp(t.s, "nr") && strcmp(t.s, "N"))
			random = !strcmp(t.s, "random");
		if (n < TABLE_MAXCOLS)
			nr[n] = (unsigned)x;
		n++;
		next_tok(&p->c, &t);
	}
	if (!n)
		return 0;
	if (!new_table(p, TAB_SWEEP))
		return 1;
	p->cur->random = random;
	p->cur->ncols = n < TABLE_MAXCOLS ? n : TABLE_MAXCOLS;
	memcpy(p->cur->col_nr, nr, p->cur->ncols * sizeof(nr[0]));
	p->broken = 0;
	p->have_int = 0;
	return 1;
}

static void step(struct parser *p, struct tok *t)
{
	size_t n = strlen(t->s);
	uint64_t key;

	if (!t->junk && n >= 5 && !strcmp(t->s + n - 5, "align") &&
	    try_align(p))
		return;
	if (tok_size(t, &key) && try_rates(p, key))
		return;
	if (!strcmp(t->s, "size") && try_sweep_header(p))
		return;
	if (ignorable(t))
		return;
	other(p, t);
	p->have_int = tok_uint(t, &p->last_int);
}

/* Trailing sections that got no table are noise. */
static void drop_empty_sections(struct report *r)
{
	while (r->nsecs > 1 && !r->secs[r->nsecs - 1].ntabs)
		r->nsecs--;
}

int report_parse(const char *text, size_t len, struct report *r)
{
	struct parser p;
	struct tok t;

	memset(r, 0, sizeof(*r));
	if (!text)
		return -EINVAL;
	r->secs = calloc(REPORT_MAX_SECTIONS, sizeof(*r->secs));
	if (!r->secs)
		return -ENOMEM;
	memset(&p, 0, sizeof(p));
	p.r = r;
	p.c.p = text;
	p.c.end = text + len;
	p.disk_ago = p.pref_ago = -1;
	section(&p);
	while (next_tok(&p.c, &t))
		step(&p, &t);
	drop_empty_sections(r);
	return p.nomem ? -ENOMEM : (int)r->ntabs;
}

void report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->ntabs; i++)
		table_free(&r->tabs[i]);
	free(r->tabs);
	free(r->secs);
	memset(r, 0, sizeof(*r));
}
