// SPDX-License-Identifier: GPL-2.0
/*
 * Advice from verdicts: where partitions start and how file systems
 * should be laid out on the card, each piece as sure as the verdicts it
 * follows from.  Nothing is advised from a verdict that found nothing.
 */
#include <string.h>

#include "survey/advice.h"
#include "lib/units.h"

#define F2FS_SEGMENT (2ull << 20)
#define EXT4_BLOCK 4096ull
#define FAT_MAX_CLUSTER (64ull << 10)

static int known(const struct verdict *v)
{
	return v->type != V_NONE && !v->is_null && v->conf > CONF_INCONCLUSIVE;
}

static struct advice_item *add(struct advice *adv, const char *key,
			       const struct verdict *v, const char *from,
			       const struct verdict *v2, const char *from2)
{
	struct advice_item *it = &adv->item[adv->n++];

	memset(it, 0, sizeof(*it));
	it->key = key;
	it->from[0] = from;
	it->conf = v->conf;
	if (v2) {
		it->from[1] = from2;
		if (v2->conf < it->conf)
			it->conf = v2->conf;
	}
	return it;
}

/*
 * The first partition starts one erase block in (the classic layout of
 * SD cards: the FAT-optimized area, when there is one, is usually the
 * second AU, where the file system's FAT then lands) and ends on an
 * erase block.
 */
static void partition(struct advice *adv, const struct verdict *e,
		      uint64_t dev_size, unsigned sector)
{
	uint64_t align = e->value / sector, total = dev_size / sector;
	struct advice_item *it = add(adv, "partition", e, "erase_size",
				     NULL, NULL);
	char a[UNIT_BUFLEN];

	if (total > align)
		snprintf(it->text, sizeof(it->text),
			 "label: dos\nstart=%llu, size=%llu, type=83",
			 (unsigned long long)align,
			 (unsigned long long)((total - align) / align * align));
	else
		snprintf(it->text, sizeof(it->text),
			 "label: dos\nstart=%llu, size=<a multiple of %llu>, "
			 "type=83", (unsigned long long)align,
			 (unsigned long long)align);
	snprintf(it->why, sizeof(it->why),
		 "an sfdisk script: start and size in %u-byte sectors, "
		 "multiples of the %s erase block", sector, fmt_size(a, (double)e->value));
}

static void ext4(struct advice *adv, const struct verdict *e,
		 const struct verdict *p)
{
	struct advice_item *it;
	uint64_t stride = 1;

	if (known(p) && p->value >= EXT4_BLOCK)
		stride = p->value / EXT4_BLOCK;
	it = add(adv, "mkfs.ext4", e, "erase_size", known(p) ? p : NULL,
		 "page_size");
	snprintf(it->text, sizeof(it->text),
		 "mkfs.ext4 -b 4096 -E stride=%llu,stripe_width=%llu",
		 (unsigned long long)stride,
		 (unsigned long long)(e->value / EXT4_BLOCK));
	snprintf(it->why, sizeof(it->why),
		 "stride: one %s, stripe_width: one erase block, in 4KiB "
		 "blocks", known(p) ? "page" : "4KiB block (page unknown)");
}

static void f2fs(struct advice *adv, const struct verdict *e)
{
	struct advice_item *it = add(adv, "mkfs.f2fs", e, "erase_size", NULL,
				     NULL);
	uint64_t secs = e->value / F2FS_SEGMENT;

	if (e->value % F2FS_SEGMENT || !secs) {
		snprintf(it->text, sizeof(it->text), "mkfs.f2fs -s 1");
		snprintf(it->why, sizeof(it->why),
			 "segments are 2MiB; the erase block is not a "
			 "multiple of one, so a section is one segment");
		return;
	}
	snprintf(it->text, sizeof(it->text), "mkfs.f2fs -s %llu",
		 (unsigned long long)secs);
	snprintf(it->why, sizeof(it->why),
		 "segments are 2MiB; a section of %llu segments is one "
		 "erase block", (unsigned long long)secs);
}

static void vfat(struct advice *adv, const struct verdict *e,
		 const struct verdict *p, unsigned sector)
{
	struct advice_item *it = add(adv, "mkfs.vfat", p, "page_size", e,
				     "erase_size");
	uint64_t cluster = p->value < FAT_MAX_CLUSTER ? p->value :
			   FAT_MAX_CLUSTER;
	char a[UNIT_BUFLEN];

	snprintf(it->text, sizeof(it->text), "mkfs.vfat -F 32 -s %llu",
		 (unsigned long long)(cluster / sector));
	snprintf(it->why, sizeof(it->why),
		 "%s clusters; mkfs.vfat aligns the data area to the cluster "
		 "(its default, no -a), on a partition that starts on an "
		 "erase block", fmt_size(a, (double)cluster));
}

static void open_files(struct advice *adv, const struct verdict *o,
		       const struct verdict *r)
{
	struct advice_item *it = add(adv, "files_at_once", o,
				     "open_au_linear", NULL, NULL);
	unsigned long long n = o->value;

	snprintf(it->text, sizeof(it->text),
		 "%s%llu file%s written at once, sequentially%s",
		 o->at_least ? "at least " : "", n > 1 ? n - 1 : n,
		 n == 2 ? "" : "s",
		 known(r) && r->value == 0 ? "; avoid small random writes" :
		 "");
	snprintf(it->why, sizeof(it->why),
		 "the card keeps %s%llu AUs open for linear writes; one goes "
		 "to the file system's own metadata", o->at_least ?
		 "at least " : "", n);
}

void advise(const struct analysis *a, uint64_t dev_size, unsigned sector,
	    struct advice *out)
{
	const struct verdict *e = &a->erase_size, *p = &a->page_size;

	memset(out, 0, sizeof(*out));
	if (known(e) && e->value % sector == 0) {
		partition(out, e, dev_size, sector);
		ext4(out, e, p);
		f2fs(out, e);
	}
	if (known(p) && p->value % sector == 0)
		vfat(out, e, p, sector);
	if (known(&a->open_au_linear) && a->open_au_linear.value > 0)
		open_files(out, &a->open_au_linear, &a->open_au_random);
}

void advice_print(FILE *f, const struct advice *adv, const char *prefix)
{
	const char *line, *nl;
	size_t i;

	for (i = 0; i < adv->n; i++) {
		const struct advice_item *it = &adv->item[i];

		fprintf(f, "%sadvice %s (%s, from %s%s%s): %s:\n", prefix,
			it->key, confidence_name(it->conf), it->from[0],
			it->from[1] ? " and " : "",
			it->from[1] ? it->from[1] : "", it->why);
		for (line = it->text; *line; line = nl + !!*nl) {
			nl = strchrnul(line, '\n');
			fprintf(f, "%s    %.*s\n", prefix, (int)(nl - line),
				line);
		}
	}
}

void advice_json(struct json *j, const struct advice *adv)
{
	size_t i, k;

	json_open(j, "advice", '[');
	for (i = 0; i < adv->n; i++) {
		const struct advice_item *it = &adv->item[i];

		json_open(j, NULL, '{');
		json_str(j, "key", it->key);
		json_str(j, "text", it->text);
		json_str(j, "confidence", confidence_name(it->conf));
		json_open(j, "from", '[');
		for (k = 0; k < 2 && it->from[k]; k++)
			json_str(j, NULL, it->from[k]);
		json_close(j, ']');
		json_str(j, "why", it->why);
		json_close(j, '}');
	}
	json_close(j, ']');
}
