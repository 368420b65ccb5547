// SPDX-License-Identifier: GPL-2.0
/*
 * The erase-size finder from writes (--find-erase): where a card's -a
 * table is flat, its writes still tell its AUs.  A write that enters an
 * AU the card does not hold open makes it close another one (erase,
 * copy what that one lacks), where the next chunk of an AU already open
 * costs only its pages.  For each candidate size P (powers of two and
 * 3x2^n, lib/units.h spellings) it writes, at odd multiples X of P, the
 * chunk before X, the chunk at X (timed: "boundary") and the chunk
 * after it (timed: "other").  Odd multiples of P are AU boundaries of
 * every card whose AU divides P and of no card whose AU is larger: the
 * smallest P whose boundary writes are slow throughout is the AU.
 *
 * The card must have all its open AUs in use for the entry into a fresh
 * AU to cost anything, and no probe may find its AU still open from an
 * earlier probe: each candidate's probes get a stretch of their own,
 * apart from the next by more than any AU tried, and the probes run
 * twice, only the second pass judged.  By then the first pass has
 * filled the card's slots, and as both visit the same AUs in the same
 * order, a card that closes its least recently used AU finds each one
 * closed again when it comes back (fewer AUs per pass than the card
 * holds open: nothing slows, and the verdict is inconclusive).
 * Destructive; it times single writes, so it runs itself (drive).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "testdesc.h"
#include "lib/ramp_rule.h"
#include "lib/units.h"

/* The candidates: 256 KiB << i, and 768 KiB << i up to the largest. */
#define EW_MIN (256ull << 10)
#define EW_MAX (64ull << 20)
#define EW_MAXCAND 16
/*
 * Probes per candidate: six, so that their third fastest (low_rank())
 * is slow only where four of them are.
 */
#define EW_PROBES 6
/*
 * A chunk is an eighth of the candidate, and no more than this: above
 * every small-write buffer (up to AU/16, 256 KiB in the sim), which
 * takes a write into an AU not open without opening it.
 */
#define EW_CHUNK_DIV 8
#define EW_CHUNK_MAX (512ull << 10)
/* Judged: the second pass; the first fills the card's open AUs. */
#define EW_PASSES 2

struct ew_cand {
	uint64_t size, chunk;
	uint64_t first;		/* its first probe's boundary */
};

struct ew {
	struct vm *vm;
	struct ew_cand c[EW_MAXCAND];
	unsigned n;
	double bnd[EW_PROBES], oth[EW_PROBES];
};

static uint64_t chunk_of(uint64_t size)
{
	uint64_t c = size / EW_CHUNK_DIV;

	return c < EW_CHUNK_MAX ? c : EW_CHUNK_MAX;
}

/* Where a candidate's probes end: the last one's chunk after. */
static uint64_t cand_end(const struct ew_cand *c)
{
	return c->first + 2 * (EW_PROBES - 1) * c->size + 2 * c->chunk;
}

/* The candidate sizes, ascending; how many. */
static unsigned sizes(uint64_t *s)
{
	uint64_t p = EW_MIN, t = 3 * EW_MIN;
	unsigned n = 0;

	while (p <= EW_MAX) {
		s[n++] = p;
		if (t <= EW_MAX && t < 2 * p)
			s[n++] = t, t *= 2;
		p *= 2;
	}
	return n;
}

/*
 * Lay the candidates out from the write offset, each at the first odd
 * multiple of its size past the one before and EW_MAX more: no AU tried
 * spans two candidates' probes.  Those that do not fit are left out.
 */
static unsigned plan(const struct opts *o, const struct dev *d,
		     struct ew_cand *c)
{
	uint64_t s[EW_MAXCAND], at = write_offset(o), k;
	unsigned n = sizes(s), i, m = 0;

	for (i = 0; i < n; i++) {
		c[m].size = s[i];
		c[m].chunk = chunk_of(s[i]);
		k = (at + c[m].chunk) / s[i] + 1;
		k += !(k & 1);
		c[m].first = k * s[i];
		if (cand_end(&c[m]) > d->size)
			break;
		at = cand_end(&c[m]) + EW_MAX;
		m++;
	}
	return m;
}

/* Two candidates, so that the smallest can be told from one below. */
#define EW_MIN_CANDS 2

static int ew_validate(const struct opts *o, const struct dev *d,
		       char *err, size_t errlen)
{
	struct ew_cand c[EW_MAXCAND];

	if (check_offset(o, d, err, errlen))
		return -EINVAL;
	if (plan(o, d, c) >= EW_MIN_CANDS)
		return 0;
	return does_not_fit(err, errlen, d, "--find-erase needs room for its probes "
			    "of 256KiB and 512KiB and 64MiB between them", "offset", o->offset_arg, NULL);
}

/* One probe: the chunk before X, then X's and the next, timed. */
static int probe(struct ew *e, const struct ew_cand *c, uint64_t x,
		 unsigned i)
{
	uint64_t ns[3];
	unsigned w;
	int ret;

	for (w = 0; w < 3; w++)
		if ((ret = drive_write(e->vm, x - c->chunk + w * c->chunk,
				       c->chunk, &ns[w])))
			return ret;
	e->bnd[i] = (double)ns[1];
	e->oth[i] = (double)ns[2];
	return 0;
}

static int print_row(struct ew *e, const struct ew_cand *c, const double *v)
{
	char key[UNIT_BUFLEN], b[UNIT_BUFLEN], t[UNIT_BUFLEN];
	FILE *f = e->vm->out;

	if (!f)
		return 0;
	if (e->vm->tick)
		e->vm->tick(e->vm->hook_arg, TICK_ROW);
	put_field(f, "erasew", 0);
	put_field(f, fmt_size(key, (double)c->size), ROW_KEY_WIDTH);
	put_field(f, "boundary", 0);
	put_field(f, fmt_time(b, v[0]), ROW_KEY_WIDTH);
	put_field(f, "other", 0);
	put_field(f, fmt_time(t, v[1]), ROW_KEY_WIDTH);
	fprintf(f, "ratio %.2f\n", v[2]);
	return fflush(f) == EOF || ferror(f) ? -EIO : 0;
}

/*
 * The time a candidate's writes take: the third fastest of its six
 * probes.  A size whose odd multiples are AU boundaries only every third
 * time (4MiB for an AU of 12MiB) has two slow probes, and its third
 * fastest stays fast even when a pause of the card slows one more (the
 * fourth, as the upper median, gave wrong medium verdicts on such cards
 * in bench/erasew_accuracy.py).  Pauses only ever add time; the second
 * fastest missed more true AUs, whose closes are slow only in some
 * probes: 15 right medium/high verdicts in 56 against 22.
 */
#define EW_RANK 2

static double low_rank(double *v)
{
	ramp_median(v, EW_PROBES);	/* sorts v */
	return v[EW_RANK];
}

/* A judged candidate's row: its times, and their ratio as printed. */
static int row_of(struct ew *e, const struct ew_cand *c)
{
	struct table_row *row;
	double v[3];

	v[0] = low_rank(e->bnd);
	v[1] = low_rank(e->oth);
	/* the ratio as the row prints it: a pasted table reads the same */
	v[2] = round(v[0] / v[1] * 100) / 100;
	if (e->vm->tab) {
		row = table_add_row(e->vm->tab, c->size);
		if (!row)
			return -ENOMEM;
		row->v[0] = v[0], row->v[1] = v[1], row->v[2] = v[2];
	}
	return drive_row_end(e->vm, print_row(e, c, v));
}

static int pass(struct ew *e, int judged)
{
	const struct ew_cand *c;
	unsigned i, k;
	int ret;

	for (i = 0; i < e->n; i++) {
		c = &e->c[i];
		for (k = 0; k < EW_PROBES; k++)
			if ((ret = probe(e, c, c->first + 2 * k * c->size, k)))
				return ret;
		if (judged && (ret = row_of(e, c)))
			return ret;
	}
	return 0;
}

static int ew_drive(struct vm *vm, const struct opts *o)
{
	struct ew e = { .vm = vm };
	unsigned p;
	int ret = 0;

	e.n = plan(o, vm->dev, e.c);
	if (vm->tab)
		vm->tab->ncols = 3;
	/* the dry run walks both passes too: the plan counts every write */
	for (p = 0; p < EW_PASSES && !ret; p++)
		ret = pass(&e, p == EW_PASSES - 1);
	return ret;
}

static void ew_header(FILE *f, const struct opts *o)
{
	char a[UNIT_BUFLEN];

	fprintf(f, "find-erase from %s: writes entering odd multiples of "
		"each size against the writes after them\n",
		fmt_size(a, (double)write_offset(o)));
}

const struct testdesc testdesc_find_erase = {
	.name = "find-erase",
	.kind = TAB_EWRITE,
	.writes = 1,
	.validate = ew_validate,
	.header = ew_header,
	.drive = ew_drive,
	.count = 1,
};
