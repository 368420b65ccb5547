// SPDX-License-Identifier: GPL-2.0
/*
 * The open-AU ramp (-O --ramp): streams each write an AU of their own,
 * all at the same offset within their AUs, and one stream more joins
 * every step while the median time per write is watched for the
 * signature of a card closing AUs (lib/ramp_rule.h).  A collapse at
 * N + 1 streams is confirmed by dropping the newest stream (the times
 * must recover) and adding it back (they must collapse again).  Each step
 * writes a coarse part, chunks of AU/4 where that is 256 to 512 KiB,
 * else 512 KiB or AU/2 where that is less, as a card whose small writes
 * take no open slot must be given, and a fine part, AU/16 but at most
 * half the coarse chunk, in which a card that copies little of an AU
 * closed early still shows the copy.  Streams fill their AUs together
 * and move to fresh ones together, to the AU next to the one they
 * filled and back: stream s writes AUs s * AU_SPACING and the one
 * after, as -O spaces its AUs, so that streams share no AU of a card
 * whose AUs are larger than --erasesize (adjacent ones would, and look
 * like a collapse at one stream).  With --random the streams fill one
 * AU each, over and over: at each move to the other AU a stream needed
 * a random slot for it too, and from half the card's random slots on
 * the card merged the full AU each stream left there, a cost no judged
 * write shows (on a card keeping 24 for random writes, the steps with
 * a move took over 8 times the least time per stream of a step, and
 * the ramp to 23 with the probe at 24 four times the minimal proof).  They
 * fill it backwards, from short of the end down to the start, then that
 * tail (spin_of()) from the end down: every write but one goes back
 * from the one before, and needs a slot that takes writes in any order,
 * where in a pseudo-random order about half go forward, take none, and
 * hide a collapse.  Last chunk first left the AU whole to a card that
 * closes full AUs (the sim does): the next write started it over and
 * the random slot went to the third, judged, so that a stream cycling
 * two AUs through one slot paid for it at judged writes and the ramp
 * read 2 slots as 1.  One stream past the random slots costs a copy per
 * round, not per write, so a random step is judged by its rounds' mean
 * times (lib/ramp_rule.h).
 * Destructive; it decides as it goes, so it runs itself (drive).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testdesc.h"
#include "lib/ramp_rule.h"
#include "lib/units.h"

/* The cap without --open-au-nr: the most any card we know keeps open. */
#define RAMP_CAP 64
/*
 * The largest coarse chunk (ramp_chunk() takes less on small AUs):
 * above every small-write buffer seen (128 KiB on cards, up to 256 KiB
 * in the sim), and no larger, as the copy a collapse adds to each write
 * stands out the less the more it writes, and the card's pauses hit it
 * the more.
 */
#define RAMP_COARSE_MAX (512 * 1024ull)
/* Coarse chunks below this would fit a card's small-write buffer. */
#define RAMP_COARSE_MIN (256 * 1024ull)
/*
 * Coarse chunks per AU, where that leaves them RAMP_COARSE_MIN at
 * least: a stream's write at the start of an AU opens it and is not
 * judged, so with two to an AU (512 KiB on 1 MiB) every other round
 * judged nothing and the ramp wrote three times the proof of a 1 MiB
 * card keeping 10; with four, three rounds in four are judged.
 */
#define RAMP_COARSE_PER_AU 4
/* A row's values: each part's median time and rate, then the order. */
#define RAMP_COLS (RAMP_ORDER + 1)
/*
 * The fine chunk: this share of an AU, but at least two pages, and at
 * most half the coarse chunk: from 8 MiB AUs on, AU/16 is as large as
 * the coarse chunk or larger, shows a copy less than it (the same copy
 * in a longer write), and only doubled what each step wrote.
 */
#define RAMP_FINE_DIV 16
#define RAMP_FINE_PAGES 2
/*
 * Chunks per AU of a random ramp, at least: a stream's first write into
 * a fresh AU opens it and its second takes a random slot (closing the
 * AU another stream left behind), so neither is judged, and the rest
 * must be enough to judge.
 */
#define RAMP_RANDOM_CHUNKS 4

struct ramp {
	struct vm *vm;
	const struct opts *o;
	uint64_t base, au, chunk[RAMP_NPARTS];
	uint64_t spin;			/* backwards: the tail left for last */
	int shuffled;			/* this step writes backwards */
	int first_random;		/* the next step is the first such */
	uint64_t pos;			/* offset within every stream's AU */
	unsigned cap, bank;		/* in order: which of its two AUs */
	double *lat;			/* this part's judged times */
	double *round_mean;		/* and of a random step, per round */
	size_t nrounds;
	struct ramp_best best;
};

/* AUs from the first stream's to the last one's second, for a cap. */
static uint64_t ramp_aus(unsigned cap)
{
	return ((uint64_t)cap - 1) * AU_SPACING + 2;
}

/* The most streams d holds from the write offset; 0 if none. */
static unsigned fits(const struct opts *o, const struct dev *d)
{
	uint64_t off = write_offset(o), aus;

	if (off >= d->size || o->erasesize == 0)
		return 0;
	aus = (d->size - off) / o->erasesize;
	if (aus < ramp_aus(1))
		return 0;
	aus = (aus - 2) / AU_SPACING + 1;
	return aus > RAMP_CAP ? RAMP_CAP : (unsigned)aus;
}

static unsigned ramp_cap(const struct opts *o, const struct dev *d)
{
	return o->nr_arg ? o->nr_hi : fits(o, d);
}

/* Chunks per AU a ramp needs at least. */
static unsigned least_chunks(const struct opts *o)
{
	return o->random ? RAMP_RANDOM_CHUNKS : 2;
}

uint64_t ramp_chunk(const struct opts *o, enum ramp_part q)
{
	uint64_t c = o->erasesize / RAMP_COARSE_PER_AU, fine;
	uint64_t most = o->erasesize / least_chunks(o);

	if (c < RAMP_COARSE_MIN || c > RAMP_COARSE_MAX)
		c = RAMP_COARSE_MAX;
	if (c > most)
		c = most;
	if (q == RAMP_COARSE)
		return c;
	fine = o->erasesize / RAMP_FINE_DIV;
	if (fine > c / 2)
		fine = c / 2;
	return fine > RAMP_FINE_PAGES * o->blocksize ? fine :
	       RAMP_FINE_PAGES * o->blocksize;
}

static int ramp_validate(const struct opts *o, const struct dev *d,
			 char *err, size_t errlen)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	char need[4 * UNIT_BUFLEN];
	unsigned cap = ramp_cap(o, d);

	if (ramp_chunk(o, RAMP_COARSE) < RAMP_COARSE_MIN) {
		snprintf(err, errlen, "--erasesize=%s: the %sramp needs AUs of "
			 "at least %s, for %u coarse writes of 256KiB",
			 shown(o->erasesize_arg, o->erasesize, a, sizeof(a)),
			 o->random ? "random " : "",
			 fmt_size(b, (double)(least_chunks(o) *
					      RAMP_COARSE_MIN)),
			 least_chunks(o));
		return -EINVAL;
	}
	/* the coarse chunk is small enough; the fine one is two blocks at
	 * least */
	if (least_chunks(o) * ramp_chunk(o, RAMP_FINE) > o->erasesize) {
		snprintf(err, errlen, "--blocksize=%s: the ramp's fine writes "
			 "are two blocks, %s, more than 1/%u of the %s AU",
			 shown(o->blocksize_arg, o->blocksize, a, sizeof(a)),
			 fmt_size(b, (double)ramp_chunk(o, RAMP_FINE)),
			 least_chunks(o), fmt_size(c, (double)o->erasesize));
		return -EINVAL;
	}
	if (check_offset(o, d, err, errlen))
		return -EINVAL;
	if (cap >= 1 && cap <= fits(o, d))
		return 0;
	snprintf(need, sizeof(need), "a ramp to %u streams needs %llu AUs "
		 "of %s", cap ? cap : 1,
		 (unsigned long long)ramp_aus(cap ? cap : 1),
		 fmt_size(a, (double)o->erasesize));
	return does_not_fit(err, errlen, d, need, "open-au-nr", o->nr_arg,
			    "erasesize", o->erasesize_arg, "offset",
			    o->offset_arg, NULL);
}

/*
 * Where stream s writes next: in order, at pos; backwards, mirrored and
 * turned by spin, so that the first write into an AU stops short of its
 * end and the last spin bytes of it come last.
 */
static uint64_t stream_at(const struct ramp *r, unsigned s,
			  enum ramp_part q)
{
	uint64_t au = r->base +
		      ((uint64_t)s * AU_SPACING + r->bank) * r->au;

	if (r->shuffled)
		return au + (2 * r->au - r->spin - r->pos - r->chunk[q]) %
			    r->au;
	return au + r->pos;
}

/*
 * The tail a backwards fill leaves for last: the least multiple of both
 * chunks, so that no write straddles its start; 0 (last chunk first)
 * where that is the whole AU.
 */
static uint64_t spin_of(const struct ramp *r)
{
	uint64_t c = r->chunk[RAMP_COARSE], t = c;

	while (t % r->chunk[RAMP_FINE])
		t += c;
	return t < r->au ? t : 0;
}

/*
 * The next chunk position; in order, full AUs are left for the other
 * bank's, backwards the streams write theirs over.
 */
static void advance(struct ramp *r, uint64_t chunk)
{
	r->pos += chunk;
	if (r->pos + chunk <= r->au)
		return;
	r->pos = 0;
	if (!r->shuffled)
		r->bank ^= 1;
}

/*
 * One round: each of n streams writes a chunk at the same position,
 * the newest first: one stream too many then makes every write of the
 * round close an AU, where oldest first the others would still find
 * theirs open until the newest had written.  Writes opening fresh AUs
 * (position 0; backwards, the next one too, which takes a random slot)
 * and a part's warm-up round are not judged: they pay for closing the
 * AUs left behind.  Judged times go to r->lat from *nlat, a random
 * round's mean to r->round_mean.
 */
static int round_of(struct ramp *r, unsigned n, enum ramp_part q, int warm,
		    size_t *nlat)
{
	int judged = !warm && r->pos != 0 &&
		     !(r->shuffled && r->pos == r->chunk[q]);
	double sum = 0;
	uint64_t ns = 0;
	unsigned s;
	int ret;

	for (s = n; s-- > 0;) {
		ret = drive_write(r->vm, stream_at(r, s, q), r->chunk[q], &ns);
		if (ret)
			return ret;
		if (judged)
			r->lat[(*nlat)++] = (double)ns;
		sum += (double)ns;
	}
	if (judged && r->shuffled)
		r->round_mean[r->nrounds++] = sum / n;
	advance(r, r->chunk[q]);
	return 0;
}

/* How many of v[0..n) are above limit. */
static size_t above(const double *v, size_t n, double limit)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += v[i] > limit;
	return k;
}

/*
 * A part of n streams whose values so far put more than half of all it
 * will judge past RAMP_COLLAPSE times its best has collapsed whatever
 * the rest show (their median is past it too): the rest would only make
 * the card copy more AUs.  Not so the first random step, judged against
 * the linear one by another rule.
 */
static int settled(const struct ramp *r, unsigned n, enum ramp_part q,
		   size_t nlat)
{
	double limit = RAMP_COLLAPSE * r->best.ns[q];
	size_t rounds = ramp_rounds(n, r->shuffled);

	if (r->first_random || !(r->best.ns[q] > 0))
		return 0;
	if (r->shuffled)
		return 2 * above(r->round_mean, r->nrounds, limit) > rounds;
	return 2 * above(r->lat, nlat, limit) > rounds * n;
}

/*
 * In order, the AUs' tail that a coarse chunk no longer fits: the part
 * after this one would leave it unwritten.
 */
static int tail_left(const struct ramp *r)
{
	uint64_t c = r->chunk[RAMP_COARSE];

	return !r->shuffled && r->pos && round_up(r->pos, c) + c > r->au;
}

/*
 * One part of a step: a warm-up round, then ramp_rounds() judged
 * rounds, or fewer once it has clearly collapsed.  The
 * warm-up opens the AUs that the part before left to a card's
 * small-write buffer (its chunks may fit one, and then take no slot) or
 * that a collapse closed, so that no judged write pays for opening an
 * AU.  In order, a part that held goes on to the end of the AUs where
 * no coarse chunk fits after it: the coarse part would move on to fresh
 * AUs and leave these partly written, which a card copies or folds when
 * it closes them (on 1 MiB AUs, a third of the ramp's time).
 */
static int part_of(struct ramp *r, unsigned n, enum ramp_part q,
		   double *med)
{
	size_t nlat = 0;
	int ret;

	/* a part starts on its own chunk: both parts share the AUs */
	r->pos = round_up(r->pos, r->chunk[q]);
	if (r->pos + r->chunk[q] > r->au)
		advance(r, r->chunk[q]);
	r->nrounds = 0;
	if ((ret = round_of(r, n, q, 1, &nlat)))
		return ret;
	while (nlat < ramp_rounds(n, r->shuffled) * n &&
	       !settled(r, n, q, nlat))
		if ((ret = round_of(r, n, q, 0, &nlat)))
			return ret;
	while (tail_left(r) && !settled(r, n, q, nlat))
		if ((ret = round_of(r, n, q, 0, &nlat)))
			return ret;
	*med = r->shuffled ? ramp_median(r->round_mean, r->nrounds) :
	       ramp_median(r->lat, nlat);
	return 0;
}

/* By enum ramp_judged, from RAMP_UNJUDGED. */
static const char *const judged_word[] = { "unjudged", "held", "collapsed",
					   "unclear" };

static int print_row(struct ramp *r, unsigned n, const double *v,
		     int judged)
{
	char key[16], t[UNIT_BUFLEN], rate[UNIT_BUFLEN];
	FILE *f = r->vm->out;
	enum ramp_part q;

	if (!f)
		return 0;
	if (r->vm->tick)
		r->vm->tick(r->vm->hook_arg, TICK_ROW);
	put_field(f, "ramp", 0);
	snprintf(key, sizeof(key), "%u", n);
	put_field(f, key, 4);
	put_field(f, r->shuffled ? "random" : "linear", 0);
	for (q = 0; q < RAMP_NPARTS; q++) {
		put_field(f, q == RAMP_COARSE ? "coarse" : "fine", 0);
		put_field(f, fmt_time(t, v[2 * q]), ROW_KEY_WIDTH);
		put_field(f, fmt_rate(rate, v[2 * q + 1]), ROW_COL_WIDTH);
	}
	fprintf(f, "%s\n", judged_word[judged - RAMP_UNJUDGED]);
	return fflush(f) == EOF || ferror(f) ? -EIO : 0;
}

/*
 * One step of n streams: its row, then how it went (enum ramp_judged;
 * a step that could not be judged counts as unclear), or -errno.
 */
static int step(struct ramp *r, unsigned n)
{
	double med[RAMP_NPARTS], *v;
	struct table_row *row;
	enum ramp_part q;
	enum ramp_judged judged;
	int ret;

	for (q = 0; q < RAMP_NPARTS; q++)
		if ((ret = part_of(r, n, q, &med[q])))
			return ret;
	judged = r->first_random ? ramp_judge_random_first(&r->best, med) :
		 ramp_judge(&r->best, med);
	r->first_random = 0;
	row = r->vm->tab ? table_add_row(r->vm->tab, n) : NULL;
	if (r->vm->tab && !row)
		return -ENOMEM;
	v = row ? row->v : (double[RAMP_COLS]){ 0 };
	v[RAMP_ORDER] = r->shuffled;
	for (q = 0; q < RAMP_NPARTS; q++) {
		v[2 * q] = med[q];
		v[2 * q + 1] = (double)r->chunk[q] * 1e9 / med[q];
	}
	ret = drive_row_end(r->vm, print_row(r, n, v, judged));
	if (ret)
		return ret;
	return judged == RAMP_UNJUDGED ? RAMP_UNCLEAR : (int)judged;
}

/*
 * The caller's row hook: a survey that confirms a collapse with -O runs
 * of its own ends the ramp at the first step that does not hold.
 */
static int caller_done(const struct ramp *r)
{
	struct vm *vm = r->vm;

	return vm->row_done && vm->tab && vm->row_done(vm->hook_arg, vm->tab);
}

/*
 * Ramp up from one stream until a step does not hold, then drop the
 * newest stream (it must hold) and add it back: held again, it was no
 * limit, and the ramp goes on.  A random ramp is judged against one
 * linear stream first: a card with no random slot is as slow at one
 * random stream as at ten.
 */
static int ramp_up(struct ramp *r)
{
	unsigned n = 1;
	int c;

	if (r->o->random) {
		if ((c = step(r, 1)) < 0)
			return c;
		r->shuffled = 1;
		r->first_random = 1;
	}
	while (n <= r->cap) {
		if ((c = step(r, n)) < 0)
			return c;
		if (caller_done(r))
			return 0;
		if (c == RAMP_HELD_STEP) {
			n++;
			continue;
		}
		if (n == 1)
			return 0;
		if ((c = step(r, n - 1)) != RAMP_HELD_STEP)
			return c < 0 ? c : 0;
		if ((c = step(r, n)) != RAMP_HELD_STEP)
			return c < 0 ? c : 0;
		n++;
	}
	fprintf(stderr, "flashbench: the ramp reached the cap without a "
		"collapse: at least %u open AUs (--open-au-nr=N sets the "
		"cap)\n", r->cap);
	return 0;
}

/* A step's writes, unjudged: the dry run's. */
static int plan_step(struct ramp *r, unsigned n)
{
	double med;
	enum ramp_part q;
	int ret;

	for (q = 0; q < RAMP_NPARTS; q++)
		if ((ret = part_of(r, n, q, &med)))
			return ret;
	return 0;
}

/*
 * The dry run's ranges are each stream's two AUs, all it may write (a
 * confirmation step may reach any of them); its I/O is every step to the
 * cap as written, so that a progress line counting the plan reaches its
 * end with the last step, not with the writes of the first few.
 */
static int plan_region(struct ramp *r)
{
	struct dev *d = r->vm->dev;
	uint64_t ns;
	unsigned s, n;
	int ret;

	for (s = 0; s < r->cap; s++)
		if ((ret = drive_write(r->vm, r->base + (uint64_t)s *
				       AU_SPACING * r->au, 2 * r->au, &ns)))
			return ret;
	memset(&d->stats, 0, sizeof(d->stats));
	/* a random ramp judges one linear stream first */
	if (r->o->random && (ret = plan_step(r, 1)))
		return ret;
	r->shuffled = r->o->random;
	for (n = 1; n <= r->cap; n++)
		if ((ret = plan_step(r, n)))
			return ret;
	return 0;
}

static int ramp_drive(struct vm *vm, const struct opts *o)
{
	struct ramp r = { .vm = vm, .o = o, .base = write_offset(o),
			  .au = o->erasesize, .cap = ramp_cap(o, vm->dev) };
	enum ramp_part q;
	size_t rounds;
	int ret;

	if (vm->tab)
		vm->tab->ncols = RAMP_COLS;
	for (q = 0; q < RAMP_NPARTS; q++)
		r.chunk[q] = ramp_chunk(o, q);
	r.spin = spin_of(&r);
	/*
	 * a part judges ramp_rounds() rounds (RAMP_JUDGED writes, or at
	 * most RAMP_ROUNDS rounds) of up to cap writes, then goes on
	 * through an AU's tail in fine chunks
	 */
	rounds = RAMP_ROUNDS + RAMP_JUDGED + r.au / r.chunk[RAMP_FINE];
	r.lat = calloc(rounds * r.cap, sizeof(*r.lat));
	r.round_mean = calloc(rounds, sizeof(*r.round_mean));
	ret = r.lat && r.round_mean ? 0 : -ENOMEM;
	if (!ret)
		ret = vm->dev->dry_run ? plan_region(&r) : ramp_up(&r);
	free(r.lat);
	free(r.round_mean);
	return ret;
}

static void ramp_header(FILE *f, const struct opts *o)
{
	char a[UNIT_BUFLEN], c[UNIT_BUFLEN], fi[UNIT_BUFLEN];

	fprintf(f, "ramp of %s AUs, coarse %s and fine %s writes, %s order\n",
		fmt_size(a, (double)o->erasesize),
		fmt_size(c, (double)ramp_chunk(o, RAMP_COARSE)),
		fmt_size(fi, (double)ramp_chunk(o, RAMP_FINE)),
		o->random ? "random" : "linear");
}

const struct testdesc testdesc_ramp = {
	.name = "open-au-ramp",
	.kind = TAB_RAMP,
	.writes = 1,
	.validate = ramp_validate,
	.header = ramp_header,
	.drive = ramp_drive,
	.count = 1,
};
