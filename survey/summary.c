// SPDX-License-Identifier: GPL-2.0
/*
 * What the survey prints around its steps: the preamble --analyze reads
 * back, and the summary (verdicts, claims, advice, what was not done,
 * totals) as text or one JSON document.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/claims.h"
#include "survey/advice.h"
#include "output/run_json.h"
#include "survey/internal.h"
#include "lib/latency.h"
#include "lib/units.h"

/* Room for a capacity verdict line: capacity.c's are under 512 bytes. */
#define CAP_LINE 512
/* The write latency quantile the stalls line names besides the slowest. */
#define STALL_QUANTILE 0.999

/* The worst write latencies of the survey: which row, in which step. */
struct stalls {
	const struct table_row *max, *tail;	/* slowest write; worst p99.9 */
	size_t max_step, tail_step;
	uint64_t over, threshold_ns;		/* writes over threshold_ns */
};

static void find_stalls(const struct survey *s, struct stalls *w)
{
	size_t i, r;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < s->n; i++)
		for (r = 0; r < s->tab[i].nrows; r++) {
			const struct table_row *row = &s->tab[i].rows[r];

			if (!row->lat || !row->lat->count)
				continue;
			w->over += row->lat->over;
			w->threshold_ns = row->lat->threshold_ns;
			if (!w->max || row->lat->max_ns > w->max->lat->max_ns) {
				w->max = row;
				w->max_step = i;
			}
			if (!w->tail || latency_quantile(row->lat, STALL_QUANTILE) >
			    latency_quantile(w->tail->lat, STALL_QUANTILE)) {
				w->tail = row;
				w->tail_step = i;
			}
		}
}

static void stalls_text(const struct survey *s, FILE *f)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN], c[UNIT_BUFLEN], d[UNIT_BUFLEN];
	char e[UNIT_BUFLEN];
	struct stalls w;

	find_stalls(s, &w);
	if (!w.max) {
		fprintf(f, "# stalls: not measured (no write was timed)\n");
		return;
	}
	fprintf(f, "# stalls: slowest write %s at %s in step %zu (%s); worst "
		"p99.9 %s at %s in step %zu (%s); %llu write%s over %s\n",
		fmt_time(a, (double)w.max->lat->max_ns),
		fmt_size(b, (double)w.max->key), w.max_step + 1,
		s->step[w.max_step].what,
		fmt_time(c, (double)latency_quantile(w.tail->lat,
						     STALL_QUANTILE)),
		fmt_size(d, (double)w.tail->key), w.tail_step + 1,
		s->step[w.tail_step].what, (unsigned long long)w.over,
		w.over == 1 ? "" : "s", fmt_time(e, (double)w.threshold_ns));
}

static void stalls_json(const struct survey *s, struct json *j)
{
	struct stalls w;

	find_stalls(s, &w);
	if (!w.max) {
		json_null(j, "stalls");
		return;
	}
	json_open(j, "stalls", '{');
	json_double(j, "max_us", (double)w.max->lat->max_ns / 1e3);
	json_u64(j, "max_size", w.max->key);
	json_u64(j, "max_step", w.max_step + 1);
	json_double(j, "p999_us", (double)latency_quantile(w.tail->lat,
						STALL_QUANTILE) / 1e3);
	json_u64(j, "p999_size", w.tail->key);
	json_u64(j, "p999_step", w.tail_step + 1);
	json_u64(j, "over", w.over);
	json_double(j, "threshold_us", (double)w.threshold_ns / 1e3);
	json_close(j, '}');
}

/*
 * The sequential write rate: AU-sized writes in order, the first row of
 * a linear open-AU run at N=1, as the speed classes count it; NAN: none
 * ran.
 */
static double seq_rate(const struct survey *s)
{
	double best = NAN;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct table *t = &s->tab[i];

		if (t->kind == TAB_OPENAU && !t->random &&
		    t->open_au_nr == 1 && t->nrows &&
		    t->rows[0].key == t->erasesize &&
		    !(t->rows[0].v[0] <= best))
			best = t->rows[0].v[0];
	}
	return best;
}

/* The IOPS step's figures; 0 where it did not run. */
static int survey_iops(const struct survey *s, struct iops_figures *f)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (iops_figures(&s->tab[i], f))
			return 1;
	return 0;
}

/*
 * The classes the card's SD Status states, against what the survey
 * measured: a line each, as text lines or JSON strings (j); where it
 * states none, the classes the IOPS step and the sequential rate reach
 * (nothing where that step did not run).
 */
static void class_claims(const struct survey *s, FILE *f, struct json *j)
{
	const struct sd_ssr *r = &s->id.ssr;
	const struct claims_stated st = {
		.readable = r->has, .speed_class = r->speed_class,
		.uhs_grade = r->uhs_grade, .video_class = r->video_class,
		.app_class = r->app_class,
	};
	struct claims_measured m = { NAN, NAN, seq_rate(s) / 1e6 };
	struct iops_figures io;
	char *buf = NULL, *line, *next;
	size_t len = 0;
	FILE *mem;

	if (survey_iops(s, &io)) {
		m.read_iops = io.read_iops;
		m.write_iops = io.write_iops;
	} else if (!r->has || !(r->speed_class || r->uhs_grade ||
				r->video_class || r->app_class)) {
		return;
	}
	mem = open_memstream(&buf, &len);
	if (!mem)
		return;
	claims_print(mem, &m, &st);
	fclose(mem);
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (j)
			json_str(j, NULL, line);
		else
			fprintf(f, "# %s\n", line);
	}
	free(buf);
}

/* The IOPS step's figures, null where it did not run. */
static void iops_json(const struct survey *s, struct json *j)
{
	struct iops_figures io;

	if (!survey_iops(s, &io)) {
		json_null(j, "iops");
		return;
	}
	json_open(j, "iops", '{');
	json_double(j, "read", io.read_iops);
	json_double(j, "write", io.write_iops);
	json_close(j, '}');
}

static const char *const phase_name[PH_COUNT] = {
	[PH_ALIGN] = "alignment (erase and page size)",
	[PH_CAPACITY] = "capacity check",
	[PH_OPEN_LIN] = "open-AU limit, linear",
	[PH_OPEN_RAND] = "open-AU limit, random",
	[PH_FAT_LIN] = "FAT area, linear", [PH_FAT_RAND] = "FAT area, random",
	[PH_IOPS] = "random 4KiB IOPS",
};

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

/* The capacity check's table; NULL: it did not run. */
static const struct table *capacity_table(const struct survey *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->tab[i].kind == TAB_CAPACITY)
			return &s->tab[i];
	return NULL;
}

/* Its verdict among the others, as the step printed it. */
static void capacity_text(const struct survey *s, FILE *f)
{
	const struct table *t = capacity_table(s);
	char line[CAP_LINE];

	if (t && capacity_verdict(t, line, sizeof(line)) >= 0)
		fprintf(f, "# %s\n", line);
}

void survey_summary_text(const struct survey *s, const struct advice *adv)
{
	FILE *f = s->out;

	fprintf(f, "\n# summary: verdicts\n");
	analysis_print(f, &s->a, "# ");
	capacity_text(s, f);
	claims(s, f);
	class_claims(s, f, NULL);
	stalls_text(s, f);
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

void survey_summary_json(const struct survey *s, const struct advice *adv,
			FILE *f)
{
	const struct io_stats *io = &s->d->stats;
	struct json j;
	size_t i;

	json_init(&j, f);
	json_open(&j, NULL, '{');
	json_meta(&j, &s->cfg->cmd);
	json_device(&j, s->d->path, s->d->size, s->d->sector);
	identity_json(&j, &s->id);
	json_open(&j, "steps", '[');
	for (i = 0; i < s->n; i++)
		json_step(&j, s, i);
	json_close(&j, ']');
	analysis_json(&j, &s->a);
	if (capacity_table(s))
		capacity_json(&j, capacity_table(s));
	json_double(&j, "sequential_write_bps", seq_rate(s));
	iops_json(s, &j);
	json_open(&j, "class_claims", '[');
	class_claims(s, f, &j);
	json_close(&j, ']');
	stalls_json(s, &j);
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
void survey_preamble(const struct survey *s)
{
	if (!s->out)
		return;
	fprintf(s->out, "# flashbench --survey %s\n", s->d->path);
	if (s->ctx.dev_size)
		fprintf(s->out, "# Disk %s: %llu bytes\n", s->d->path,
			(unsigned long long)s->ctx.dev_size);
	identity_print_prefixed(s->out, &s->id, "# identity: ");
}
