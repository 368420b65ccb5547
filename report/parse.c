// SPDX-License-Identifier: GPL-2.0
/*
 * Report parser: finds flashbench tables and device facts in any text.
 *
 * Mail archives collapse lines, so the text (cleaned and cut into words
 * by report/clean.c) is read as a stream of words and tables are
 * recognised by the shape of their rows, not by line breaks:
 *
 *   align N pre T on T post T diff T	alignment test (-a)
 *   align pre on post diff		a gist table's header; then
 *   N T T T T				one align row per boundary
 *   SIZE RATE [RATE...]		open-AU (-O) or find-FAT (-f) row
 *   size linear=1 linear=2 ...		header of an open-AU sweep; then
 *   SIZE RATE|- RATE|- ...		one rate per column, '-' = not run
 *   places at X X ...			a survey's -a table's places; then
 *   places N pre T.. on T.. post T..	each row's reads there
 *
 * (the sweep header may name its columns "random=N" for --random runs,
 * or "nr=N").  A table ends at the first word that does not fit its
 * pattern (a prompt, prose, "^C"); a last row cut short is completed
 * where the rest follows from it (diff) and dropped otherwise.  What the
 * command line or heading before a table says about how it was measured
 * is report/cmdline.c's business.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/report.h"
#include "report/cmdline.h"
#include "report/sysfs_dump.h"
#include "report/clean.h"
#include "lib/sustain_rule.h"
#include "lib/units.h"

/* An align row's columns: pre, on, post and diff. */
#define ALIGN_COLS 4
/* A live -a row keeps these reads a place after them (vm.c)... */
#define PLACE_READS 3
/* ...for at most this many places */
#define MAX_PLACES ((TABLE_MAXCOLS - ALIGN_COLS) / PLACE_READS)

struct parser {
	struct report *r;
	struct cursor c;
	struct report_how how;
	int have_int;		/* the previous word was a bare integer */
	uint64_t last_int;
	struct table *cur;	/* table the next row may extend */
	int broken;		/* a foreign word since cur's last row */
	unsigned cur_cols;	/* values per row as printed */
	int bare_align;		/* rows under an "align pre on post diff" head */
	size_t rows;		/* over all tables */
	int disk_ago;		/* words since "Disk", -1 = none near */
	int pref_ago;		/* words since "preferred_erase_size" */
	int size_next;		/* previous word was "Size:" */
	struct id_scan ids;	/* identity dumps */
	unsigned places;	/* of cur, as its "places at" line gives */
	uint64_t place_at[MAX_PLACES];
	int nomem;
};

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
		how_new_card(&p->how);
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

/* A device name or the start of another card's identity dump. */
static void identity_word(struct parser *p, struct tok *t)
{
	size_t n = strlen(t->s);

	if (!strncmp(t->s, "/dev/", 5) && n > 5) {
		while (n && strchr(":,;", t->s[n - 1]))
			t->s[--n] = '\0';
		identity(p, t->s);
	} else if ((n >= 4 && !strcmp(t->s + n - 4, "/cid")) ||
		   !strcmp(t->s, "cid:") || !strcmp(t->s, "lsusb") ||
		   !strncmp(t->s, "Model=", 6)) {
		identity(p, NULL);
	}
}

/* Words that are not table rows: commands, headings, facts, identity. */
static void other(struct parser *p, struct tok *t)
{
	p->broken = 1;
	p->bare_align = 0;
	facts(p, t);
	if (t->junk)
		return;
	if (!how_word(&p->how, &p->c, t))
		identity_word(p, t);
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
	t->blocksize = p->how.cmd.blocksize;
	t->erasesize = p->how.cmd.erasesize;
	t->random = how_random(&p->how);
	t->has_offset = (kind == TAB_OPENAU || kind == TAB_SWEEP) &&
			p->how.cmd.has_offset;
	t->offset = t->has_offset ? p->how.cmd.offset : 0;
	if (kind == TAB_OPENAU)
		t->open_au_nr = how_nr(&p->how, p->have_int, p->last_int);
	s->ntabs++;
	p->cur = t;
	p->places = 0;
	how_table(&p->how);
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

/* A time with its unit; a bare number may be a value cut short. */
static int time_value(const struct tok *t, double *v, int *bare)
{
	size_t n = strlen(t->s);

	if (t->junk || !n || parse_value(t->s, 't', v))
		return 0;
	*bare = isdigit((unsigned char)t->s[n - 1]) || t->s[n - 1] == '.';
	return 1;
}

/*
 * An align row of got values (pre, on, post[, diff]).  A paste cut in
 * the diff leaves it to be worked out from the others; a row cut before
 * that cannot be completed.
 */
static int align_row(struct parser *p, uint64_t key, double *v, int got,
		     int last_bare)
{
	struct table_row *row;
	struct table *t;

	if (got < 3 || (got == 3 && last_bare))
		return 0;
	if (got == 3 || last_bare)
		v[3] = v[1] - (v[0] + v[2]) / 2;
	t = row_table(p, TAB_ALIGN, ALIGN_COLS, key);
	if (t && t->nrows == 0)
		t->random = 0;
	row = add_row(p, t, key);
	if (row)
		memcpy(row->v, v, ALIGN_COLS * sizeof(v[0]));
	return 1;
}

/* "align 4194304 pre 1.02ms on 1.23ms post 1.01ms diff 215µs" */
static int try_align(struct parser *p)
{
	static const char *const names[] = { "pre", "on", "post", "diff" };
	struct cursor save = p->c;
	struct tok t1, t2;
	double v[4];
	uint64_t key;
	int got, bare = 0;

	if (!next_tok(&p->c, &t1) || !tok_uint(&t1, &key) || !key)
		goto fail;
	for (got = 0; got < 4; got++) {
		if (!peek_tok(&p->c, 1, &t1) || strcmp(t1.s, names[got]) ||
		    !peek_tok(&p->c, 2, &t2) || !time_value(&t2, &v[got], &bare))
			break;
		next_tok(&p->c, &t1);
		next_tok(&p->c, &t2);
	}
	if (got < 4 && peek_tok(&p->c, 1, &t1) && !strcmp(t1.s, names[got]))
		next_tok(&p->c, &t1);
	if (align_row(p, key, v, got, bare))
		return 1;
fail:
	p->c = save;
	return 0;
}

/* "align pre on post diff": a gist table naming its columns. */
static int try_align_header(struct parser *p)
{
	static const char *const names[] = { "pre", "on", "post", "diff" };
	struct cursor save = p->c;
	struct tok t;
	int i;

	for (i = 0; i < 4; i++) {
		if (!next_tok(&p->c, &t) || strcasecmp(t.s, names[i])) {
			p->c = save;
			return 0;
		}
	}
	p->broken = 1;
	p->bare_align = 1;
	return 1;
}

/* "4194304 1.02ms 1.23ms 1.01ms 215µs" under such a header. */
static int try_bare_align(struct parser *p, uint64_t key)
{
	struct cursor save = p->c;
	struct tok t;
	double v[4];
	int got, bare = 0;

	for (got = 0; got < 4; got++) {
		if (!peek_tok(&p->c, 1, &t) || !time_value(&t, &v[got], &bare))
			break;
		next_tok(&p->c, &t);
	}
	if (key && align_row(p, key, v, got, bare))
		return 1;
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

/*
 * Cells after a size: rates, and in a sweep (of max columns) '-' for a
 * run not done.
 */
static unsigned read_cells(struct parser *p, double *v, int sweep,
			   unsigned max)
{
	struct tok t;
	unsigned n = 0;
	double x;

	while (n < max && peek_tok(&p->c, 1, &t)) {
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

/* A row with fewer cells than the rows above it: a paste cut short. */
static int cut_short(const struct parser *p, uint64_t key, unsigned n)
{
	const struct table *t = p->cur;

	return t && !p->broken && (t->kind == TAB_FAT ||
				   t->kind == TAB_OPENAU) &&
	       t->nrows && key < t->rows[t->nrows - 1].key && n < p->cur_cols;
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

	n = read_cells(p, v, sweep, sweep ? cur->ncols : UINT_MAX);
	if (!n)
		return 0;
	if (n > TABLE_MAXCOLS)
		n = TABLE_MAXCOLS;
	if (sweep) {
		/* cut short: cannot be completed */
		if (n < cur->ncols)
			return 1;
		row = add_row(p, cur, key);
		for (i = 0; row && i < n; i++)
			row->v[i] = v[i];
		return 1;
	}
	if (cut_short(p, key, n))
		return 1;
	kind = n > 1 && how_mode(&p->how) != 'O' ? TAB_FAT : TAB_OPENAU;
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

/* The most streams a ramp row may name: --open-au-nr's own limit. */
#define RAMP_MAX_STREAMS 65536

/* A ramp row's cells: "coarse T RATE fine T RATE" into v[0..3]. */
static int ramp_cells(struct parser *p, double *v)
{
	static const char *const parts[] = { "coarse", "fine" };
	struct tok t, u;
	unsigned q;
	int bare;

	for (q = 0; q < 2; q++)
		if (!next_tok(&p->c, &t) || strcmp(t.s, parts[q]) ||
		    !next_tok(&p->c, &t) ||
		    !time_value(&t, &v[2 * q], &bare) || bare ||
		    !next_tok(&p->c, &u) || !tok_rate(&u, &v[2 * q + 1]))
			return 0;
	return 1;
}

/*
 * "ramp 7 linear coarse 33.3ms 7.87M/s fine 33.4ms 7.85M/s held": a step
 * of -O --ramp.  Its table keeps the rows in the order run (a drop and
 * a re-add repeat a count), so any ramp row extends the ramp above.
 */
static int try_ramp(struct parser *p)
{
	struct cursor save = p->c;
	struct table_row *row;
	struct table *t = p->cur;
	struct tok w;
	double v[5];
	uint64_t key;

	if (!next_tok(&p->c, &w) || !tok_uint(&w, &key) || !key ||
	    key > RAMP_MAX_STREAMS || !next_tok(&p->c, &w) ||
	    (strcmp(w.s, "linear") && strcmp(w.s, "random")))
		goto fail;
	v[4] = !strcmp(w.s, "random");
	if (!ramp_cells(p, v))
		goto fail;
	if (peek_tok(&p->c, 1, &w) &&
	    (!strcmp(w.s, "held") || !strcmp(w.s, "collapsed") ||
	     !strcmp(w.s, "unclear") || !strcmp(w.s, "unjudged")))
		next_tok(&p->c, &w);
	if (!t || p->broken || t->kind != TAB_RAMP)
		t = new_table(p, TAB_RAMP);
	if (t && v[4] != 0)
		t->random = 1;
	row = add_row(p, t, key);
	if (row)
		memcpy(row->v, v, sizeof(v));
	return 1;
fail:
	p->c = save;
	return 0;
}

/* A --find-erase ratio: as printed, "%.2f", positive. */
static int ratio_value(const struct tok *t, double *v)
{
	char *end;

	*v = strtod(t->s, &end);
	return !t->junk && end != t->s && !*end && *v > 0 && isfinite(*v);
}

/* An erasew row's cells: "SIZE boundary T other T ratio R". */
static int erasew_cells(struct parser *p, uint64_t *key, double *v)
{
	static const char *const words[] = { "boundary", "other" };
	struct tok w;
	unsigned i;
	int bare;

	if (!next_tok(&p->c, &w) || !tok_size(&w, key) || !*key)
		return 0;
	for (i = 0; i < 2; i++)
		if (!next_tok(&p->c, &w) || strcmp(w.s, words[i]) ||
		    !next_tok(&p->c, &w) || !time_value(&w, &v[i], &bare) ||
		    bare)
			return 0;
	return next_tok(&p->c, &w) && !strcmp(w.s, "ratio") &&
	       next_tok(&p->c, &w) && ratio_value(&w, &v[2]);
}

/*
 * "erasew 4MiB boundary 306ms other 66.3ms ratio 4.61": a candidate of
 * --find-erase; consecutive rows make one table.
 */
static int try_erasew(struct parser *p)
{
	struct cursor save = p->c;
	struct table_row *row;
	struct table *t = p->cur;
	double v[3];
	uint64_t key;

	if (!erasew_cells(p, &key, v)) {
		p->c = save;
		return 0;
	}
	if (!t || p->broken || t->kind != TAB_EWRITE)
		t = new_table(p, TAB_EWRITE);
	if ((row = add_row(p, t, key)))
		memcpy(row->v, v, sizeof(v));
	return 1;
}

/* "size linear=1 linear=2 ..." (or random=N, nr=N): a sweep header. */
static int try_sweep_header(struct parser *p)
{
	unsigned nr[TABLE_MAXCOLS], n = 0;
	int random = how_random(&p->how);
	struct tok t;
	char *eq;

	while (peek_tok(&p->c, 1, &t) && !t.junk && (eq = strchr(t.s, '='))) {
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

/* "write 96MiB 8.44s 7.96M/s" (or "again ..."): a --sustained window. */
static int sustained_row(struct parser *p, int idle)
{
	struct cursor save = p->c;
	struct table_row *row;
	struct tok a, b, c;
	uint64_t key;
	double v[3];
	int bare;

	if (!next_tok(&p->c, &a) || !tok_size(&a, &key) ||
	    !next_tok(&p->c, &b) || !time_value(&b, &v[0], &bare) || bare ||
	    !next_tok(&p->c, &c) || !tok_rate(&c, &v[1])) {
		p->c = save;
		return 0;
	}
	v[2] = idle;
	row = add_row(p, p->cur, key);
	if (row)
		memcpy(row->v, v, sizeof(v));
	return 1;
}

/*
 * A --sustained table: its header "sustained write of ...", rows
 * "write"/"again", "after 1m idle:" and the last line "ended WORD"
 * (lib/sustain_rule.h).  Rows only extend a table begun by its header.
 */
static int try_sustained(struct parser *p, const struct tok *t)
{
	struct table *cur = p->cur;
	struct tok w;
	unsigned i;

	if (!strcmp(t->s, "sustained") && peek_tok(&p->c, 1, &w) &&
	    !strcmp(w.s, "write") && peek_tok(&p->c, 2, &w) &&
	    !strcmp(w.s, "of"))
		return new_table(p, TAB_SUSTAINED) != NULL;
	if (!cur || cur->kind != TAB_SUSTAINED)
		return 0;
	if (!strcmp(t->s, "write") || !strcmp(t->s, "again"))
		return sustained_row(p, !strcmp(t->s, "again"));
	if (!strcmp(t->s, "after") && peek_tok(&p->c, 1, &w) &&
	    !parse_duration(w.s, &cur->idle_ns)) {
		next_tok(&p->c, &w);
		return 1;
	}
	if (strcmp(t->s, "ended") || !peek_tok(&p->c, 1, &w))
		return 0;
	for (i = 0; i < SUS_NEND; i++)
		if (!strcmp(w.s, sus_end_word[i])) {
			cur->ended = i;
			next_tok(&p->c, &w);
			return 1;
		}
	return 0;
}

/*
 * "capacity: as claimed, ... (medium) -- ..." or "capacity: at most ...
 * (high) -- ...", to the end of its line: the --capacity verdict, kept
 * as printed (the last one of the section).
 */
static int try_capacity(struct parser *p)
{
	struct report_section *sec = section(p);
	char line[REPORT_CAP_LINE];
	const char *s = p->c.p, *e = s;
	struct tok a, b;

	if (!peek_tok(&p->c, 1, &a) || !peek_tok(&p->c, 2, &b) ||
	    !((!strcmp(a.s, "as") && !strcmp(b.s, "claimed,")) ||
	      (!strcmp(a.s, "at") && !strcmp(b.s, "most"))))
		return 0;
	/* no further than a line can be long: a hostile one is not read twice */
	while (e < p->c.end && e - s < REPORT_CAP_LINE && *e != '\n' &&
	       *e != '\r')
		e++;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (snprintf(line, sizeof(line), "capacity: %.*s", (int)(e - s), s) >=
	    (int)sizeof(line) || !strstr(line, ") -- "))
		return 0;
	memcpy(sec->capacity, line, sizeof(line));
	p->c.p = e;
	p->broken = 1;
	return 1;
}

/* "places at 0 1073741824 ...": where a live -a table's places start */
static int try_places_at(struct parser *p)
{
	struct cursor save = p->c;
	struct tok t;
	unsigned n = 0;

	if (!p->cur || p->cur->kind != TAB_ALIGN || !next_tok(&p->c, &t) ||
	    strcmp(t.s, "at"))
		goto fail;
	while (n < MAX_PLACES && peek_tok(&p->c, 1, &t) &&
	       tok_uint(&t, &p->place_at[n])) {
		next_tok(&p->c, &t);
		n++;
	}
	if (n < 2)
		goto fail;
	p->places = n;
	return 1;
fail:
	p->c = save;
	return 0;
}

/* np reads ("-": none) after the word name */
static int place_reads(struct parser *p, const char *name, double *v,
		       unsigned np)
{
	struct tok t;
	unsigned k;

	if (!next_tok(&p->c, &t) || strcmp(t.s, name))
		return 0;
	for (k = 0; k < np; k++) {
		if (!next_tok(&p->c, &t))
			return 0;
		if (!strcmp(t.s, "-"))
			v[k] = NAN;
		else if (t.junk || parse_value(t.s, 't', &v[k]))
			return 0;
	}
	return 1;
}

/*
 * "places 4194304 pre T.. on T.. post T..": the reads of one row of
 * cur at its places, kept as a live run keeps them.
 */
static int try_places_row(struct parser *p)
{
	struct cursor save = p->c;
	unsigned np = p->places, k;
	struct table *t = p->cur;
	double v[TABLE_MAXCOLS];
	struct tok tk;
	uint64_t key;
	size_t i;

	if (!np || !t || t->kind != TAB_ALIGN || !next_tok(&p->c, &tk) ||
	    !tok_uint(&tk, &key) || !place_reads(p, "pre", v, np) ||
	    !place_reads(p, "on", v + np, np) ||
	    !place_reads(p, "post", v + 2 * np, np))
		goto fail;
	for (i = 0; i < t->nrows && t->rows[i].key != key; i++)
		;
	if (i == t->nrows)
		goto fail;
	if (table_widen(t, ALIGN_COLS + PLACE_READS * np)) {
		p->nomem = 1;
		goto fail;
	}
	t->kept_from = ALIGN_COLS;
	t->nkept = PLACE_READS * np;
	for (k = 0; k < np; k++)
		t->kept_at[k] = p->place_at[k];
	memcpy(t->rows[i].v + ALIGN_COLS, v, t->nkept * sizeof(v[0]));
	return 1;
fail:
	p->c = save;
	return 0;
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
	if (!strcmp(t->s, "ramp") && try_ramp(p))
		return;
	if (!strcmp(t->s, "places") &&
	    (try_places_at(p) || try_places_row(p)))
		return;
	if (try_sustained(p, t))
		return;
	if (!strcmp(t->s, "erasew") && try_erasew(p))
		return;
	if (!strcmp(t->s, "capacity:") && try_capacity(p))
		return;
	if (!strcasecmp(t->s, "align") && try_align_header(p))
		return;
	if (p->bare_align && tok_uint(t, &key) && try_bare_align(p, key))
		return;
	if (tok_decoration(t))
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

/* Two tables of one card measured the same way: a run and its rerun. */
static int same_test(const struct table *a, const struct table *b)
{
	return a->kind == b->kind && a->random == b->random &&
	       a->open_au_nr == b->open_au_nr && a->ncols == b->ncols &&
	       !memcmp(a->col_nr, b->col_nr, sizeof(a->col_nr)) &&
	       a->blocksize == b->blocksize && a->erasesize == b->erasesize &&
	       a->nrows && b->nrows && a->rows[0].key == b->rows[0].key;
}

static void tag_repeats(struct report *r)
{
	size_t k, i, j;

	for (k = 0; k < r->nsecs; k++) {
		const struct report_section *s = &r->secs[k];

		for (i = s->first; i < s->first + s->ntabs; i++)
			for (j = s->first; j < i; j++)
				if (same_test(&r->tabs[j], &r->tabs[i]))
					r->tabs[i].repeat++;
	}
}

int report_parse(const char *text, size_t len, struct report *r)
{
	struct parser p;
	struct tok t;
	char *clean;

	memset(r, 0, sizeof(*r));
	if (!text)
		return -EINVAL;
	r->secs = calloc(REPORT_MAX_SECTIONS, sizeof(*r->secs));
	clean = text_clean(text, len, &len);
	if (!r->secs || !clean) {
		free(clean);
		return -ENOMEM;
	}
	memset(&p, 0, sizeof(p));
	p.r = r;
	p.c.p = clean;
	p.c.end = clean + len;
	how_init(&p.how);
	p.disk_ago = p.pref_ago = -1;
	section(&p);
	while (next_tok(&p.c, &t))
		step(&p, &t);
	free(clean);
	drop_empty_sections(r);
	tag_repeats(r);
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
