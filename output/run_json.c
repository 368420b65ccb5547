// SPDX-License-Identifier: GPL-2.0
/*
 * The --json document of a run: the device, the parameters, the tables
 * with raw numbers (nanoseconds, bytes per second), the verdicts and the
 * I/O totals.
 */
#include <string.h>
#include <time.h>

#include "output/identity_out.h"
#include "lib/version.h"
#include "output/run_json.h"
#include "output/stalls.h"
#include "lib/sustain_rule.h"

void json_meta(struct json *j, const struct json_cmd *cmd)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int i;

	json_str(j, "tool", "flashbench");
	json_str(j, "version", VERSION);
	json_open(j, "command_line", '[');
	for (i = 0; i < cmd->argc; i++)
		json_str(j, NULL, cmd->argv[i]);
	json_close(j, ']');
	if (gmtime_r(&now, &tm) &&
	    strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm))
		json_str(j, "timestamp", stamp);
	else
		json_null(j, "timestamp");
}

static const char *const col_names[][4] = {
	[TAB_ALIGN] = { "pre_ns", "on_ns", "post_ns", "diff_ns" },
	[TAB_OPENAU] = { "rate_bps" },
	[TAB_ERASE] = { "aligned_ns", "aligned_bps", "misaligned_ns",
			"misaligned_bps" },
	[TAB_SCATTER] = { "ns" },
	[TAB_INTERVAL] = { "ns", "avg_ns", "max_ns" },
	[TAB_RAMP] = { "coarse_ns", "coarse_bps", "fine_ns", "fine_bps" },
	[TAB_IOPS] = { "read_ns", "write_ns", "seq_ns", "seq_bps" },
	[TAB_SUSTAINED] = { "ns", "rate_bps" },
	[TAB_EWRITE] = { "boundary_ns", "other_ns", "ratio" },
	[TAB_CAPACITY] = { "status", "holds" },
};

static const char *const key_names[] = {
	[TAB_ALIGN] = "align", [TAB_OPENAU] = "size", [TAB_SWEEP] = "size",
	[TAB_FAT] = "size", [TAB_ERASE] = "size", [TAB_SCATTER] = "offset",
	[TAB_INTERVAL] = "size", [TAB_RAMP] = "streams",
	[TAB_IOPS] = "size", [TAB_SUSTAINED] = "offset",
	[TAB_EWRITE] = "size", [TAB_CAPACITY] = "offset",
};

/* A live -a row: each place's best time before, on and after it. */
static void json_places(struct json *j, const struct table *t,
			const struct table_row *r)
{
	unsigned np = t->nkept / 3, k;
	const double *v = r->v + t->kept_from;

	json_open(j, "places", '[');
	for (k = 0; k < np; k++) {
		json_open(j, NULL, '{');
		json_u64(j, "offset", t->kept_at[k] + r->key);
		json_double(j, "pre_ns", v[k]);
		json_double(j, "on_ns", v[np + k]);
		json_double(j, "post_ns", v[2 * np + k]);
		json_close(j, '}');
	}
	json_close(j, ']');
}

static void json_rows(struct json *j, const struct table *t)
{
	size_t i;
	unsigned c;

	json_open(j, "rows", '[');
	for (i = 0; i < t->nrows; i++) {
		const struct table_row *r = &t->rows[i];

		json_open(j, NULL, '{');
		json_u64(j, key_names[t->kind], r->key);
		if (t->kind == TAB_SWEEP || t->kind == TAB_FAT) {
			json_open(j, "rates_bps", '[');
			for (c = 0; c < t->ncols; c++)
				json_double(j, NULL, r->v[c]);
			json_close(j, ']');
		} else {
			for (c = 0; c < 4 && col_names[t->kind][c]; c++)
				json_double(j, col_names[t->kind][c], r->v[c]);
		}
		if (t->kind == TAB_RAMP)
			json_bool(j, "random", r->v[4] != 0);
		if (t->kind == TAB_SUSTAINED)
			json_bool(j, "after_idle", r->v[2] != 0);
		if (t->kind == TAB_ALIGN && t->nkept)
			json_places(j, t, r);
		if (r->lat)
			latency_json(j, r->lat);
		json_close(j, '}');
	}
	json_close(j, ']');
}

void json_table(struct json *j, const struct table *t)
{
	unsigned c;

	json_open(j, NULL, '{');
	json_str(j, "kind", table_kind_name(t->kind));
	json_bool(j, "random", t->random);
	if (t->kind == TAB_SWEEP) {
		json_open(j, "open_au_nr", '[');
		for (c = 0; c < t->ncols; c++)
			json_u64(j, NULL, t->col_nr[c]);
		json_close(j, ']');
	} else if (t->kind == TAB_OPENAU) {
		json_u64(j, "open_au_nr", t->open_au_nr);
	}
	json_rows(j, t);
	json_close(j, '}');
}

static void json_params(struct json *j, const struct opts *o)
{
	json_open(j, "parameters", '{');
	json_str(j, "test", o->test->name);
	json_u64(j, "blocksize", o->blocksize);
	json_u64(j, "erasesize", o->erasesize);
	json_u64(j, "count", o->count);
	if (o->test == &testdesc_open_au) {
		json_u64(j, "open_au_nr_min", o->nr_lo);
		json_u64(j, "open_au_nr_max", o->nr_hi);
	}
	if (o->test == &testdesc_ramp && o->nr_arg)
		json_u64(j, "ramp_cap", o->nr_hi);
	/* -f writes at the start of each AU, not at --offset */
	if (o->test->writes && o->test != &testdesc_find_fat)
		json_u64(j, "offset", write_offset(o));
	if (o->test == &testdesc_find_fat)
		json_u64(j, "fat_nr", o->fat_nr);
	json_bool(j, "random", o->random);
	json_close(j, '}');
}

void json_device(struct json *j, const char *path, uint64_t size,
		 uint32_t sector)
{
	json_open(j, "device", '{');
	json_str(j, "path", path);
	json_u64(j, "size", size);
	json_u64(j, "logical_sector_size", sector);
	json_close(j, '}');
}

static void json_io(struct json *j, const struct io_stats *s)
{
	json_open(j, "io", '{');
	json_u64(j, "reads", s->reads);
	json_u64(j, "writes", s->writes);
	json_u64(j, "discards", s->discards);
	json_u64(j, "bytes_read", s->bytes_read);
	json_u64(j, "bytes_written", s->bytes_written);
	json_u64(j, "bytes_discarded", s->bytes_discarded);
	json_u64(j, "device_ns", s->ns);
	json_close(j, '}');
}

/*
 * "sustained": {"write_cache": {...}, "sustained_write": {...},
 * "cache_recovery": {...}}: the --sustained verdicts, present only with
 * its table; each "value" (bytes, bytes/s, or "yes"/"partly"/"no"/
 * "unknown"), "confidence", "evidence", and write_cache's "none_within"
 * (value is then a bound), cache_recovery's "bytes" fast again.
 */
void sustained_json(struct json *j, const struct table *tabs, size_t n)
{
	struct sus_verdict v[SUS_VERDICTS];
	size_t i, got = sus_judge_tables(tabs, n, v);

	if (!got)
		return;
	json_open(j, "sustained", '{');
	for (i = 0; i < got; i++) {
		int word = !strcmp(v[i].key, "cache_recovery");

		json_open(j, v[i].key, '{');
		if (word) {
			json_str(j, "value", v[i].value);
			json_double(j, "bytes", v[i].num);
		} else {
			json_double(j, "value", v[i].num);
		}
		if (!strcmp(v[i].key, "write_cache"))
			json_bool(j, "none_within", v[i].bound);
		json_str(j, "confidence", sus_conf_word(v[i].conf));
		json_str(j, "evidence", v[i].evidence);
		json_close(j, '}');
	}
	json_close(j, '}');
}

/* --capacity: the bound and the verdict line, once every probe is read. */
void capacity_json(struct json *j, const struct table *t)
{
	struct capacity_result res;
	char line[512];

	if (capacity_verdict(t, line, sizeof(line)) < 0)
		return;
	capacity_result(t, &res);
	json_open(j, "capacity", '{');
	json_bool(j, "as_claimed", !res.is_short);
	json_u64(j, "claimed", res.claimed);
	if (res.is_short)
		json_u64(j, "at_most", res.at_most);
	else
		json_null(j, "at_most");
	/* the end of the highest probe below the bound that read back */
	if (res.good)
		json_u64(j, "at_least", res.top + res.block);
	else
		json_null(j, "at_least");
	json_u64(j, "probes", res.probes);
	json_u64(j, "block", res.block);
	json_str(j, "verdict", line);
	json_close(j, '}');
}

void print_run_json(FILE *f, const struct json_cmd *cmd, const struct dev *d,
		    const struct identity *id, const struct run *r,
		    const struct analysis *a, int status, const char *error)
{
	struct json j;

	json_init(&j, f);
	json_open(&j, NULL, '{');
	json_meta(&j, cmd);
	json_device(&j, d->path, d->size, d->sector);
	identity_json(&j, id);
	json_params(&j, cmd->o);
	json_open(&j, "tables", '[');
	json_table(&j, &r->tab);
	json_close(&j, ']');
	analysis_json(&j, a);
	sustained_json(&j, &r->tab, 1);
	capacity_json(&j, &r->tab);
	json_io(&j, &d->stats);
	json_int(&j, "exit_status", status);
	/* absent on success: a document without it is one that worked */
	if (status && error)
		json_str(&j, "error", error);
	else if (status)
		json_null(&j, "error");
	json_close(&j, '}');
	json_end(&j);
}

/* --dry-run --json: what the run would do, and nothing measured. */
void print_plan_json(FILE *f, const struct json_cmd *cmd, const struct dev *d,
		     const struct run *r)
{
	const struct plan *p = &r->plan;
	struct json j;
	size_t i;

	json_init(&j, f);
	json_open(&j, NULL, '{');
	json_meta(&j, cmd);
	json_device(&j, d->path, d->size, d->sector);
	json_params(&j, cmd->o);
	json_bool(&j, "dry_run", 1);
	json_open(&j, "plan", '{');
	json_io(&j, &p->io);
	json_u64(&j, "largest_io", p->max_len);
	json_u64(&j, "bytes_changed", p->written);
	json_open(&j, "ranges", '[');
	for (i = 0; i < p->nranges; i++) {
		json_open(&j, NULL, '{');
		json_u64(&j, "offset", p->ranges[i].off);
		json_u64(&j, "length", p->ranges[i].len);
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_close(&j, '}');
	json_close(&j, '}');
	json_end(&j);
}
