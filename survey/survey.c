// SPDX-License-Identifier: GPL-2.0
/*
 * The survey: the procedure an expert runs by hand, as one command that
 * decides each step from the verdicts so far.  Alignment tests at a 2^n
 * and a 3x2^n block size until the erase and page verdicts hold still;
 * then, with the measured erase size, the open-AU limit, linear then
 * random (search.c), and the FAT area, linear and, where that
 * leaves it unsure, random.
 *
 * Every step is an ordinary test run through run.c; its table is printed
 * under a heading naming the classic command it equals, so the output is
 * a report that --analyze reads back to the same verdicts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "survey/advice.h"
#include "survey/internal.h"
#include "lib/msg.h"
#include "lib/units.h"

#define ALIGN_ROUNDS 3
/*
 * The reference run dips at a size where it is below DIP_LOW of its best
 * and a smaller one is back above DIP_BACK: a pause of the card, which
 * would pass every later run there for one that held.
 */
#define DIP_LOW 0.6
#define DIP_BACK 0.85

static int same_verdict(const struct verdict *a, const struct verdict *b)
{
	return a->is_null == b->is_null && a->value == b->value &&
	       a->conf == b->conf;
}

/*
 * Alignment at 1 KiB (sees pages down to 2 KiB) and 3 KiB (3x2^n
 * units), repeated until the erase and page verdicts stop moving: high
 * after one round, or the same twice.  The repeat takes as many samples
 * again; a third round, to settle two that disagree, twice as many.
 */
static int align_phase(struct survey *s)
{
	static const uint64_t bs[] = { 1024, 3072 };
	struct verdict e = { 0 }, p = { 0 };
	struct opts o = survey_step_opts(s);
	unsigned round, i;
	char what[64];

	o.test = &testdesc_align;
	for (round = 0; round < ALIGN_ROUNDS; round++) {
		o.count = (s->cfg->base.count ? s->cfg->base.count : 8) <<
			  (round ? round - 1 : 0);
		for (i = 0; i < 2; i++) {
			o.blocksize = bs[i];
			snprintf(what, sizeof(what), "alignment, %s blocks, "
				 "round %u", i ? "3x2^n" : "2^n", round + 1);
			if (survey_step(s, &o, PH_ALIGN, what) == STEP_STOP)
				return -1;
		}
		if (round && same_verdict(&e, &s->a.erase_size) &&
		    same_verdict(&p, &s->a.page_size))
			break;
		if (s->a.erase_size.conf == CONF_HIGH &&
		    s->a.page_size.conf == CONF_HIGH)
			break;
		e = s->a.erase_size;
		p = s->a.page_size;
	}
	s->done[PH_ALIGN] = 2;
	return 0;
}

/*
 * The largest N whose AUs fit after the write offset, each AU_SPACING
 * apart and span AUs long (the ramp's streams write two).
 */
static unsigned fit_nr(const struct survey *s, unsigned span)
{
	struct opts o = survey_write_opts(s);
	uint64_t off = o.offset, aus;

	if (off >= s->d->size)
		return 0;
	aus = (s->d->size - off) / s->au;
	if (aus < span)
		return 0;
	aus = (aus - span) / AU_SPACING + 1;
	return aus < MAX_NR ? (unsigned)aus : MAX_NR;
}

/* The ramp's options; its cap is every stream that fits. */
static struct opts ramp_opts(const struct survey *s, int random)
{
	struct opts o = survey_write_opts(s);

	o.test = &testdesc_ramp;
	o.ramp = 1;
	o.random = random;
	o.blocksize = s->full_bs;
	return o;
}

/*
 * Streams the ramp runs to; 0: it does not fit (AUs under 512KiB, or
 * 1MiB in random order).
 */
static unsigned ramp_fit(const struct survey *s, int random)
{
	struct opts o = ramp_opts(s, random);
	char err[MSG_MAX];

	return o.test->validate(&o, s->d, err, sizeof(err)) ? 0 :
	       fit_nr(s, 2);
}

/* The IOPS step's I/O, from its dry run; none where it does not fit. */
static void plan_iops(struct survey *s)
{
	struct opts o = survey_iops_opts(s);
	char err[MSG_MAX];
	struct run r;

	memset(&s->iops, 0, sizeof(s->iops));
	if (o.test->validate(&o, s->d, err, sizeof(err)))
		return;
	if (!run_prepare(&r, &o, s->d))
		s->iops = (struct cap_plan){ r.plan.io.writes, r.plan.io.reads,
					     r.plan.max_len };
	run_free(&r);
}

/* Sizes for the write tests, from the verdicts; 0: no erase size. */
static int geometry(struct survey *s)
{
	const struct verdict *e = &s->a.erase_size, *p = &s->a.page_size;
	uint64_t page;

	/* a wrong erase size would spoil every write test after it */
	if (e->is_null || e->type == V_NONE || e->conf < CONF_MEDIUM ||
	    e->value % s->d->sector)
		return 0;
	s->au = e->value;
	s->page = !p->is_null && p->type != V_NONE ? p->value : 0;
	page = s->page && s->page <= 16384 ? s->page : 16384;
	s->full_bs = page / 4 > s->d->sector ? page / 4 : s->d->sector;
	s->full_bs -= s->full_bs % s->d->sector;
	/*
	 * The FAT test needs four sizes to call no AU special, and a fifth
	 * keeps a write outlier in one column (a housekeeping pause) from
	 * passing for an AU that stands out.
	 */
	s->fat_bs = s->au / 16;
	s->nmax = fit_nr(s, 1);
	s->ramp_cap = ramp_fit(s, 0);
	s->random_ramp = ramp_fit(s, 1) > 1;
	plan_iops(s);
	return s->nmax > 0;
}

/*
 * A card remembers: AUs the last runs left open hold its slots (in the
 * sim, random-capable ones too), and the next run would measure that.
 * Discarding what they wrote gives it its fresh state back, before each
 * write run; a device without discard keeps its state, as a card
 * measured by hand would.
 */
static void survey_reset_card(struct survey *s)
{
	struct opts o = survey_write_opts(s);
	uint64_t off = o.offset, ns;
	unsigned k;
	int ret = 0;

	if (s->fat_dirty)
		ret = dev_discard(s->d, 0, FAT_NR * s->au, &ns);
	for (k = 0; !ret && k < s->dirty; k++)
		ret = dev_discard(s->d, off + (uint64_t)k * AU_SPACING * s->au,
				  s->au << s->dirty_pairs, &ns);
	if (ret && !s->no_discard && s->out)
		fprintf(s->out, "\n# reset: cannot discard (%s): the card "
			"keeps the state each run leaves\n", strerror(-ret));
	s->no_discard |= ret != 0;
	s->dirty = 0;
	s->dirty_pairs = 0;
	s->fat_dirty = 0;
}

/*
 * The capacity check, the first write, also where no erase size lets a
 * write test follow: on a card that stores less than it claims, the
 * write tests' AUs could lie in space it does not have, and what they
 * measured there would be the card's wrapping, not its geometry.  The
 * plan before it names what the write tests after it would write (the
 * geometry, if the reads gave one); its dry run, its own probes.
 */
static int capacity_phase(struct survey *s)
{
	struct opts o = survey_step_opts(s);
	size_t n = s->n;
	struct run r;

	geometry(s);
	o.test = &testdesc_capacity;
	if (!run_prepare(&r, &o, s->d))
		s->cap = (struct cap_plan){ r.plan.io.writes, r.plan.io.reads,
					    r.plan.max_len };
	run_free(&r);
	if (survey_step(s, &o, PH_CAPACITY, "capacity check") == STEP_STOP)
		return -1;
	/* skipped (said why): not done, and the write tests go on */
	if (s->n == n)
		return 0;
	s->done[PH_CAPACITY] = 2;
	if (capacity_verdict(&s->tab[n], NULL, 0) > 0) {
		survey_stop(s, EXIT_FAKE, "the card is fake: it stores less "
			    "than it claims (capacity); its geometry was not "
			    "measured, as the write tests would write into "
			    "space it does not have");
		return -1;
	}
	return 0;
}

static int fat_phase(struct survey *s, int random)
{
	struct opts o = survey_write_opts(s);
	enum phase ph = random ? PH_FAT_RAND : PH_FAT_LIN;
	const struct verdict *r = &s->a.open_au_random, *f = &s->a.fat_aus;

	/*
	 * In random order, AUs that get the card's random-capable slots
	 * look like a FAT area too: only a card with none tells.  And
	 * where the linear run settled it, a random one (slow: the other
	 * AUs copy on every write) would only say it again.
	 */
	if (random && (r->is_null || r->value || r->conf < CONF_MEDIUM)) {
		if (s->out)
			fprintf(s->out, "\n# FAT area, random: not run; the "
				"card takes random writes in some AUs of its "
				"own choosing (or that is unknown), which a "
				"random -f run cannot tell from a FAT area\n");
		s->done[ph] = 2;
		return 0;
	}
	if (random && f->type != V_NONE && f->conf >= CONF_MEDIUM) {
		if (s->out)
			fprintf(s->out, "\n# FAT area, random: not run; the "
				"linear run settled it (fat_aus, %s)\n",
				confidence_name(f->conf));
		s->done[ph] = 2;
		return 0;
	}
	o.test = &testdesc_find_fat;
	o.blocksize = s->fat_bs;
	o.fat_nr = FAT_NR;
	o.random = random;
	if (s->writing && !s->no_discard)
		survey_reset_card(s);
	s->fat_dirty = 1;
	if (survey_step(s, &o, ph, random ? "FAT area, random" :
			"FAT area, linear") == STEP_STOP)
		return -1;
	s->done[ph] = 2;
	return 0;
}

/*
 * The size where reference run t dips, of the sizes no page slows (its
 * leading rows, largest first) below the whole-AU writes; 0: none.
 * Such a size is no reference for the runs after it.
 */
static uint64_t reference_dip(const struct table *t)
{
	double best = 0;
	size_t n, r, k;

	for (n = 0; n < t->nrows && t->rows[n].key >= PAGE_MAX; n++)
		best = fmax(best, t->rows[n].v[0]);
	for (r = 1; r < n; r++)
		for (k = r + 1; t->rows[r].v[0] < DIP_LOW * best && k < n; k++)
			if (t->rows[k].v[0] >= DIP_BACK * best)
				return t->rows[r].key;
	return 0;
}

static enum step_end open_au_step(struct survey *s, int random, unsigned nr,
				  int full, const char *again)
{
	struct opts o = survey_write_opts(s);
	enum step_end ret;
	size_t n = s->n;
	char what[96];

	o.test = &testdesc_open_au;
	o.blocksize = s->full_bs;
	o.nr_lo = o.nr_hi = nr;
	o.random = random;
	snprintf(what, sizeof(what), "open-AU limit, %s, %s N=%u%s",
		 random ? "random" : "linear", full ? "full run at" : "probe",
		 nr, again ? again : "");
	if (s->writing && !s->no_discard)
		survey_reset_card(s);
	s->dirty = nr;
	s->cur_probe = !full;
	ret = survey_step(s, &o, random ? PH_OPEN_RAND : PH_OPEN_LIN, what);
	s->cur_probe = 0;
	if (s->n > n)
		s->step[s->n - 1].full = full;
	return ret;
}

/*
 * The ramp: one stream more each step until the card closes AUs (in
 * random order, until it runs out of random slots); the -O runs after
 * it only confirm what it found.
 */
static enum step_end ramp_step(struct survey *s, int random)
{
	struct opts o = ramp_opts(s, random);
	enum step_end ret;
	size_t n = s->n;
	unsigned cap;

	/*
	 * Random slots are some of the open ones: no further than the
	 * linear limit, where a card that copies little of an AU it closes
	 * would show no collapse and the ramp would climb to its cap; and
	 * no further than where probes at the limit are the cheaper search.
	 */
	cap = random ? open_au_random_ramp_cap(s) : 0;
	s->ramp_to = s->ramp_cap;
	if (cap && cap < s->ramp_cap) {
		snprintf(s->ramp_nr, sizeof(s->ramp_nr), "%u", cap);
		o.nr_arg = s->ramp_nr;
		o.nr_lo = o.nr_hi = cap;
		s->ramp_to = cap;
	}
	if (s->writing && !s->no_discard)
		survey_reset_card(s);
	s->dirty = s->ramp_cap;
	s->dirty_pairs = 1;
	ret = survey_step(s, &o, random ? PH_OPEN_RAND : PH_OPEN_LIN,
			  random ? "open-AU limit, random, ramp" :
			  "open-AU limit, linear, ramp");
	/* skipped (said why): the search goes on without it */
	if (s->n == n) {
		if (random)
			s->random_ramp = 0;
		else
			s->ramp_cap = 0;
	}
	return ret;
}

/*
 * The ramp after the reference run, then the runs the
 * planner picks, each stopping once it collapses (or, as a
 * probe, once it clearly holds), then a full run at the limit and one
 * above it, unless the search made them already.
 */
static int open_au_search(struct survey *s, int random)
{
	char again[48], z[UNIT_BUFLEN];
	uint64_t dip;
	unsigned nr;
	size_t n;
	int full;

	while ((nr = open_au_next_run(s, random, &full))) {
		if (open_au_ramp_due(s, random)) {
			if (ramp_step(s, random) == STEP_STOP)
				return -1;
			survey_replan(s, random ? "the random ramp: its count" :
				      "the ramp: its open-AU count");
			continue;
		}
		/* the same run again would tell nothing new */
		if (open_au_find_run(s, random, nr, full))
			break;
		n = s->n;
		if (open_au_step(s, random, nr, full, NULL) == STEP_STOP)
			return -1;
		if (nr == 1 && s->n > n)
			survey_replan(s, random ? "the random reference run: "
				      "random slots or none" :
				      "the reference run: the write rate");
		/*
		 * A reference that held but dipped: once more, the best of
		 * both (one that collapsed is no pause of the card)
		 */
		dip = nr == 1 && s->n > n && !s->step[n].collapsed ?
		      reference_dip(&s->tab[n]) : 0;
		if (!dip)
			continue;
		snprintf(again, sizeof(again), " again (a dip at %s)",
			 fmt_size(z, (double)dip));
		if (open_au_step(s, random, 1, 1, again) == STEP_STOP)
			return -1;
	}
	s->done[random ? PH_OPEN_RAND : PH_OPEN_LIN] = 2;
	return 0;
}

static void no_erase_size(struct survey *s, const char *how)
{
	survey_stop(s, EXIT_FAILURE, "no erase size sure enough %s (see "
		    "erase_size); the open-AU and FAT tests need one: run -a "
		    "with other block sizes, then -O and -f with --erasesize",
		    how);
}

/*
 * The reads settled no erase size: the writes of --find-erase may.  Its
 * verdict counts only at medium or high, as the reads' (geometry()).
 * It writes elsewhere than the capacity check before it: a plan and
 * consent of its own.  --preserve saved the capacity probes before its
 * ranges were known, and one file holds one save: with it the survey
 * ends before it.  0: an erase size to go on with.
 */
static int erase_from_writes(struct survey *s)
{
	struct opts o = survey_step_opts(s);
	enum step_end end;

	if (s->cfg->save && s->writing) {
		survey_stop(s, EXIT_FAILURE, "no erase size sure enough from "
			    "the reads (see erase_size); --preserve saved only "
			    "the capacity probes: run --find-erase "
			    "--preserve=FILE for the erase size from writes");
		return -1;
	}
	s->writing = 0;
	o.test = &testdesc_find_erase;
	end = survey_step(s, &o, PH_ALIGN, "erase size from writes");
	if (end == STEP_STOP)
		return -1;
	/* skipped: the note said why it does not fit */
	if (end == STEP_SKIP || !geometry(s)) {
		no_erase_size(s, end == STEP_SKIP ?
			      "to run the write tests with" :
			      "from the reads or from writes");
		return -1;
	}
	s->au_from_writes = 1;
	if (s->cfg->save) {
		survey_stop(s, EXIT_FAILURE, "erase size %llu from writes; "
			    "--preserve saved only what they wrote: run -O and "
			    "-f with --erasesize=%llu --preserve=FILE",
			    (unsigned long long)s->au,
			    (unsigned long long)s->au);
		return -1;
	}
	/* the steps after it write elsewhere: a plan and consent of theirs */
	s->writing = 0;
	return 0;
}

/*
 * Random 4KiB reads and writes one at a time, as the application classes
 * (A1, A2) count them: last, as its writes scatter over many AUs that
 * the card would still be sorting out in a write test after it.
 */
static void iops_phase(struct survey *s)
{
	struct opts o = survey_iops_opts(s);

	if (s->writing && !s->no_discard)
		survey_reset_card(s);
	if (survey_step(s, &o, PH_IOPS, "random 4KiB IOPS") == STEP_OK)
		s->done[PH_IOPS] = 2;
}

static void survey_steps(struct survey *s)
{
	if (align_phase(s) || capacity_phase(s))
		return;
	/* a sure size without room for the write tests: writes cannot help */
	if (!geometry(s) && s->au) {
		no_erase_size(s, "to run the write tests with");
		return;
	}
	if (!s->au && erase_from_writes(s))
		return;
	if (open_au_search(s, 0) || open_au_search(s, 1) || fat_phase(s, 0) ||
	    fat_phase(s, 1))
		return;
	iops_phase(s);
}

int survey_run(const struct survey_cfg *cfg, struct dev *d, FILE *out,
	       int *wrote)
{
	struct survey *s = calloc(1, sizeof(*s));
	struct advice adv;
	int status;
	size_t i;

	if (!s) {
		fprintf(stderr, "flashbench: --survey: out of memory\n");
		return EXIT_FAILURE;
	}
	s->cfg = cfg;
	s->d = d;
	s->out = cfg->json ? NULL : out;
	s->ctx.dev_size = dev_medium_size(d);
	identity_read(d, &s->id);
	identity_claims(&s->id, &s->ctx);
	s->t0 = now_ns();
	s->base = d->stats;
	progress_init(&s->pg, stderr, 0);
	survey_preamble(s);
	survey_steps(s);
	progress_clear(&s->pg);
	/* a fake card's size is no size to partition for */
	memset(&adv, 0, sizeof(adv));
	if (s->status != EXIT_FAKE)
		advise(&s->a, s->ctx.dev_size, d->sector, &adv);
	if (cfg->json)
		survey_summary_json(s, &adv, out);
	else
		survey_summary_text(s, &adv);
	if (s->stopped[0])
		survey_note(s, "survey stopped: %s", s->stopped);
	*wrote = s->writing;
	status = s->status;
	for (i = 0; i < s->n; i++)
		table_free(&s->tab[i]);
	free(s);
	return status;
}
