// SPDX-License-Identifier: GPL-2.0
/*
 * What the steps so far tell about the next ones: the write rates and
 * row counts the estimates rest on, and the verdicts with the rows of a
 * run in progress.
 */
#include <math.h>
#include <string.h>

#include "survey/internal.h"

/* Before any write is measured: a guess, replaced as soon as one is. */
#define GUESS_RATE 10e6
/*
 * A write of the ramp's step past the limit copies part of an AU closed
 * early: it took 4 (su04g) to 13 (sd08g, fine writes) times as long as
 * at the steps that held on the profiles; the least, as a forecast.
 */
#define RAMP_COLLAPSE_SLOW 4.0
/*
 * The ramp's writes take longer than the reference run's at the same
 * size (the card juggles several AUs): over 36 random sim cards its
 * time, forecast from the N=1 rates with the true count, was 0.90 of
 * the actual at the median (p10 0.56, p90 1.39).
 */
#define RAMP_RATE 0.9

/* The best rate any write run so far reached at this size; 0: none. */
static double healthy(const struct survey *s, uint64_t key)
{
	double best = 0;
	size_t i, r;
	unsigned c;

	for (i = 0; i < s->n; i++) {
		const struct table *t = &s->tab[i];

		if (t->kind != TAB_OPENAU && t->kind != TAB_FAT)
			continue;
		for (r = 0; r < t->nrows; r++)
			for (c = 0; c < t->ncols; c++)
				if (t->rows[r].key == key &&
				    t->rows[r].v[c] > best)
					best = t->rows[r].v[c];
	}
	return best;
}

/* Rows of a size series from es halving down to bs. */
unsigned survey_series_rows(uint64_t es, uint64_t bs, unsigned sector)
{
	unsigned n = 0;

	for (; es && es >= bs && es % sector == 0; es /= 2)
		n++;
	return n;
}

unsigned survey_full_rows(const struct survey *s)
{
	return survey_series_rows(s->au, s->full_bs, s->d->sector);
}

/* The verdicts with the rows of the run in progress. */
void survey_analyze_with(struct survey *s, const struct table *t,
			 struct analysis *a)
{
	s->tab[s->n] = *t;	/* a look, not a copy: not freed from there */
	analyze(s->tab, s->n + 1, &s->ctx, a);
	memset(&s->tab[s->n], 0, sizeof(s->tab[s->n]));
}

/*
 * Bytes per second writing chunks of len: as measured, else the best
 * rate measured, a write smaller than a page costing a whole page.
 */
static double write_rate(const struct survey *s, uint64_t len)
{
	uint64_t page = s->page ? s->page : 16384;
	double best = 0;
	size_t i;

	if (healthy(s, len) > 0)
		return healthy(s, len);
	for (i = 0; i < s->n; i++)
		if (s->tab[i].erasesize && healthy(s, s->tab[i].erasesize) > best)
			best = healthy(s, s->tab[i].erasesize);
	if (!(best > 0))
		best = GUESS_RATE;
	return len < page ? best * (double)len / (double)page : best;
}

/*
 * Time of a run writing bytes in chunks of a page or more (--find-erase,
 * before any erase size): at the best rate measured, else the guess.
 */
double survey_est_bytes(const struct survey *s, double bytes)
{
	return bytes * 1e9 / write_rate(s, s->page ? s->page : 16384);
}

/*
 * A collapsing run slows where the analysis sees it: the row that ends
 * it took about 3 times its healthy time, the one before it about 1.7,
 * the rows above them little more (the copies a write pays grow as the
 * writes shrink).  Over 120 collapsed runs of 40 random sim cards and
 * the profiles (2 to 8 rows), the whole run took 1.76 times its rows'
 * healthy time at the median; the former model, each row from the
 * second on 0.75 * 2^row times, forecast a run of five rows at 4.7.
 */
#define COLLAPSE_LAST_SLOW 3.0
/* the extra time shrinks by this factor a row up from the last */
#define COLLAPSE_SLOW_DECAY 3.0

/* Time of a row of writes of len, aus AUs, at the healthy rate. */
static double row_ns(const struct survey *s, uint64_t len, unsigned aus)
{
	return (double)aus * (double)s->au * 1e9 / write_rate(s, len);
}

/*
 * Time of a write run: rows from the AU down, aus AUs each.  In a
 * collapsing run (it stops after rows) its last rows also copy parts
 * of AUs closed early.
 */
double survey_est_write(const struct survey *s, uint64_t bs, unsigned aus,
			unsigned rows, int collapse)
{
	uint64_t len = s->au;
	double ns = 0, slow;
	unsigned i, n;

	for (n = 0; n < rows && len >= bs && len; n++)
		len /= 2;
	len = s->au;
	for (i = 0; i < n; i++, len /= 2) {
		slow = collapse ? 1 + (COLLAPSE_LAST_SLOW - 1) /
		       pow(COLLAPSE_SLOW_DECAY, n - 1 - i) : 1;
		ns += row_ns(s, len, aus) * slow;
	}
	return ns;
}

/*
 * Row i of a write run, aus AUs; collapse: the row that ends a collapse,
 * the slowest, for a budget that must not be overrun.
 */
double survey_est_row(const struct survey *s, uint64_t bs, unsigned aus,
		      unsigned i, int collapse)
{
	uint64_t len = i < 64 ? s->au >> i : 0;

	if (!len || len < bs)
		return 0;
	return row_ns(s, len, aus) * (collapse ? COLLAPSE_LAST_SLOW : 1);
}

/*
 * One part of a ramp step of n streams (shuffled: in random order), at
 * the healthy rate, and its chunk: a warm-up round and ramp_rounds()
 * judged rounds, where the rounds that open fresh AUs (one in
 * AU / chunk; shuffled, two) judge none.
 */
static uint64_t ramp_part_cost(const struct survey *s, int random,
			       int shuffled, unsigned n, enum ramp_part q,
			       struct cost *c)
{
	struct opts o = { .erasesize = s->au, .blocksize = s->full_bs,
			  .random = random };
	uint64_t chunk = ramp_chunk(&o, q);
	double rounds, judged = ramp_rounds(n, shuffled);

	rounds = 1 + judged / (1 - (double)chunk * (1 + shuffled) /
			       (double)s->au);
	c->bytes = rounds * n * (double)chunk;
	c->ns = c->bytes * 1e9 / (write_rate(s, chunk) * RAMP_RATE);
	return chunk;
}

/*
 * One ramp step of n streams; collapse: past the limit.  Once a random
 * ramp's steps are under way, a step ahead takes the last one's time
 * per stream: that step measured the card's random writes into many
 * AUs at once, the N=1 rates into one.
 */
static void ramp_step_cost(const struct survey *s, int random, int shuffled,
			   unsigned n, int collapse, struct cost *c)
{
	double slow = collapse ? RAMP_COLLAPSE_SLOW : 1, ns = 0;
	unsigned now = shuffled ? s->cut.ramp_streams : 0;
	struct cost part;
	enum ramp_part q;

	for (q = 0; q < RAMP_NPARTS; q++) {
		ramp_part_cost(s, random, shuffled, n, q, &part);
		c->bytes += part.bytes;
		ns += part.ns;
	}
	if (now)
		ns = s->cut.step_ns / now * n;
	c->ns += ns * slow;
}

/*
 * How much longer a ramp step of n streams may take past the limit than
 * within it, at worst: each write of a part then copies up to a whole
 * AU, 1 + AU / chunk times its own time, the fine part's the most (a
 * 2MiB-AU card, 512KiB and 128KiB chunks: 7.5 times the step before,
 * where the coarse part's factor alone said 5).
 */
double survey_ramp_collapse_slow(const struct survey *s, int random,
				 int shuffled, unsigned n)
{
	struct cost part;
	double ns = 0, slow = 0;
	uint64_t chunk;
	enum ramp_part q;

	for (q = 0; q < RAMP_NPARTS; q++) {
		chunk = ramp_part_cost(s, random, shuffled, n, q, &part);
		ns += part.ns;
		slow += part.ns * (1 + (double)s->au / (double)chunk);
	}
	return ns > 0 ? slow / ns : 1;
}

/*
 * Its steps up to one stream past the limit, where the survey ends it,
 * or up to its cap; in random order after one linear stream.  Of a
 * random ramp under way, the steps still ahead.
 */
void survey_est_ramp(const struct survey *s, int random, unsigned limit,
		     unsigned cap, struct cost *c)
{
	unsigned n = random ? s->cut.ramp_streams : 0;

	if (random && !n)
		ramp_step_cost(s, 1, 0, 1, 0, c);
	for (n++; n <= limit + 1 && n <= cap; n++)
		ramp_step_cost(s, random, random, n, n > limit, c);
}

unsigned survey_fat_rows(const struct survey *s)
{
	return survey_series_rows(s->au, s->fat_bs, s->d->sector);
}

/*
 * The IOPS step's 4 KiB writes land mid-AU, each in an AU another write
 * left: one may pay the copy of what precedes it in its own AU as well
 * as the close of the AU it displaces, where a capacity probe paid
 * about one copy.  Over 40 random sim cards and the profiles whose
 * probes copied (over 10ms a probe: 17 of them), an IOPS write took
 * 0.3 to 2.8 times a probe, 1.6 at the median (a probe's time counts
 * the first few, into AUs still free, that copy nothing).  Of the same
 * cards' 14 IOPS steps, this forecast kept 11 within 1.5x, the probes'
 * device time per probe alone (their reads in it) 4.
 */
#define IOPS_PER_PROBE 1.5

/* Time per read, from the alignment tables so far (pre column). */
double survey_read_ns(const struct survey *s)
{
	size_t i;

	for (i = s->n; i-- > 0;)
		if (s->tab[i].kind == TAB_ALIGN && s->tab[i].nrows)
			return s->tab[i].rows[s->tab[i].nrows - 1].v[0];
	return 1e6;
}

/* Time per write of the capacity check, as measured; 0: not run. */
static double probe_write_ns(const struct survey *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct io_stats *io = &s->step[i].io;

		if (s->tab[i].kind == TAB_CAPACITY && io->writes && io->ns)
			return ((double)io->ns - (double)io->reads *
				survey_read_ns(s)) / (double)io->writes;
	}
	return 0;
}

/*
 * A capacity probe, before any write is measured: many cards keep the
 * AU it leaves open (2 to 5ms a probe on the sim), others copy an AU
 * for it (45 to 430ms; 130ms at the median over 40 random sim cards
 * and the profiles).  The low end of a copy: a check of some fifty
 * probes forecast at 5s where it takes 0.2s costs the plan little, and
 * on the cards that copy it is the step's bulk.
 */
#define PROBE_COPY_NS 100e6

/* Writes of p->len, scattered: a page each, or (worst) an AU copy. */
static double scattered_ns(const struct survey *s, const struct cap_plan *p,
			   int worst)
{
	uint64_t len = worst && s->au ? s->au : p->len;

	if (!len)
		return 0;
	return (double)p->writes * (double)len * 1e9 / write_rate(s, len);
}

/*
 * The capacity check's probes are scattered over the whole card, each
 * in an AU of its own: a write costs a page on a card that keeps the AU
 * it leaves open, a copy of the AU it closes at worst (as the evo32
 * profile does: 0.43s a probe; without an erase size, a page again),
 * PROBE_COPY_NS on a typical card.
 */
double survey_est_probes(const struct survey *s, const struct cap_plan *p,
			 int worst)
{
	double ns = scattered_ns(s, p, worst);
	double copy = p->len ? PROBE_COPY_NS * (double)p->writes : 0;

	return ns > copy ? ns : copy;
}

double survey_est_iops(const struct survey *s, const struct cap_plan *p,
		       int worst)
{
	double ns = scattered_ns(s, p, worst);
	double probe = probe_write_ns(s) * IOPS_PER_PROBE * (double)p->writes;

	return probe > ns ? probe : ns;
}
