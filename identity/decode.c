// SPDX-License-Identifier: GPL-2.0
/*
 * Identity attributes to the identity of a device: what it is, what its
 * registers say, and the warnings a user needs before trusting a
 * measurement of it.  Pure: the attributes come from sysfs, a backend or
 * a pasted report alike.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identity/decode.h"
#include "lib/units.h"

void id_attrs_set(struct id_attrs *s, const char *key, const char *val)
{
	size_t n;
	unsigned i;

	while (isspace((unsigned char)*val))
		val++;
	for (i = 0; i < s->n && strcmp(s->a[i].key, key); i++)
		;
	if (i == ID_MAX_ATTRS)
		return;
	if (i == s->n)
		s->n++;
	snprintf(s->a[i].key, ID_KEY_LEN, "%s", key);
	snprintf(s->a[i].val, ID_VAL_LEN, "%s", val);
	n = strlen(s->a[i].val);
	while (n && isspace((unsigned char)s->a[i].val[n - 1]))
		s->a[i].val[--n] = '\0';
}

const char *id_attrs_get(const struct id_attrs *s, const char *key)
{
	unsigned i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->a[i].key, key))
			return s->a[i].val;
	return NULL;
}

/* A number as sysfs prints it ("4194304", "0x000003"); 0 if absent. */
static int attr_u64(const struct id_attrs *s, const char *key, uint64_t *v)
{
	const char *t = id_attrs_get(s, key);
	char *end;

	if (!t || !isdigit((unsigned char)*t))
		return 0;
	*v = strtoull(t, &end, 0);
	return *end == '\0';
}

static uint64_t attr_or0(const struct id_attrs *s, const char *key)
{
	uint64_t v = 0;

	return attr_u64(s, key, &v) ? v : 0;
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

static void warn(struct identity *id, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct identity *id, const char *fmt, ...)
{
	va_list ap;

	if (id->nwarnings == ID_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(id->warnings[id->nwarnings++], ID_TEXT_LEN, fmt, ap);
	va_end(ap);
}

static int is_mmc_type(const struct identity *id)
{
	return !strcmp(id->type, "SD") || !strcmp(id->type, "MMC");
}

static void decode_type(const struct id_attrs *s, struct identity *id)
{
	const char *t = id_attrs_get(s, "type"), *disk = id->disk;

	if (t && (!strcmp(t, "SD") || !strcmp(t, "MMC") || !strcmp(t, "SDIO")))
		copy(id->type, sizeof(id->type), t);
	else if (id_attrs_get(s, "cid") || id_attrs_get(s, "manfid"))
		copy(id->type, sizeof(id->type), "SD");
	else if (id_attrs_get(s, "transport") &&
		 !strcmp(id_attrs_get(s, "transport"), "usb"))
		copy(id->type, sizeof(id->type), "USB");
	else if (!strncmp(disk, "nvme", 4))
		copy(id->type, sizeof(id->type), "NVMe");
	else if (!strncmp(disk, "loop", 4))
		copy(id->type, sizeof(id->type), "loop");
	else if (*disk || id_attrs_get(s, "model"))
		copy(id->type, sizeof(id->type), "disk");
}

static void set_date(struct identity *id, unsigned year, unsigned month)
{
	snprintf(id->date, sizeof(id->date), "%04u-%02u", year % 10000,
		 month % 100);
}

/* The kernel's own decoding of the CID, for cards dumped without it. */
static void cid_from_attrs(const struct id_attrs *s, struct identity *id)
{
	const char *date = id_attrs_get(s, "date");
	uint64_t v;
	unsigned m, y;

	if (attr_u64(s, "manfid", &v)) {
		id->manfid = (unsigned)v;
		id->has_manfid = 1;
	}
	if (attr_u64(s, "oemid", &v)) {
		unsigned char a = (unsigned char)(v >> 8), b = (unsigned char)v;

		if (v > 0xff && isprint(a) && isprint(b))
			snprintf(id->oemid, sizeof(id->oemid), "%c%c", a, b);
		else
			snprintf(id->oemid, sizeof(id->oemid), "0x%04x",
				 (unsigned)v & 0xffff);
	}
	copy(id->name, sizeof(id->name), id_attrs_get(s, "name"));
	if (attr_u64(s, "serial", &v)) {
		id->serial = (uint32_t)v;
		id->has_serial = 1;
	}
	if (date && sscanf(date, "%u/%u", &m, &y) == 2)
		set_date(id, y, m);
	if (attr_u64(s, "hwrev", &v))
		snprintf(id->revision, sizeof(id->revision), "%u.%u",
			 (unsigned)v, (unsigned)attr_or0(s, "fwrev"));
}

static void cid_fields(struct identity *id, const struct sd_cid *c)
{
	id->has_cid = id->has_manfid = id->has_serial = 1;
	id->manfid = c->manfid;
	copy(id->oemid, sizeof(id->oemid), c->oemid);
	copy(id->name, sizeof(id->name), c->name);
	snprintf(id->revision, sizeof(id->revision), "%u.%u", c->prv_major,
		 c->prv_minor);
	id->serial = c->serial;
	set_date(id, c->year, c->month);
}

/* A dump whose text attributes contradict its CID is not one card's. */
static void cid_vs_attrs(const struct id_attrs *s, struct identity *id)
{
	struct identity k;

	memset(&k, 0, sizeof(k));
	cid_from_attrs(s, &k);
	if (k.has_manfid && k.manfid != id->manfid)
		warn(id, "the CID says manfid 0x%06x, sysfs manfid 0x%06x",
		     id->manfid, k.manfid);
	if (*k.oemid && strcmp(k.oemid, id->oemid) && id->type[0] == 'S')
		warn(id, "the CID says oemid %s, sysfs oemid %s", id->oemid,
		     k.oemid);
	if (*k.name && strcmp(k.name, id->name))
		warn(id, "the CID says name %s, sysfs name %s", id->name,
		     k.name);
	if (k.has_serial && k.serial != id->serial)
		warn(id, "the CID says serial 0x%08x, sysfs serial 0x%08x",
		     id->serial, k.serial);
	if (*k.date && strcmp(k.date, id->date))
		warn(id, "the CID says date %s, sysfs date %s", id->date,
		     k.date);
}

static void decode_card(const struct id_attrs *s, struct identity *id)
{
	int mmc = !strcmp(id->type, "MMC");
	const char *cid = id_attrs_get(s, "cid");
	struct sd_cid c;

	if (mmc)
		mmc_csd_decode(id_attrs_get(s, "csd"), &id->csd);
	else
		sd_csd_decode(id_attrs_get(s, "csd"), &id->csd);
	if (cid && !(mmc ? mmc_cid_decode(cid, id->csd.spec_vers, &c)
			 : sd_cid_decode(cid, &c))) {
		cid_fields(id, &c);
		cid_vs_attrs(s, id);
	} else {
		cid_from_attrs(s, id);
	}
	if (id->has_manfid)
		id->manf_hint = sd_manf_hint(id->manfid, mmc);
	id->capacity_bytes = id->csd.capacity;
	if (mmc)
		return;
	sd_scr_decode(id_attrs_get(s, "scr"), &id->scr);
	sd_ssr_decode(id_attrs_get(s, "ssr"), &id->ssr);
	id->au_size_bytes = id->ssr.au_size;
}

/*
 * The kernel sets preferred_erase_size from the SSR's AU_SIZE when the
 * card gives one, else guesses from the capacity (4 MiB from 1 GiB up),
 * or for eMMC takes EXT_CSD's high-capacity erase group.
 */
static const char *pref_source(const struct identity *id)
{
	uint64_t p = id->preferred_erase_size, cap, guess;

	if (!p || !is_mmc_type(id))
		return NULL;
	if (id->au_size_bytes)
		return p == id->au_size_bytes ? "SSR AU_SIZE" : "unknown";
	cap = id->capacity_bytes ? id->capacity_bytes : id->dev_size;
	guess = cap ? sd_kernel_pref_erase(cap, id->erase_size) : 0;
	if (!strcmp(id->type, "MMC"))
		return p == guess ? "the kernel's guess from the capacity"
				  : "EXT_CSD HC_ERASE_GRP_SIZE";
	if (id->ssr.has)
		return p == guess ? "the kernel's guess from the capacity "
				    "(the card gives no AU)" : "unknown";
	if (p == guess)
		return "SSR AU_SIZE or the kernel's guess from the capacity "
		       "- no ssr in sysfs to tell";
	return "SSR AU_SIZE (not the kernel's guess from the capacity)";
}

static void decode_kernel(const struct id_attrs *s, struct identity *id)
{
	uint64_t v;

	id->preferred_erase_size = attr_or0(s, "preferred_erase_size");
	id->erase_size = attr_or0(s, "erase_size");
	id->discard_granularity = attr_or0(s, "queue/discard_granularity");
	id->logical_block_size = attr_or0(s, "queue/logical_block_size");
	id->physical_block_size = attr_or0(s, "queue/physical_block_size");
	if (attr_u64(s, "size", &v) && v < UINT64_MAX / 512)
		id->dev_size = v * 512;
	id->rotational = attr_u64(s, "queue/rotational", &v) ? (int)v : -1;
	if (attr_u64(s, "partition", &v)) {
		id->is_partition = 1;
		copy(id->parent, sizeof(id->parent), id_attrs_get(s, "parent"));
		id->part_start = attr_or0(s, "start") * 512;
		if (attr_u64(s, "partition_size", &v) && v < UINT64_MAX / 512)
			id->part_size = v * 512;
	}
}

static void decode_disk(const struct id_attrs *s, struct identity *id)
{
	const char *vendor = id_attrs_get(s, "usb/manufacturer");
	const char *model = id_attrs_get(s, "usb/product");
	const char *serial = id_attrs_get(s, "usb/serial");
	const char *vid = id_attrs_get(s, "usb/idVendor");
	const char *pid = id_attrs_get(s, "usb/idProduct");

	copy(id->vendor, sizeof(id->vendor),
	     id_attrs_get(s, "vendor") ? id_attrs_get(s, "vendor") : vendor);
	copy(id->model, sizeof(id->model),
	     id_attrs_get(s, "model") ? id_attrs_get(s, "model") : model);
	if (!serial && !is_mmc_type(id))
		serial = id_attrs_get(s, "serial");
	copy(id->disk_serial, sizeof(id->disk_serial), serial);
	if (vid && pid) {
		id->usb_vid = (unsigned)strtoul(vid, NULL, 16);
		id->usb_pid = (unsigned)strtoul(pid, NULL, 16);
		id->has_usb_id = 1;
	}
}

static void add_warnings(struct identity *id)
{
	char a[UNIT_BUFLEN], b[UNIT_BUFLEN];
	uint64_t au = id->au_size_bytes ? id->au_size_bytes
					: id->preferred_erase_size;

	if (id->capacity_bytes && id->dev_size &&
	    id->capacity_bytes != id->dev_size)
		warn(id, "the CSD says %" PRIu64 " bytes (%s) but the block "
		     "device has %" PRIu64 " (%s): a sign of a fake-capacity "
		     "card", id->capacity_bytes,
		     fmt_size(a, (double)id->capacity_bytes), id->dev_size,
		     fmt_size(b, (double)id->dev_size));
	/* loop devices say rotational whatever backs them */
	if (id->rotational == 1 && strcmp(id->type, "loop"))
		warn(id, "the kernel says the device is rotational (a hard "
		     "disk, or a virtual disk that does not say): the "
		     "open-AU model does not apply");
	else if (!strcmp(id->type, "NVMe") || strstr(id->model, "SSD"))
		warn(id, "this looks like an SSD: its translation layer "
		     "hides the erase blocks, the open-AU model does not "
		     "apply");
	if (id->is_partition && au && id->part_start % au)
		warn(id, "the partition starts at %" PRIu64 ", not a "
		     "multiple of the claimed AU %s", id->part_start,
		     fmt_size(a, (double)au));
}

static void set_note(struct identity *id)
{
	if (!strcmp(id->type, "USB"))
		copy(id->note, sizeof(id->note), "a USB reader or stick hides "
		     "the card's registers (no CID, CSD, SCR or SSR)");
	else if (!strcmp(id->type, "loop"))
		copy(id->note, sizeof(id->note), "a loop device: no "
		     "registers (the backing file is not flash)");
	else if (*id->type && !is_mmc_type(id))
		copy(id->note, sizeof(id->note), "no SD/MMC registers");
	else if (is_mmc_type(id) && !id->has_cid)
		copy(id->note, sizeof(id->note), "no cid register in the "
		     "dump: the kernel's decoded attributes only");
}

void identity_decode(const struct id_attrs *s, struct identity *id)
{
	memset(id, 0, sizeof(*id));
	copy(id->disk, sizeof(id->disk), id_attrs_get(s, "disk"));
	decode_type(s, id);
	if (is_mmc_type(id))
		decode_card(s, id);
	decode_kernel(s, id);
	decode_disk(s, id);
	id->pref_source = pref_source(id);
	add_warnings(id);
	set_note(id);
}
