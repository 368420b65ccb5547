// SPDX-License-Identifier: GPL-2.0
/*
 * What the survey prints around its steps: the preamble --analyze reads
 * back, and the summary (verdicts, claims, advice, what was not done,
 * totals) as text or one JSON document.
 */
#include "survey/advice.h"
#include "output/run_json.h"
#include "survey/internal.h"
#include "lib/units.h"

static const char *const phase_name[PH_COUNT] = {
	"alignment (erase and page size)", "open-AU limit, linear",
	"open-AU limit, random", "FAT area, linear", "FAT area, random",
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

void survey_summary_text(const struct survey *s, const struct advice *adv)
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
