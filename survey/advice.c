// SPDX-License-Identifier: GPL-2.0
/*
 * Advice from verdicts: where partitions start and how file systems
 * should be laid out on the card, each piece as sure as the verdicts it
 * follows from.  Nothing is advised from a verdict that found nothing.
 */
#include <string.h>

#include "survey/advice.h"
#include "lib/units.h"

/* f2fs segments are 2MiB; sections are a whole number of them (-s). */
#define F2FS_SEGMENT (2ull << 20)
/*
 * mkfs.f2fs refuses a volume that holds too few sections (measured with
 * mkfs.f2fs 1.15: 13 to 31 sections at the least, depending on -s); ask
 * for twice the worst so that the advice is one the tool accepts.
 */
#define F2FS_MIN_SECTIONS 64
#define EXT4_BLOCK 4096ull
/* The FAT specification's largest cluster; bigger ones not all read. */
#define FAT_MAX_CLUSTER (32ull << 10)
/* mkfs.fat -s: a power of two up to 128 sectors. */
#define FAT_MAX_SPC 128
/* Cluster counts that decide the FAT type (the FAT specification). */
#define FAT12_MAX_CLUSTERS 4084ull
#define FAT16_MAX_CLUSTERS 65524ull
/*
 * More than mkfs.fat puts before the data area: reserved sectors and
 * root directory (64KiB), the alignment of each to the cluster (4
 * clusters) and two FATs of 4 bytes a cluster, so that the cluster
 * count is known to within the type's bounds before the tool runs.
 */
#define FAT_FIXED_OVERHEAD (64ull << 10)
#define FAT_ALIGN_CLUSTERS 4
#define FAT_BYTES_PER_CLUSTER 8

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
 * The bytes of the partition advised below: from one erase block in to
 * the last whole erase block; 0 when the device size is not known.
 */
static uint64_t part_bytes(uint64_t au, uint64_t dev_size)
{
	if (dev_size <= au)
		return 0;
	return (dev_size - au) / au * au;
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
	uint64_t align = e->value / sector;
	uint64_t size = part_bytes(e->value, dev_size) / sector;
	struct advice_item *it = add(adv, "partition", e, "erase_size",
				     NULL, NULL);
	char a[UNIT_BUFLEN];

	if (size)
		snprintf(it->text, sizeof(it->text),
			 "label: dos\nstart=%llu, size=%llu, type=83",
			 (unsigned long long)align, (unsigned long long)size);
	else
		snprintf(it->text, sizeof(it->text),
			 "label: dos\nstart=%llu, size=<a multiple of %llu>, "
			 "type=83", (unsigned long long)align,
			 (unsigned long long)align);
	snprintf(it->why, sizeof(it->why),
		 "an sfdisk script: start and size in %u-byte sectors, "
		 "multiples of the %s erase block", sector, fmt_size(a, (double)e->value));
}

/* The page as ext4's stride when it is a whole number of 4KiB blocks. */
static int page_blocks(const struct verdict *p)
{
	return known(p) && p->value >= EXT4_BLOCK &&
	       p->value % EXT4_BLOCK == 0;
}

static void ext4(struct advice *adv, const struct verdict *e,
		 const struct verdict *p)
{
	struct advice_item *it;
	uint64_t stride = page_blocks(p) ? p->value / EXT4_BLOCK : 1;

	if (e->value % EXT4_BLOCK)
		return;
	it = add(adv, "mkfs.ext4", e, "erase_size", known(p) ? p : NULL,
		 "page_size");
	snprintf(it->text, sizeof(it->text),
		 "mkfs.ext4 -b 4096 -E stride=%llu,stripe_width=%llu",
		 (unsigned long long)stride,
		 (unsigned long long)(e->value / EXT4_BLOCK));
	snprintf(it->why, sizeof(it->why),
		 "stride: one %s, stripe_width: one erase block, in 4KiB "
		 "blocks", page_blocks(p) ? "page" : known(p) ?
		 "4KiB block (the page is not a multiple of one)" :
		 "4KiB block (page unknown)");
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * A section is the smallest whole number of segments that is also a
 * whole number of erase blocks; mkfs.f2fs starts the main area on a
 * section, so on a partition that starts on an erase block every
 * section does too.
 */
static void f2fs(struct advice *adv, const struct verdict *e,
		 uint64_t part)
{
	struct advice_item *it = add(adv, "mkfs.f2fs", e, "erase_size", NULL,
				     NULL);
	uint64_t section = e->value / gcd64(e->value, F2FS_SEGMENT) *
			   F2FS_SEGMENT;
	uint64_t secs = section / F2FS_SEGMENT;
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	fmt_size(a, (double)section);
	if (part && part / section < F2FS_MIN_SECTIONS) {
		snprintf(it->text, sizeof(it->text),
			 "none: f2fs does not fit in %llu sections of %s",
			 (unsigned long long)(part / section), a);
		snprintf(it->why, sizeof(it->why),
			 "segments are 2MiB; sections of %s are whole erase "
			 "blocks; below %d sections mkfs.f2fs refuses or has no room",
			 a, F2FS_MIN_SECTIONS);
		return;
	}
	snprintf(it->text, sizeof(it->text), "mkfs.f2fs -s %llu",
		 (unsigned long long)secs);
	if (section == e->value)
		snprintf(it->why, sizeof(it->why), "segments are 2MiB; a "
			 "section of %llu segments is one erase block",
			 (unsigned long long)secs);
	else
		snprintf(it->why, sizeof(it->why),
			 "segments are 2MiB; a section of %llu segments, %s, "
			 "is %llu %s erase blocks", (unsigned long long)secs,
			 a, (unsigned long long)(section / e->value),
			 fmt_size(b, (double)e->value));
}

/* The largest cluster mkfs.fat takes that no page boundary cuts. */
static uint64_t fat_cluster(uint64_t page, unsigned sector)
{
	uint64_t c = page & -page;	/* largest power of two dividing it */

	if (c > FAT_MAX_CLUSTER)
		c = FAT_MAX_CLUSTER;
	if (c > (uint64_t)FAT_MAX_SPC * sector)
		c = (uint64_t)FAT_MAX_SPC * sector;
	return c;
}

/*
 * The FAT type whose cluster-count range surely holds the count
 * mkfs.fat will reach on part bytes with clusters of c: 12, 16, 32, or
 * 0 when the count may fall on either side of a bound.
 */
static int fat_type(uint64_t part, uint64_t c)
{
	uint64_t hi = part / c, ovh;

	ovh = FAT_FIXED_OVERHEAD + FAT_ALIGN_CLUSTERS * c +
	      FAT_BYTES_PER_CLUSTER * (hi + 2);
	if (part <= ovh)
		return 0;
	if (hi <= FAT12_MAX_CLUSTERS)
		return 12;
	if ((part - ovh) / c > FAT16_MAX_CLUSTERS)
		return 32;
	if (hi <= FAT16_MAX_CLUSTERS &&
	    (part - ovh) / c > FAT12_MAX_CLUSTERS)
		return 16;
	return 0;
}

static void vfat(struct advice *adv, const struct verdict *e,
		 const struct verdict *p, unsigned sector, uint64_t part)
{
	struct advice_item *it;
	uint64_t cluster = fat_cluster(p->value, sector);
	int type = part ? fat_type(part, cluster) : 32;
	char a[UNIT_BUFLEN];

	while (!type && cluster > sector) {
		cluster /= 2;
		type = fat_type(part, cluster);
	}
	if (!type)
		return;
	it = add(adv, "mkfs.vfat", p, "page_size", e, "erase_size");
	snprintf(it->text, sizeof(it->text), "mkfs.vfat -F %d -s %llu", type,
		 (unsigned long long)(cluster / sector));
	snprintf(it->why, sizeof(it->why),
		 "%s clusters (a power of two no page boundary cuts); FAT%d "
		 "by their count%s; data area aligned to the cluster (no -a)",
		 fmt_size(a, (double)cluster), type,
		 part ? "" : " (65525 or more: size unknown)");
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
	if (o->upto)
		snprintf(it->why, sizeof(it->why),
			 "the card keeps between %llu and %llu AUs open for "
			 "linear writes (the runs tell no closer); one goes "
			 "to the file system's own metadata", n,
			 (unsigned long long)o->upto);
	else
		snprintf(it->why, sizeof(it->why),
			 "the card keeps %s%llu AUs open for linear writes; "
			 "one goes to the file system's own metadata",
			 o->at_least ? "at least " : "", n);
}

void advise(const struct analysis *a, uint64_t dev_size, unsigned sector,
	    struct advice *out)
{
	const struct verdict *e = &a->erase_size, *p = &a->page_size;

	memset(out, 0, sizeof(*out));
	if (known(e) && e->value % sector == 0) {
		partition(out, e, dev_size, sector);
		ext4(out, e, p);
		f2fs(out, e, part_bytes(e->value, dev_size));
	}
	if (known(p) && p->value % sector == 0)
		vfat(out, e, p, sector, known(e) ?
		     part_bytes(e->value, dev_size) : 0);
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
