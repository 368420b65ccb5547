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
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "survey/advice.h"
#include "safety/gate.h"
#include "lib/extent.h"
#include "lib/msg.h"
#include "output/run_json.h"
#include "safety/signals.h"
#include "survey/internal.h"
#include "lib/text.h"
#include "lib/units.h"

#define ALIGN_ROUNDS 3
/* Before any write is measured: a guess, replaced as soon as one is. */
#define GUESS_RATE 10e6

static const char *const phase_name[PH_COUNT] = {
	"alignment (erase and page size)", "open-AU limit, linear",
	"open-AU limit, random", "FAT area, linear", "FAT area, random",
};

static void note(struct survey *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A line on stderr, off the progress line; names in it made safe. */
static void note(struct survey *s, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;

	progress_clear(&s->pg);
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	tell("%s", msg ? msg : "out of memory");
	free(msg);
}

/* Time spent so far: device time on the sim, wall time on real cards. */
static double elapsed_ns(const struct survey *s)
{
	double dev = (double)(s->d->stats.ns - s->base.ns);
	double wall = (double)(now_ns() - s->t0);

	return dev > wall ? dev : wall;
}

static void command_line(const struct survey *s, const struct opts *o,
			 char *buf, size_t len)
{
	size_t n;

	if (o->test == &testdesc_align)
		n = (size_t)snprintf(buf, len, "flashbench -a --blocksize=%llu"
				     " --count=%u", (unsigned long long)
				     o->blocksize, o->count);
	else if (o->test == &testdesc_open_au)
		n = (size_t)snprintf(buf, len, "flashbench -O --erasesize=%llu"
				     " --blocksize=%llu --open-au-nr=%u"
				     " --offset=%llu%s",
				     (unsigned long long)o->erasesize,
				     (unsigned long long)o->blocksize,
				     o->nr_lo, (unsigned long long)o->offset,
				     o->random ? " --random" : "");
	else
		n = (size_t)snprintf(buf, len, "flashbench -f --erasesize=%llu"
				     " --blocksize=%llu --fat-nr=%u%s",
				     (unsigned long long)o->erasesize,
				     (unsigned long long)o->blocksize,
				     o->fat_nr, o->random ? " --random" : "");
	if (n < len)
		snprintf(buf + n, len - n, " %s", s->d->path);
}

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
static unsigned series_rows(uint64_t es, uint64_t bs, unsigned sector)
{
	unsigned n = 0;

	for (; es && es >= bs && es % sector == 0; es /= 2)
		n++;
	return n;
}

unsigned survey_full_rows(const struct survey *s)
{
	return series_rows(s->au, s->full_bs, s->d->sector);
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
 * Row hook of the linear FAT run: an AU that stands out in three sizes
 * already is a verdict a fourth would only repeat (no AU standing out
 * needs four to be sure).
 */
static int fat_settled(void *arg, const struct table *t)
{
	struct survey *s = arg;
	struct analysis a;

	if (t->random || t->nrows < 3 || s->n == MAX_STEPS)
		return 0;
	survey_analyze_with(s, t, &a);
	return a.fat_aus.type == V_LIST && a.fat_aus.nlist &&
	       a.fat_aus.conf == CONF_HIGH;
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
 * Time of a write run: rows from the AU down, aus AUs each.  In a
 * collapsing run every write also copies the rest of an AU, which
 * roughly doubles the time of each row from the second on.
 */
double survey_est_write(const struct survey *s, uint64_t bs, unsigned aus,
			unsigned rows, int collapse)
{
	uint64_t len = s->au;
	double ns = 0;
	unsigned i;

	for (i = 0; i < rows && len >= bs; i++, len /= 2)
		ns += (double)aus * (double)s->au * 1e9 / write_rate(s, len) *
		      (collapse && i ? (double)(1u << i) * 0.75 : 1);
	return ns;
}

/* Time per read, from the alignment tables so far (pre column). */
static double read_ns(const struct survey *s)
{
	size_t i;

	for (i = s->n; i-- > 0;)
		if (s->tab[i].kind == TAB_ALIGN && s->tab[i].nrows)
			return s->tab[i].rows[s->tab[i].nrows - 1].v[0];
	return 1e6;
}

static double est_run(const struct survey *s, const struct opts *o,
		      const struct run *r)
{
	unsigned rows = series_rows(o->erasesize, o->blocksize, s->d->sector);

	if (!o->test->writes)
		return (double)r->plan.io.reads * read_ns(s);
	if (o->test == &testdesc_find_fat)
		return survey_est_write(s, o->blocksize, o->fat_nr, rows, 0);
	/* a probe that holds stops early */
	if (s->cur_probe && open_au_probe_rows(s) < rows)
		rows = open_au_probe_rows(s);
	return survey_est_write(s, o->blocksize, o->nr_lo, rows, 0);
}

static void stop(struct survey *s, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void stop(struct survey *s, int status, const char *fmt, ...)
{
	va_list ap;

	if (s->stopped[0])
		return;
	s->status = status;
	va_start(ap, fmt);
	vsnprintf(s->stopped, sizeof(s->stopped), fmt, ap);
	va_end(ap);
}

static void interrupted(struct survey *s)
{
	char sig[32];
	int n = s->cfg->stop_signal();

	stop(s, 128 + n, "interrupted by %s", signal_name(n, sig, sizeof(sig)));
}

/* Budgets are checked before a step: one that would overrun is not run. */
static int over_budget(struct survey *s, const struct run *r, double est)
{
	const struct survey_cfg *c = s->cfg;
	uint64_t written = s->d->stats.bytes_written - s->base.bytes_written;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	if (c->max_write && written + r->plan.io.bytes_written > c->max_write) {
		stop(s, 0, "--max-write=%s reached: %s written, the next step "
		     "writes %s", fmt_size(a, (double)c->max_write),
		     fmt_size(b, (double)written),
		     fmt_size(b, (double)r->plan.io.bytes_written));
		return 1;
	}
	if (c->max_time && elapsed_ns(s) + est > (double)c->max_time) {
		stop(s, 0, "--max-time=%s reached: %s spent, the next step "
		     "takes about %s", fmt_duration(a, (double)c->max_time),
		     fmt_duration(b, elapsed_ns(s)), fmt_duration(b, est));
		return 1;
	}
	return 0;
}

static int begin_writes(struct survey *s);

static void forecast(const struct survey *s, enum phase from, int worst,
		     struct cost *c);

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
		note(s, "survey step %zu: %s (about %s)", s->n + 1, st->what,
		     fmt_duration(t, s->pg.run_ns));
}

/*
 * Run one step.  STEP_SKIP: the options do not fit the device (said
 * why); STEP_STOP: a budget, ^C or an error ended the survey.
 */
enum step_end survey_step(struct survey *s, const struct opts *o,
			  enum phase ph, const char *what)
{
	struct step *st = &s->step[s->n];
	struct io_stats before;
	struct cost rest;
	char err[MSG_MAX];
	struct run r;
	double est;
	int ret;

	if (s->n == MAX_STEPS) {
		stop(s, 0, "%d steps: the search did not settle", MAX_STEPS);
		return STEP_STOP;
	}
	if (o->test->validate(o, s->d, err, sizeof(err))) {
		note(s, "survey: skipping %s: %s", what, err);
		return STEP_SKIP;
	}
	memset(st, 0, sizeof(*st));
	snprintf(st->what, sizeof(st->what), "%s", what);
	command_line(s, o, st->cmd, sizeof(st->cmd));
	ret = run_prepare(&r, o, s->d);
	if (ret) {
		run_free(&r);
		if (vm_stop)	/* ^C during the dry run */
			interrupted(s);
		stop(s, EXIT_FAILURE, "%s: %s", what, strerror(-ret));
		return STEP_STOP;
	}
	est = est_run(s, o, &r);
	if (over_budget(s, &r, est) || (o->test->writes && !s->writing &&
					begin_writes(s))) {
		run_free(&r);
		return STEP_STOP;
	}
	s->pg.done_ns = elapsed_ns(s);
	s->pg.run_ns = est;
	forecast(s, ph == PH_ALIGN ? PH_OPEN_LIN : ph, 0, &rest);
	s->pg.rest_ns = ph == PH_ALIGN ? rest.ns :
			rest.ns > est ? rest.ns - est : 0;
	progress_run(&s->pg, s->d, (double)(r.plan.io.reads + r.plan.io.writes),
		     (double)(r.plan.io.bytes_read + r.plan.io.bytes_written),
		     "survey");
	snprintf(s->pg.label, sizeof(s->pg.label), "survey step %zu, %s",
		 s->n + 1, what);
	step_heading(s, st);
	progress_show(&s->pg);
	if (o->test == &testdesc_open_au)
		r.row_done = open_au_row_done;
	else if (o->test == &testdesc_find_fat)
		r.row_done = fat_settled;
	r.tick = tick;
	r.hook_arg = s;
	r.after_row = gate_wait;
	s->cur_collapsed = 0;
	before = s->d->stats;
	ret = run_execute(&r, o, s->d, s->out);
	progress_clear(&s->pg);
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
	/* | head: a broken pipe on the results stops it as a signal does */
	if ((ret == -EINTR || r.error.output) && vm_stop) {
		interrupted(s);
		return STEP_STOP;
	}
	if (r.error.output) {
		stop(s, EXIT_IO, "writing the results to %s: %s",
		     s->cfg->out_name, strerror(-ret));
		return STEP_STOP;
	}
	if (ret) {
		stop(s, EXIT_FAILURE, "%s %llu bytes at offset %llu: %s",
		     io_kind_name(r.error.io), (unsigned long long)r.error.len,
		     (unsigned long long)r.error.off, strerror(-ret));
		return STEP_STOP;
	}
	return STEP_OK;
}

static int same_verdict(const struct verdict *a, const struct verdict *b)
{
	return a->is_null == b->is_null && a->value == b->value &&
	       a->conf == b->conf;
}

/*
 * The options of a step: the device and --count from the user, the rest
 * the survey's own choice, so no message names a value as typed.
 */
static struct opts step_opts(const struct survey *s)
{
	struct opts o = s->cfg->base;

	o.blocksize_arg = o.erasesize_arg = o.offset_arg = o.count_arg = NULL;
	o.nr_arg = o.fat_nr_arg = NULL;
	o.scatter_order_arg = o.scatter_span_arg = NULL;
	o.interval_order_arg = NULL;
	return o;
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
	struct opts o = step_opts(s);
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
 * Options of the write tests.  The open-AU runs start past the AUs the
 * FAT test looks at: a FAT-optimized AU among them would hold no slot
 * and pass for one more open AU.
 */
struct opts survey_write_opts(const struct survey *s)
{
	struct opts o = step_opts(s);
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

/* The largest N whose AUs fit after the write offset. */
static unsigned fit_nr(const struct survey *s)
{
	struct opts o = survey_write_opts(s);
	uint64_t off = o.offset, aus;

	if (off >= s->d->size)
		return 0;
	aus = (s->d->size - off) / s->au;
	if (!aus)
		return 0;
	aus = (aus - 1) / AU_SPACING + 1;
	return aus < MAX_NR ? (unsigned)aus : MAX_NR;
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
	s->nmax = fit_nr(s);
	return s->nmax > 0;
}

/* Everything the survey may write: the FAT AUs and every open-AU AU. */
static size_t regions(const struct survey *s, struct range *r)
{
	struct opts o = survey_write_opts(s);
	struct extents e = { 0 };
	uint64_t off = o.offset;
	size_t n;
	unsigned k;
	int ret = extents_add(&e, 0, (uint64_t)FAT_NR * s->au);

	for (k = 0; !ret && k < s->nmax; k++)
		ret = extents_add(&e, off + (uint64_t)k * AU_SPACING * s->au,
				  s->au);
	n = ret ? 0 : e.n;
	memcpy(r, e.r, n * sizeof(*r));
	extents_free(&e);
	return n;
}

static void print_plan(struct survey *s, const struct range *r, size_t n)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN], d[UNIT_BUFLEN];
	FILE *f = s->out ? s->out : stderr;
	struct opts o = survey_write_opts(s);
	struct cost typ, worst;
	uint64_t total = 0, off = o.offset;
	size_t i;

	for (i = 0; i < n; i++)
		total += r[i].len;
	forecast(s, PH_OPEN_LIN, 0, &typ);
	forecast(s, PH_OPEN_LIN, 1, &worst);
	progress_clear(&s->pg);
	fprintf(f, "\n# plan: erase size %s; open-AU search up to N=%u, "
		"probes as deep as collapses show, full runs down to %s; FAT "
		"area over %u AUs\n", fmt_size(a, (double)s->au), s->nmax,
		fmt_size(c, (double)s->full_bs), FAT_NR);
	fprintf(f, "# plan: writes only within %s of %s: the FAT area "
		"0-%llu and %u AUs of %s every %s from %llu to %llu\n",
		fmt_size(a, (double)total), s->d->path,
		(unsigned long long)(FAT_NR * s->au - 1), s->nmax,
		fmt_size(b, (double)s->au),
		fmt_size(c, (double)(AU_SPACING * s->au)),
		(unsigned long long)off,
		(unsigned long long)(r[n - 1].off + r[n - 1].len - 1));
	fprintf(f, "# plan: writes about %s in about %s (a card keeping 8 AUs "
		"open, 1 for random writes), at most %s in %s (one keeping "
		"%u); estimated from the reads, refined as it goes\n",
		fmt_size(a, typ.bytes), fmt_duration(b, typ.ns),
		fmt_size(c, worst.bytes), fmt_duration(d, worst.ns), s->nmax);
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
			interrupted(s);
		stop(s, EXIT_FAILURE, "not confirmed; nothing was written");
		return -1;
	}
	return 0;
}

static int begin_writes(struct survey *s)
{
	struct range r[MAX_NR + 1];
	size_t n = regions(s, r);
	int ret;

	print_plan(s, r, n);
	if (confirm(s))
		return -1;
	if (s->cfg->save) {
		ret = s->cfg->save(s->cfg->save_arg, s->d, r, n);
		if (ret) {
			stop(s, ret, "--preserve failed; nothing was written");
			return -1;
		}
	}
	s->writing = 1;
	return 0;
}

unsigned survey_fat_rows(const struct survey *s)
{
	return series_rows(s->au, s->fat_bs, s->d->sector);
}

/*
 * What is left from phase from on, for a typical card (8 AUs open, 1
 * for random writes) or, worst, one that keeps every AU tried open.
 */
static void forecast(const struct survey *s, enum phase from, int worst,
		     struct cost *c)
{
	unsigned lin = worst || s->nmax < 8 ? s->nmax : 8;
	unsigned rnd = worst ? lin : 1;
	int r;

	memset(c, 0, sizeof(*c));
	if (!s->au)
		return;
	for (r = 0; r < 2; r++)
		if ((int)from <= PH_OPEN_LIN + r)
			open_au_forecast(s, r, r ? rnd : lin, c);
	/* the random FAT test runs only where the linear one is unsure */
	for (r = 0; r < 1 + worst; r++) {
		if ((int)from > PH_FAT_LIN + r)
			continue;
		c->bytes += (double)FAT_NR * survey_fat_rows(s) * (double)s->au;
		c->ns += survey_est_write(s, s->fat_bs, FAT_NR,
					  survey_fat_rows(s), r);
	}
}

/*
 * A card remembers: AUs the last runs left open hold its slots (in the
 * sim, random-capable ones too), and the next run would measure that.
 * Discarding what they wrote gives it its fresh state back, before each
 * write run; a device without discard keeps its state, as a card
 * measured by hand would.
 */
void survey_reset_card(struct survey *s)
{
	struct opts o = survey_write_opts(s);
	uint64_t off = o.offset, ns;
	unsigned k;
	int ret = 0;

	if (s->fat_dirty)
		ret = dev_discard(s->d, 0, FAT_NR * s->au, &ns);
	for (k = 0; !ret && k < s->dirty; k++)
		ret = dev_discard(s->d, off + (uint64_t)k * AU_SPACING * s->au,
				  s->au, &ns);
	if (ret && !s->no_discard && s->out)
		fprintf(s->out, "\n# reset: cannot discard (%s): the card "
			"keeps the state each run leaves\n", strerror(-ret));
	s->no_discard |= ret != 0;
	s->dirty = 0;
	s->fat_dirty = 0;
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

static void undone(const struct survey *s, FILE *f, const char *prefix)
{
	static const char *const how[] = { "not done", "partly done" };
	size_t i;
	int k, any;

	for (k = 0; k < 2; k++) {
		any = 0;
		for (i = 0; i < PH_COUNT; i++) {
			if (s->done[i] != k)
				continue;
			fprintf(f, "%s%s", any ? "; " : "", any ? "" : prefix);
			if (!any)
				fprintf(f, "%s: ", how[k]);
			fputs(phase_name[i], f);
			any = 1;
		}
		if (any)
			fputc('\n', f);
	}
}

static void totals(const struct survey *s, FILE *f, const char *prefix)
{
	const struct io_stats *io = &s->d->stats;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN];

	fprintf(f, "%ssurvey: %zu steps, %s read, %s written, device time %s"
		"\n", prefix, s->n, fmt_size(a, (double)io->bytes_read),
		fmt_size(b, (double)io->bytes_written),
		fmt_duration(c, (double)io->ns));
}

/* What the card claims, against what was measured. */
static void claims(const struct survey *s, FILE *f)
{
	const struct verdict *e = &s->a.erase_size;
	char a[UNIT_BUFLEN];
	unsigned i;

	if (!e->nclaims)
		fprintf(f, "# claims: none the device reports\n");
	for (i = 0; i < e->nclaims; i++) {
		const struct claim *c = &e->claims[i];

		fprintf(f, "# claims: %s %s%s%s, %s\n", c->name,
			fmt_size(a, (double)c->bytes), c->source ? " from " : "",
			c->source ? c->source : "", c->agrees < 0 ?
			"nothing measured to check it against" : c->agrees ?
			"agrees with the measured erase size" :
			"differs from the measured erase size");
	}
}

static void summary_text(const struct survey *s, const struct advice *adv)
{
	FILE *f = s->out;

	fprintf(f, "\n# summary: verdicts\n");
	analysis_print(f, &s->a, "# ");
	claims(s, f);
	advice_print(f, adv, "# ");
	if (s->stopped[0])
		fprintf(f, "# stopped: %s\n", s->stopped);
	undone(s, f, "# ");
	totals(s, f, "# ");
}

static void json_step(struct json *j, const struct survey *s, size_t i)
{
	const struct step *st = &s->step[i];

	json_open(j, NULL, '{');
	json_str(j, "what", st->what);
	json_str(j, "command", st->cmd);
	json_u64(j, "device_ns", st->io.ns);
	json_u64(j, "bytes_written", st->io.bytes_written);
	json_u64(j, "bytes_read", st->io.bytes_read);
	json_bool(j, "stopped_collapsing", st->collapsed);
	json_open(j, "tables", '[');
	json_table(j, &s->tab[i]);
	json_close(j, ']');
	json_close(j, '}');
}

static void summary_json(const struct survey *s, const struct advice *adv,
			 FILE *f)
{
	const struct io_stats *io = &s->d->stats;
	struct json j;
	size_t i;

	json_init(&j, f);
	json_open(&j, NULL, '{');
	json_meta(&j, s->cfg->fr);
	json_device(&j, s->d->path, s->d->size, s->d->sector);
	identity_json(&j, &s->id);
	json_open(&j, "steps", '[');
	for (i = 0; i < s->n; i++)
		json_step(&j, s, i);
	json_close(&j, ']');
	analysis_json(&j, &s->a);
	advice_json(&j, adv);
	json_open(&j, "undone", '[');
	for (i = 0; i < PH_COUNT; i++)
		if (s->done[i] != 2)
			json_str(&j, NULL, phase_name[i]);
	json_close(&j, ']');
	json_str(&j, "stopped", s->stopped[0] ? s->stopped : NULL);
	json_open(&j, "io", '{');
	json_u64(&j, "reads", io->reads);
	json_u64(&j, "writes", io->writes);
	json_u64(&j, "bytes_read", io->bytes_read);
	json_u64(&j, "bytes_written", io->bytes_written);
	json_u64(&j, "device_ns", io->ns);
	json_close(&j, '}');
	json_int(&j, "exit_status", s->status);
	json_close(&j, '}');
	json_end(&j);
}

/* Facts --analyze reads back: the device size, what sysfs claims. */
static void preamble(const struct survey *s)
{
	if (!s->out)
		return;
	fprintf(s->out, "# flashbench --survey %s\n", s->d->path);
	if (s->ctx.dev_size)
		fprintf(s->out, "# Disk %s: %llu bytes\n", s->d->path,
			(unsigned long long)s->ctx.dev_size);
	identity_print_prefixed(s->out, &s->id, "# identity: ");
}

static void survey_steps(struct survey *s)
{
	if (align_phase(s))
		return;
	if (!geometry(s)) {
		stop(s, 0, "no erase size sure enough to run the write tests "
		     "with (see erase_size); the open-AU and FAT tests need "
		     "one: run -a with other block sizes, then -O and -f with "
		     "--erasesize");
		return;
	}
	if (open_au_search(s, 0) || open_au_search(s, 1) || fat_phase(s, 0))
		return;
	fat_phase(s, 1);
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
	preamble(s);
	survey_steps(s);
	progress_clear(&s->pg);
	advise(&s->a, s->ctx.dev_size, d->sector, &adv);
	if (cfg->json)
		summary_json(s, &adv, out);
	else
		summary_text(s, &adv);
	if (s->stopped[0])
		note(s, "survey stopped: %s", s->stopped);
	*wrote = s->writing;
	status = s->status;
	for (i = 0; i < s->n; i++)
		table_free(&s->tab[i]);
	free(s);
	return status;
}
