// SPDX-License-Identifier: GPL-2.0
/*
 * An identity as --info prints it (one "key: value" line each) and as
 * the "identity" JSON object; and the claims the verdicts check.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/identity_out.h"
#include "lib/units.h"

static const char *yes_no(int v)
{
	return v ? "yes" : "no";
}

static void line(FILE *f, const char *key, const char *val)
{
	if (val && *val)
		fprintf(f, "%s: %s\n", key, val);
}

static void line_size(FILE *f, const char *key, uint64_t v, const char *how)
{
	char s[UNIT_BUFLEN];

	if (v)
		fprintf(f, "%s: %" PRIu64 " (%s%s%s)\n", key, v,
			fmt_size(s, (double)v), how ? "; " : "",
			how ? how : "");
}

static void scr_widths(char *buf, size_t len, unsigned w)
{
	snprintf(buf, len, "%s%s%s", w & 1 ? "1" : "",
		 (w & 1) && (w & 4) ? "," : "", w & 4 ? "4" : "");
}

static void print_cid(FILE *f, const struct identity *id)
{
	if (id->has_manfid && id->manf_hint)
		fprintf(f, "manfid: 0x%06x (%s; a hint: manufacturer ID "
			"lists are not official)\n", id->manfid, id->manf_hint);
	else if (id->has_manfid)
		fprintf(f, "manfid: 0x%06x (not in the unofficial ID lists)\n",
			id->manfid);
	line(f, "oemid", id->oemid);
	line(f, "name", id->name);
	line(f, "revision", id->revision);
	if (id->has_serial)
		fprintf(f, "serial: 0x%08x (%" PRIu32 ")\n", id->serial,
			id->serial);
	line(f, "date", id->date);
}

static void print_csd(FILE *f, const struct identity *id)
{
	const struct sd_csd *c = &id->csd;
	char a[UNIT_BUFLEN];

	if (!c->has)
		return;
	fprintf(f, "csd_version: %u.0\n", c->structure + 1);
	if (c->capacity)
		fprintf(f, "capacity: %" PRIu64 " bytes (%s, from the CSD)\n",
			c->capacity, fmt_size(a, (double)c->capacity));
	else
		fprintf(f, "capacity: not in the CSD (in EXT_CSD)\n");
	fprintf(f, "transfer_speed: %" PRIu64 " kbit/s\n",
		c->tran_speed / 1000);
	fprintf(f, "command_classes: 0x%03x\n", c->ccc);
	fprintf(f, "block_length: read %u, write %u\n", c->read_bl_len,
		c->write_bl_len);
	if (!strcmp(id->type, "SD"))
		fprintf(f, "csd_erase: single blocks %s, sector %s\n",
			yes_no(c->erase_blk_en),
			fmt_size(a, (double)c->erase_unit));
	else
		fprintf(f, "csd_erase_group: %s\n",
			fmt_size(a, (double)c->erase_unit));
	fprintf(f, "write_protect: permanent %s, temporary %s\n",
		yes_no(c->perm_wp), yes_no(c->tmp_wp));
}

static void print_scr(FILE *f, const struct sd_scr *s)
{
	char w[8];

	if (!s->has)
		return;
	scr_widths(w, sizeof(w), s->bus_widths);
	fprintf(f, "sd_spec: %s\n", s->spec);
	fprintf(f, "bus_widths: %s\n", w);
	fprintf(f, "data_after_erase: %s\n",
		s->data_stat_after_erase ? "1s" : "0s");
	fprintf(f, "sd_security: %u\n", s->security);
	fprintf(f, "cmd_support: 0x%x\n", s->cmd_support);
}

static void print_ssr(FILE *f, const struct identity *id)
{
	const struct sd_ssr *s = &id->ssr;
	char a[UNIT_BUFLEN];

	if (!strcmp(id->type, "SD") && !s->has) {
		fprintf(f, "ssr: not available (older kernels do not show "
			"it in sysfs): no AU_SIZE\n");
		return;
	}
	if (!s->has)
		return;
	fprintf(f, "speed_class: %u\n", s->speed_class);
	fprintf(f, "uhs_speed_grade: U%u\n", s->uhs_grade);
	if (s->video_class)
		fprintf(f, "video_speed_class: V%u\n", s->video_class);
	if (s->au_size)
		fprintf(f, "au_size: %" PRIu64 " (%s, SSR AU_SIZE)\n",
			s->au_size, fmt_size(a, (double)s->au_size));
	else
		fprintf(f, "au_size: not defined by the card\n");
	if (s->erase_size)
		fprintf(f, "ssr_erase: %u AUs in %u s (offset %u s)\n",
			s->erase_size, s->erase_timeout, s->erase_offset);
	if (s->app_class)
		fprintf(f, "app_class: A%u\n", s->app_class);
	fprintf(f, "discard_support: %s\n", yes_no(s->discard));
}

static void print_usb(FILE *f, const struct identity *id)
{
	line(f, "vendor", id->vendor);
	line(f, "model", id->model);
	line(f, "disk_serial", id->disk_serial);
	if (id->has_usb_id)
		fprintf(f, "usb_id: %04x:%04x\n", id->usb_vid, id->usb_pid);
}

static void print_partition(FILE *f, const struct identity *id)
{
	uint64_t au = id->au_size_bytes ? id->au_size_bytes
					: id->preferred_erase_size;
	char a[UNIT_BUFLEN];

	if (!id->is_partition)
		return;
	if (id->dev_size)
		fprintf(f, "partition_of: %s (the disk: %" PRIu64 " bytes, "
			"%s)\n", id->parent, id->dev_size,
			fmt_size(a, (double)id->dev_size));
	else
		fprintf(f, "partition_of: %s\n", id->parent);
	fprintf(f, "partition_start: %" PRIu64 "\n", id->part_start);
	if (au)
		fprintf(f, "partition_aligned: %s (to the claimed AU %s)\n",
			yes_no(id->part_start % au == 0),
			fmt_size(a, (double)au));
}

void identity_print(FILE *f, const struct identity *id)
{
	unsigned i;

	line(f, "type", *id->type ? id->type : "unknown");
	line(f, "source", id->source);
	line(f, "disk", id->disk);
	print_cid(f, id);
	print_csd(f, id);
	print_scr(f, &id->scr);
	print_ssr(f, id);
	print_usb(f, id);
	line_size(f, "preferred_erase_size", id->preferred_erase_size,
		  id->pref_source);
	line_size(f, "erase_size", id->erase_size, NULL);
	line_size(f, "discard_granularity", id->discard_granularity, NULL);
	line_size(f, "logical_block_size", id->logical_block_size, NULL);
	line_size(f, "physical_block_size", id->physical_block_size, NULL);
	/* a partition's own size: what a test on it can use */
	line_size(f, "size", id->is_partition && id->part_size ?
		  id->part_size : id->dev_size, NULL);
	if (id->rotational >= 0)
		line(f, "rotational", yes_no(id->rotational));
	print_partition(f, id);
	line(f, "note", id->note);
	for (i = 0; i < id->nwarnings; i++)
		fprintf(f, "warning: %s\n", id->warnings[i]);
}

void identity_print_prefixed(FILE *f, const struct identity *id,
			     const char *prefix)
{
	char *buf = NULL, *line, *next;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	identity_print(m, id);
	fclose(m);
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		fprintf(f, "%s%s\n", prefix, line);
	}
	free(buf);
}

static void json_u64_or_null(struct json *j, const char *key, uint64_t v)
{
	if (v)
		json_u64(j, key, v);
	else
		json_null(j, key);
}

static void json_str_or_null(struct json *j, const char *key, const char *v)
{
	json_str(j, key, v && *v ? v : NULL);
}

static void json_csd(struct json *j, const struct sd_csd *c)
{
	if (!c->has) {
		json_null(j, "csd");
		return;
	}
	json_open(j, "csd", '{');
	json_u64(j, "structure", c->structure);
	json_u64(j, "version", c->structure + 1);
	json_u64_or_null(j, "capacity_bytes", c->capacity);
	json_u64(j, "transfer_speed_bps", c->tran_speed);
	json_u64(j, "command_classes", c->ccc);
	json_u64(j, "read_block_length", c->read_bl_len);
	json_u64(j, "write_block_length", c->write_bl_len);
	json_bool(j, "erase_single_blocks", c->erase_blk_en);
	json_u64(j, "erase_unit_bytes", c->erase_unit);
	json_bool(j, "perm_write_protect", c->perm_wp);
	json_bool(j, "tmp_write_protect", c->tmp_wp);
	json_close(j, '}');
}

static void json_scr(struct json *j, const struct sd_scr *s)
{
	if (!s->has) {
		json_null(j, "scr");
		return;
	}
	json_open(j, "scr", '{');
	json_str(j, "sd_spec", s->spec);
	json_open(j, "bus_widths", '[');
	if (s->bus_widths & 1)
		json_u64(j, NULL, 1);
	if (s->bus_widths & 4)
		json_u64(j, NULL, 4);
	json_close(j, ']');
	json_bool(j, "data_stat_after_erase", s->data_stat_after_erase);
	json_u64(j, "sd_security", s->security);
	json_u64(j, "cmd_support", s->cmd_support);
	json_close(j, '}');
}

static void json_ssr(struct json *j, const struct sd_ssr *s)
{
	if (!s->has) {
		json_null(j, "ssr");
		return;
	}
	json_open(j, "ssr", '{');
	json_u64(j, "speed_class", s->speed_class);
	json_u64(j, "uhs_speed_grade", s->uhs_grade);
	json_u64(j, "video_speed_class", s->video_class);
	json_u64_or_null(j, "au_size_bytes", s->au_size);
	json_u64(j, "erase_size_aus", s->erase_size);
	json_u64(j, "erase_timeout_s", s->erase_timeout);
	json_u64(j, "erase_offset_s", s->erase_offset);
	json_u64(j, "app_perf_class", s->app_class);
	json_bool(j, "discard_support", s->discard);
	json_bool(j, "fule_support", s->fule);
	json_close(j, '}');
}

static void json_partition(struct json *j, const struct identity *id)
{
	uint64_t au = id->au_size_bytes ? id->au_size_bytes
					: id->preferred_erase_size;

	if (!id->is_partition) {
		json_null(j, "partition");
		return;
	}
	json_open(j, "partition", '{');
	json_str(j, "disk", id->parent);
	json_u64(j, "start", id->part_start);
	json_u64_or_null(j, "size", id->part_size);
	if (au)
		json_bool(j, "aligned", id->part_start % au == 0);
	else
		json_null(j, "aligned");
	json_close(j, '}');
}

static void json_card(struct json *j, const struct identity *id)
{
	if (id->has_manfid)
		json_u64(j, "manfid", id->manfid);
	else
		json_null(j, "manfid");
	json_str_or_null(j, "manufacturer_hint", id->manf_hint);
	json_str_or_null(j, "oemid", id->oemid);
	json_str_or_null(j, "name", id->name);
	json_str_or_null(j, "revision", id->revision);
	if (id->has_serial)
		json_u64(j, "serial", id->serial);
	else
		json_null(j, "serial");
	json_str_or_null(j, "date", id->date);
	json_u64_or_null(j, "capacity_bytes", id->capacity_bytes);
	json_u64_or_null(j, "au_size_bytes", id->au_size_bytes);
}

void identity_json(struct json *j, const struct identity *id)
{
	unsigned i;

	json_open(j, "identity", '{');
	json_str_or_null(j, "type", id->type);
	json_str_or_null(j, "source", id->source);
	json_str_or_null(j, "disk", id->disk);
	json_card(j, id);
	json_u64_or_null(j, "preferred_erase_size", id->preferred_erase_size);
	json_str_or_null(j, "preferred_erase_source", id->pref_source);
	json_u64_or_null(j, "erase_size", id->erase_size);
	json_u64_or_null(j, "discard_granularity", id->discard_granularity);
	json_u64_or_null(j, "logical_block_size", id->logical_block_size);
	json_u64_or_null(j, "physical_block_size", id->physical_block_size);
	json_u64_or_null(j, "size", id->dev_size);
	if (id->rotational >= 0)
		json_bool(j, "rotational", id->rotational);
	else
		json_null(j, "rotational");
	json_csd(j, &id->csd);
	json_scr(j, &id->scr);
	json_ssr(j, &id->ssr);
	json_str_or_null(j, "vendor", id->vendor);
	json_str_or_null(j, "model", id->model);
	json_str_or_null(j, "disk_serial", id->disk_serial);
	if (id->has_usb_id) {
		char usb[16];

		snprintf(usb, sizeof(usb), "%04x:%04x", id->usb_vid,
			 id->usb_pid);
		json_str(j, "usb_id", usb);
	} else {
		json_null(j, "usb_id");
	}
	json_partition(j, id);
	json_str_or_null(j, "note", id->note);
	json_open(j, "warnings", '[');
	for (i = 0; i < id->nwarnings; i++)
		json_str(j, NULL, id->warnings[i]);
	json_close(j, ']');
	json_close(j, '}');
}

/* Only what the identity knows: a report's facts may hold more. */
void identity_claims(const struct identity *id, struct analysis_ctx *ctx)
{
	if (id->preferred_erase_size) {
		ctx->preferred_erase = id->preferred_erase_size;
		ctx->preferred_erase_src = id->pref_source;
	}
	if (id->au_size_bytes)
		ctx->au_size = id->au_size_bytes;
	if (id->discard_granularity)
		ctx->discard_granularity = id->discard_granularity;
}
