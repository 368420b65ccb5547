// SPDX-License-Identifier: GPL-2.0
/*
 * One step of the survey: an ordinary test run through run.c under a
 * heading naming the classic command it equals, with its row hooks,
 * progress and I/O totals; before the first write, the plan of what
 * may be overwritten, the confirmation and --preserve.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "safety/gate.h"
#include "lib/extent.h"
#include "lib/msg.h"
#include "lib/ramp_rule.h"
#include "survey/internal.h"
#include "lib/text.h"
#include "lib/units.h"
#include "output/places.h"

/*
 * Sizes of the linear FAT run before a high verdict ends it.  Pauses of
 * the card (the sim's: 20-200ms, a few per hundred MiB) that fell on the
 * same AU in three sizes made one AU of a card without a FAT area stand
 * out at high confidence (tests/survey_check.py --realism, seed 2: one
 * card of 100), where the five sizes of the whole run did not.
 */
#define FAT_SETTLE_ROWS 4

static void command_line(const struct survey *s, const struct opts *o,
			 char *buf, size_t len)
{
	char nr[32];
	size_t n;

	/* the ramp's cap, unless given, is every stream that fits */
	snprintf(nr, sizeof(nr), " --open-au-nr=%u", o->nr_lo);

	if (o->test == &testdesc_find_erase)
		n = (size_t)snprintf(buf, len, "flashbench --find-erase "
				     "--offset=%llu",
				     (unsigned long long)write_offset(o));
	else if (o->test == &testdesc_align)
		n = (size_t)snprintf(buf, len, "flashbench -a --blocksize=%llu"
				     " --count=%u", (unsigned long long)
				     o->blocksize, o->count);
	else if (o->test == &testdesc_open_au || o->test == &testdesc_ramp)
		n = (size_t)snprintf(buf, len, "flashbench -O%s --erasesize=%llu"
				     " --blocksize=%llu%s --offset=%llu%s",
				     o->ramp ? " --ramp" : "",
				     (unsigned long long)o->erasesize,
				     (unsigned long long)o->blocksize,
				     o->ramp && !o->nr_arg ? "" : nr,
				     (unsigned long long)o->offset,
				     o->random ? " --random" : "");
	else if (o->test == &testdesc_capacity)
		n = (size_t)snprintf(buf, len, "flashbench --capacity");
	else if (o->test == &testdesc_iops_random)
		n = (size_t)snprintf(buf, len, "flashbench --iops --offset=%llu",
				     (unsigned long long)o->offset);
	else
		n = (size_t)snprintf(buf, len, "flashbench -f --erasesize=%llu"
				     " --blocksize=%llu --fat-nr=%u%s",
				     (unsigned long long)o->erasesize,
				     (unsigned long long)o->blocksize,
				     o->fat_nr, o->random ? " --random" : "");
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, " %s", s->d->path);
	if (o->test == &testdesc_iops_random && n < len)
		snprintf(buf + n, len - n, " (its random part)");
}

/*
 * Row hook of the linear FAT run: an AU that stands out at high
 * confidence in FAT_SETTLE_ROWS sizes already is a verdict more would
 * only repeat (no AU standing out needs them all to be sure).
 */
static int fat_settled(void *arg, const struct table *t)
{
	struct survey *s = arg;
	struct analysis a;

	if (t->random || t->nrows < FAT_SETTLE_ROWS || s->n == MAX_STEPS)
		return 0;
	survey_analyze_with(s, t, &a);
	return a.fat_aus.type == V_LIST && a.fat_aus.nlist &&
	       a.fat_aus.conf == CONF_HIGH;
}

/*
 * Time of the next row: the model's, or the last row's where that took
 * longer (a row of smaller blocks is seldom faster).  A run forecast to
 * collapse is let start on that forecast: its next row may be the one
 * that ends the collapse, slower than the last by more than smaller
 * blocks make it (sim:samsung16 at --max-time=213s: a probe at N=33
 * rows of 15, 20, 28 and 44s, ending 8s past the budget).  The model
 * rates rest on the best run so far; a run slower than that at its last
 * row (random order on a card that merges random writes: 1.5 times)
 * is as much slower at the next, which its smaller blocks can make
 * slower still (a random run at 1.51 times, 16KiB to 8KiB: 2.4s
 * forecast, 3.8s taken).  A run slowing row by row goes on slowing at
 * least as fast: a collapse deepens with each smaller block (a probe at
 * N=11, one past the limit: rows of 8.5, 12.4 and 20.2s, the last
 * forecast under 17s and ending 3s past --max-time=93s).
 */
static double next_row_ns(const struct survey *s, const struct table *t,
			  double last_ns, double prev_ns)
{
	const struct row_cut *c = &s->cut;
	double ns = survey_est_row(s, c->bs, c->aus, t->nrows, c->collapse);
	double was = t->nrows ? survey_est_row(s, c->bs, c->aus,
					       t->nrows - 1, c->collapse) : 0;

	if (was > 0 && last_ns > was)
		ns *= last_ns / was;
	if (prev_ns > 0 && last_ns > prev_ns)
		ns = fmax(ns, last_ns * (last_ns / prev_ns));
	return ns > last_ns ? ns : last_ns;
}

/*
 * Row hook of the write runs: their own, then the budgets.  A row that
 * would overrun one ends the run there, its rows so far its result.
 */
static int row_done(void *arg, const struct table *t)
{
	struct survey *s = arg;
	struct row_cut *c = &s->cut;
	double now = survey_elapsed_ns(s), last = now - c->mark_ns;
	double prev = c->row_ns;

	c->mark_ns = now;
	c->row_ns = last;
	if (s->stopped[0] || (c->hook && c->hook(arg, t)))
		return 1;
	if (t->nrows >= c->rows)
		return 0;
	return survey_budget_cut(s, c->row_bytes,
				 next_row_ns(s, t, last, prev), "row");
}

/*
 * Row hook of the ramp: its own end, then --max-time: the next step,
 * one stream more (the survey ends the ramp at its first step that does
 * not hold), takes n + 1 times the least time per stream a step took (a
 * pause of the card makes one step dear), and if it collapses, which no
 * step before it tells, each of its writes may copy a whole AU
 * (survey_ramp_collapse_slow()).  Its bytes need no cut: its whole
 * worst case fit --max-write before it began.
 */
static int ramp_row_done(void *arg, const struct table *t)
{
	struct survey *s = arg;
	struct row_cut *c = &s->cut;
	double now = survey_elapsed_ns(s), last = now - c->mark_ns;
	unsigned n = t->nrows ? (unsigned)t->rows[t->nrows - 1].key : 1;

	c->mark_ns = now;
	c->step_ns = last;
	if (!(c->stream_ns > 0) || last / n < c->stream_ns)
		c->stream_ns = last / n;
	c->ramp_streams = t->nrows && t->rows[t->nrows - 1].v[RAMP_ORDER] ?
			  n : 0;
	if (s->stopped[0] || open_au_ramp_done(t))
		return 1;
	return survey_budget_cut(s, 0, c->stream_ns * (n + 1) *
				 survey_ramp_collapse_slow(s, t->random,
							   t->random, n + 1),
				 "ramp step");
}

/* The engine's again hook: a pass more after a pause, if it fits. */
static int again(void *arg, const struct vm_val *pass)
{
	struct survey *s = arg;

	if (survey_budget_cut(s, pass->bytes, pass->ns,
			      "pass (again after a pause)"))
		return 1;
	return progress_again(&s->pg, pass);
}

/* Ready the row and pass hooks of a write run r of o. */
static void cut_setup(struct survey *s, const struct opts *o, struct run *r)
{
	struct row_cut *c = &s->cut;
	int fat = o->test == &testdesc_find_fat;

	c->hook = fat ? fat_settled : open_au_row_done;
	c->bs = o->blocksize;
	c->aus = fat ? o->fat_nr : o->nr_lo;
	c->collapse = survey_collapse_due(s, o);
	c->rows = survey_series_rows(o->erasesize, o->blocksize,
				     s->d->sector);
	c->row_bytes = c->rows ? (double)r->plan.io.bytes_written / c->rows :
		       0;
	c->mark_ns = survey_elapsed_ns(s);
	c->row_ns = 0;
	r->row_done = row_done;
	r->again = again;
}

static void tick(void *arg, enum vm_tick what)
{
	struct survey *s = arg;

	progress_tick(&s->pg, what);
}

static void step_heading(struct survey *s, struct step *st)
{
	char t[UNIT_BUFLEN];

	if (s->out) {
		fprintf(s->out, "\n# step %zu (%s): %s\n", s->n + 1, st->what,
			st->cmd);
		fflush(s->out);
	}
	if (!s->pg.tty)
		survey_note(s, "survey step %zu: %s (about %s)", s->n + 1,
			    st->what, fmt_duration(t, s->pg.run_ns));
}

/* The IOPS step's 4 KiB places, as its dry run lays them out. */
static int iops_regions(const struct survey *s, struct extents *e)
{
	struct opts o;
	struct run r;
	size_t i;
	int ret;

	if (!s->iops.writes)
		return 0;
	o = survey_iops_opts(s);
	ret = run_prepare(&r, &o, s->d);
	for (i = 0; !ret && i < r.plan.nranges; i++)
		ret = extents_add(e, r.plan.ranges[i].off,
				  r.plan.ranges[i].len);
	run_free(&r);
	return ret;
}

/*
 * Everything the survey may write: the FAT AUs and every open-AU AU,
 * with the AU after it where the ramp writes two; the IOPS step's
 * places; and what the first write step (the capacity check's probes)
 * writes besides; without an erase size (s->nmax 0) that alone.  Into
 * e, the end of the open-AU AUs in *end.  0 or -ENOMEM.
 */
static int regions(const struct survey *s, const struct plan *first,
		   struct extents *e, uint64_t *end)
{
	uint64_t off = s->nmax ? survey_write_opts(s).offset : 0, at;
	size_t i;
	unsigned k;
	int ret = s->nmax ? extents_add(e, 0, (uint64_t)FAT_NR * s->au) : 0;

	*end = 0;
	for (k = 0; !ret && k < s->nmax; k++) {
		at = off + (uint64_t)k * AU_SPACING * s->au;
		*end = at + (s->au << (k < s->ramp_cap));
		ret = extents_add(e, at, s->au << (k < s->ramp_cap));
	}
	for (i = 0; !ret && i < first->nranges; i++)
		ret = extents_add(e, first->ranges[i].off, first->ranges[i].len);
	return ret ? ret : iops_regions(s, e);
}

/* The IOPS step's line of the plan, where it fits. */
static void print_iops_plan(const struct survey *s, FILE *f)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];
	struct opts o;

	if (!s->iops.writes)
		return;
	o = survey_iops_opts(s);
	fprintf(f, "# plan: last, random 4KiB IOPS: %llu reads and %llu "
		"writes of %s (%s written) at places spread over %s from "
		"%llu, one at a time, for the application classes\n",
		(unsigned long long)s->iops.reads,
		(unsigned long long)s->iops.writes,
		fmt_size(a, (double)s->iops.len),
		fmt_size(b, (double)(s->iops.writes * s->iops.len)),
		fmt_size(c, (double)iops_region(&o, s->d)),
		(unsigned long long)o.offset);
}

/* The capacity check's line of the plan, when it is the first write. */
static void plan_capacity(struct survey *s, FILE *f, const struct opts *o)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];

	if (o->test != &testdesc_capacity)
		return;
	fprintf(f, "# plan: first the capacity check: %llu probes of %s "
		"(%s) from 0 to the end of the %s claimed, written and read "
		"back; a card that stores less than it claims ends the survey "
		"there, before any other write\n",
		(unsigned long long)s->cap.writes, fmt_size(a, (double)s->cap.len),
		fmt_size(b, (double)(s->cap.writes * s->cap.len)),
		fmt_size(c, (double)s->d->size));
}

static void print_plan(struct survey *s, const struct extents *e,
		       uint64_t end, const struct opts *first)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN], d[UNIT_BUFLEN];
	char pb[PLAN_FIGURE_LEN], pt[PLAN_FIGURE_LEN], cards[PLAN_CARDS_LEN];
	FILE *f = s->out ? s->out : stderr;
	enum phase from = first->test == &testdesc_capacity ? PH_CAPACITY :
			  PH_OPEN_LIN;
	struct cost typ, worst;

	progress_clear(&s->pg);
	if (!s->nmax) {
		survey_forecast(s, from, GUESS_TYPICAL, &typ);
		fputc('\n', f);
		plan_capacity(s, f, first);
		fprintf(f, "# plan: writes only the capacity probes, %s of %s, "
			"in about %s; the write tests follow once an erase size "
			"is sure enough (see erase_size)\n",
			fmt_size(a, (double)extents_bytes(e)), s->d->path,
			fmt_duration(b, typ.ns));
		fflush(f);
		return;
	}
	fprintf(f, "\n# plan: erase size %s%s; open-AU search up to N=%u, "
		"probes as deep as collapses show, full runs down to %s; FAT "
		"area over %u AUs\n", fmt_size(a, (double)s->au),
		s->au_from_writes ? " (from writes)" : "", s->nmax,
		fmt_size(c, (double)s->full_bs), FAT_NR);
	plan_capacity(s, f, first);
	fprintf(f, "# plan: writes only within %s of %s: %sthe FAT area "
		"0-%llu and %u AUs of %s every %s%s from %llu to %llu\n",
		fmt_size(a, (double)extents_bytes(e)), s->d->path,
		from == PH_CAPACITY ? "the capacity probes, " : "",
		(unsigned long long)(FAT_NR * s->au - 1), s->nmax,
		fmt_size(b, (double)s->au),
		fmt_size(c, (double)(AU_SPACING * s->au)),
		s->ramp_cap ? " (and the AU after each, for the ramp)" : "",
		(unsigned long long)survey_write_opts(s).offset,
		(unsigned long long)(end - 1));
	print_iops_plan(s, f);
	survey_forecast(s, from, GUESS_WORST, &worst);
	survey_plan_figures(s, from, pb, pt);
	fprintf(f, "# plan: writes %s in %s (%s), at most %s in %s (one "
		"keeping %u); estimated from the reads, refined as it goes\n",
		pb, pt, survey_plan_cards(cards, s), fmt_size(c, worst.bytes),
		fmt_duration(d, worst.ns), s->nmax);
	fflush(f);
}

/* On a terminal, ask; otherwise --yes was checked before any I/O. */
static int confirm(struct survey *s)
{
	char line[64];

	if (s->cfg->yes || dev_has(s->d, DEV_CAP_NO_CONSENT))
		return 0;
	progress_clear(&s->pg);
	fputs("flashbench: the survey overwrites data on ", stderr);
	put_safe(stderr, s->d->path);
	fprintf(stderr, " in the regions above%s. Type yes to go on: ",
		s->cfg->save ? "" : " (put back afterwards: --preserve)");
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin) || strcmp(line, "yes\n")) {
		if (vm_stop)
			survey_interrupted(s);
		survey_stop(s, EXIT_FAILURE, "not confirmed; %s",
			    s->done[PH_CAPACITY] == 2 ?
			    "only the capacity probes were written" :
			    "nothing was written");
		return -1;
	}
	return 0;
}

/*
 * Before the erase size is known, --find-erase writes under a plan of
 * its own: its ranges, as its dry run laid them out.
 */
static void print_ew_plan(struct survey *s, const struct run *run,
			  double ns)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	FILE *f = s->out ? s->out : stderr;
	const struct range *r = run->plan.ranges;
	size_t n = run->plan.nranges;

	progress_clear(&s->pg);
	fprintf(f, "\n# plan: the reads gave no erase size sure enough: "
		"the erase size from writes (--find-erase) first, %s in "
		"about %s, within %zu ranges of %s from %llu to %llu; the "
		"open-AU and FAT plan follows once it gives one\n",
		fmt_size(a, (double)run->plan.io.bytes_written),
		fmt_duration(b, ns), n, s->d->path,
		(unsigned long long)(n ? r[0].off : 0),
		(unsigned long long)(n ? r[n - 1].off + r[n - 1].len - 1 : 0));
	fflush(f);
}

/*
 * Before the first write step o (its dry run run, its forecast ns): the
 * plan, the confirmation and --preserve of all the survey may write.
 */
static int begin_writes(struct survey *s, const struct opts *o,
			const struct run *run, double ns)
{
	struct extents e = { 0 };
	uint64_t end;
	int ret = regions(s, &run->plan, &e, &end);

	if (ret) {
		extents_free(&e);
		survey_stop(s, EXIT_FAILURE, "%s: %s", o->test->name,
			    strerror(-ret));
		return -1;
	}
	if (o->test == &testdesc_find_erase)
		print_ew_plan(s, run, ns);
	else
		print_plan(s, &e, end, o);
	ret = confirm(s);
	if (!ret && s->cfg->save) {
		ret = s->cfg->save(s->cfg->save_arg, s->d, e.r, e.n);
		if (ret)
			survey_stop(s, ret,
				    "--preserve failed; nothing was written");
	}
	extents_free(&e);
	if (ret)
		return -1;
	s->writing = 1;
	return 0;
}

/* The progress line and heading of a step about to do io in est ns. */
static void step_show(struct survey *s, struct step *st,
		      const struct io_stats *io, enum phase ph, double est,
		      const char *what)
{
	struct cost rest;

	s->pg.done_ns = survey_elapsed_ns(s);
	s->pg.run_ns = est;
	survey_forecast(s, ph == PH_ALIGN ? PH_OPEN_LIN : ph, GUESS_TYPICAL,
			&rest);
	s->pg.rest_ns = ph == PH_ALIGN ? rest.ns :
			rest.ns > est ? rest.ns - est : 0;
	progress_run(&s->pg, s->d, (double)(io->reads + io->writes),
		     (double)(io->bytes_read + io->bytes_written), "survey");
	snprintf(s->pg.label, sizeof(s->pg.label), "survey step %zu, %s",
		 s->n + 1, what);
	step_heading(s, st);
	progress_show(&s->pg);
}

/*
 * How a step that ran ended: ret and err from run_execute().  A device
 * error reads as a single test's does, naming the device.
 */
static enum step_end step_outcome(struct survey *s,
				  const struct vm_error *err, int ret,
				  const char *what)
{
	char msg[RUN_ERROR_LEN];

	/* | head: a broken pipe on the results stops it as a signal does */
	if ((ret == -EINTR || err->output) && vm_stop) {
		survey_interrupted(s);
		return STEP_STOP;
	}
	if (err->output) {
		survey_stop(s, EXIT_IO, "writing the results to %s: %s",
			    s->cfg->out_name, strerror(-ret));
		return STEP_STOP;
	}
	if (ret && err->err) {
		run_io_error_text(err, s->d->path, msg, sizeof(msg));
		survey_stop(s, EXIT_IO, "%s", msg);
		return STEP_STOP;
	}
	if (ret) {
		/* before any I/O: its buffer */
		survey_stop(s, EXIT_FAILURE, "%s: %s", what, strerror(-ret));
		return STEP_STOP;
	}
	/* a budget cut it between rows */
	return s->stopped[0] ? STEP_STOP : STEP_OK;
}

/*
 * Run one step.  STEP_SKIP: the options do not fit the device (said
 * why); STEP_STOP: a budget, ^C or an error ended the survey.
 */
enum step_end survey_step(struct survey *s, const struct opts *o,
			  enum phase ph, const char *what)
{
	struct step *st = &s->step[s->n];
	int ew = o->test == &testdesc_find_erase;
	struct io_stats before;
	char err[MSG_MAX];
	struct run r;
	double est;
	int ret;

	if (s->n == MAX_STEPS) {
		survey_stop(s, EXIT_PARTIAL, "%d steps: the search did not settle",
			    MAX_STEPS);
		return STEP_STOP;
	}
	if (o->test->validate(o, s->d, err, sizeof(err))) {
		survey_note(s, "survey: skipping %s: %s", what, err);
		return STEP_SKIP;
	}
	memset(st, 0, sizeof(*st));
	snprintf(st->what, sizeof(st->what), "%s", what);
	command_line(s, o, st->cmd, sizeof(st->cmd));
	ret = run_prepare(&r, o, s->d);
	if (ret) {
		run_free(&r);
		if (vm_stop)	/* ^C during the dry run */
			survey_interrupted(s);
		survey_stop(s, EXIT_FAILURE, "%s: %s", what, strerror(-ret));
		return STEP_STOP;
	}
	est = survey_est_run(s, o, &r);
	if (survey_budget_cut(s, (double)r.plan.io.bytes_written, est,
			      ew ? "step (the erase size from writes, "
			      "--find-erase)" : "step") ||
	    (o->test->writes && !s->writing && begin_writes(s, o, &r, est))) {
		run_free(&r);
		return STEP_STOP;
	}
	step_show(s, st, &r.plan.io, ph, est, what);
	/*
	 * The ramp is started only where its whole worst case (both AUs of
	 * every stream to the cap) fits --max-write, and it stops at its
	 * first step that does not hold or before one --max-time cannot
	 * hold: its own hook, not the rows'.  Nor is --find-erase cut: its
	 * rows are judged only together.
	 */
	if (o->test == &testdesc_ramp) {
		s->cut.mark_ns = survey_elapsed_ns(s);
		s->cut.stream_ns = 0;
		s->cut.ramp_streams = 0;
		s->cut.ramp_start_ns = s->cut.mark_ns;
		s->cut.ramp_start_bytes = s->d->stats.bytes_written;
		r.row_done = ramp_row_done;
	} else if (o->test->writes && !ew)
		cut_setup(s, o, &r);
	r.tick = tick;
	r.hook_arg = s;
	r.after_row = gate_wait;
	s->cur_collapsed = 0;
	before = s->d->stats;
	ret = run_execute(&r, o, s->d, s->out);
	s->cut.ramp_streams = 0;
	progress_clear(&s->pg);
	if (s->out)
		places_text(s->out, &r.tab);
	st->collapsed = s->cur_collapsed;
	st->io = s->d->stats;
	st->io.reads -= before.reads;
	st->io.writes -= before.writes;
	st->io.bytes_read -= before.bytes_read;
	st->io.bytes_written -= before.bytes_written;
	st->io.ns -= before.ns;
	s->tab[s->n++] = r.tab;
	memset(&r.tab, 0, sizeof(r.tab));
	run_free(&r);	/* r.error stays */
	if (s->done[ph] == 0)
		s->done[ph] = 1;
	analyze(s->tab, s->n, &s->ctx, &s->a);
	return step_outcome(s, &r.error, ret, what);
}

/*
 * The options of a step: the device and --count from the user, the rest
 * the survey's own choice, so no message names a value as typed.
 */
struct opts survey_step_opts(const struct survey *s)
{
	struct opts o = s->cfg->base;

	o.blocksize_arg = o.erasesize_arg = o.offset_arg = o.count_arg = NULL;
	o.nr_arg = o.fat_nr_arg = NULL;
	o.scatter_order_arg = o.scatter_span_arg = NULL;
	o.interval_order_arg = NULL;
	return o;
}

/*
 * The IOPS step's: --iops's count of places, from the write tests'
 * offset, without the sequential pass (the N=1 run has the rate).
 */
struct opts survey_iops_opts(const struct survey *s)
{
	struct opts o = survey_write_opts(s);

	o.test = &testdesc_iops_random;
	o.count = o.test->count;
	return o;
}

/*
 * Options of the write tests.  The open-AU runs start past the AUs the
 * FAT test looks at: a FAT-optimized AU among them would hold no slot
 * and pass for one more open AU.
 */
struct opts survey_write_opts(const struct survey *s)
{
	struct opts o = survey_step_opts(s);
	uint64_t off = 16ull << 20;

	o.erasesize = s->au;
	if (!o.count)
		o.count = 1;	/* one pass, as the classic write tests */
	if (off < FAT_NR * s->au)
		off = FAT_NR * s->au;
	o.offset = round_up(off, s->au);
	o.have_offset = 1;
	return o;
}
