// SPDX-License-Identifier: GPL-2.0
/* Finding sysfs identity dumps in report text; see sysfs_dump.h. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sysfs_dump.h"

/* What a value must look like: hex digits, 0x-hex, a date, ... */
enum shape { HEX32, HEX16, HEX128, XNUM, DATE, TYPE, NAME, DEC };

static const struct {
	const char *key;
	enum shape shape;
} known[] = {
	{ "cid", HEX32 }, { "csd", HEX32 }, { "scr", HEX16 },
	{ "ssr", HEX128 }, { "type", TYPE }, { "manfid", XNUM },
	{ "oemid", XNUM }, { "name", NAME }, { "serial", XNUM },
	{ "date", DATE }, { "hwrev", XNUM }, { "fwrev", XNUM },
	{ "prv", XNUM }, { "preferred_erase_size", DEC },
	{ "erase_size", DEC }, { "size", DEC },
	{ "queue/discard_granularity", DEC },
	{ "queue/logical_block_size", DEC },
	{ "queue/physical_block_size", DEC }, { "queue/rotational", DEC },
};

#define NKNOWN (sizeof(known) / sizeof(known[0]))

static int find_key(const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < NKNOWN; i++)
		if (strlen(known[i].key) == len &&
		    !strncmp(known[i].key, key, len))
			return (int)i;
	return -1;
}

static int all_of(const char *s, const char *set, size_t n)
{
	return strlen(s) == n && strspn(s, set) == n;
}

static int looks_like(const char *v, enum shape shape)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	size_t n = strlen(v);

	switch (shape) {
	case HEX32: return all_of(v, hex, 32);
	case HEX16: return all_of(v, hex, 16);
	case HEX128: return all_of(v, hex, 128);
	case XNUM:
		return n > 2 && n <= 10 && v[0] == '0' && v[1] == 'x' &&
		       strspn(v + 2, hex) == n - 2;
	case DATE:
		return n == 7 && v[2] == '/' &&
		       strspn(v, "0123456789") == 2 &&
		       strspn(v + 3, "0123456789") == 4;
	case TYPE:
		return !strcmp(v, "SD") || !strcmp(v, "MMC") ||
		       !strcmp(v, "SDIO");
	case NAME:
		return n && n <= 7 && !strpbrk(v, "/<>=:");
	case DEC:
		return n && n <= 19 && strspn(v, "0123456789") == n;
	}
	return 0;
}

static void expect(struct id_scan *sc, const char *key, size_t len)
{
	if (sc->nkeys == ID_SCAN_MAX || find_key(key, len) < 0)
		return;
	snprintf(sc->keys[sc->nkeys++], ID_KEY_LEN, "%.*s", (int)len, key);
}

static void set_checked(struct id_attrs *attrs, const char *key,
			const char *val)
{
	int k = find_key(key, strlen(key));

	if (k >= 0 && looks_like(val, known[k].shape))
		id_attrs_set(attrs, key, val);
}

/* The block device a /sys path is about: /sys/block/NAME/... */
static void path_disk(struct id_attrs *attrs, const char *p)
{
	const char *b = strstr(p, "/block/");
	size_t n;

	if (!b)
		return;
	b += strlen("/block/");
	n = strcspn(b, "/*{");
	if (n && n < ID_VAL_LEN && b[n] == '/' && !id_attrs_get(attrs, "disk")) {
		char name[ID_VAL_LEN];

		snprintf(name, sizeof(name), "%.*s", (int)n, b);
		id_attrs_set(attrs, "disk", name);
	}
}

/*
 * A sysfs path: the attribute (or {a,b,...} list) it names, and with
 * grep's "path:value" the value too.
 */
static void sys_path(struct id_scan *sc, struct id_attrs *attrs,
		     const char *p)
{
	const char *name = strrchr(p, '/'), *colon;
	char key[ID_KEY_LEN];

	sc->nkeys = sc->next = 0;
	path_disk(attrs, p);
	if (!name)
		return;
	name++;
	colon = strchr(name, ':');
	snprintf(key, sizeof(key), "%s%.*s",
		 strstr(p, "/queue/") ? "queue/" : "",
		 (int)(colon ? (size_t)(colon - name) : strlen(name)), name);
	if (colon) {
		set_checked(attrs, key, colon + 1);
		return;
	}
	if (*name != '{') {
		expect(sc, key, strlen(key));
		return;
	}
	for (name++; *name && *name != '}';) {
		size_t n = strcspn(name, ",}");

		expect(sc, name, n);
		name += n + (name[n] == ',');
	}
}

/* lsusb: "Bus 001 Device 024: ID 13fe:3800 Kingston ..." */
static int usb_id(struct id_attrs *attrs, const char *tok)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	char v[5];

	if (strlen(tok) != 9 || tok[4] != ':' || strspn(tok, hex) != 4 ||
	    strspn(tok + 5, hex) != 4)
		return 0;
	id_attrs_set(attrs, "transport", "usb");
	snprintf(v, sizeof(v), "%.4s", tok);
	id_attrs_set(attrs, "usb/idVendor", v);
	id_attrs_set(attrs, "usb/idProduct", tok + 5);
	return 1;
}

/* hdparm -i: "Model=SanDisk, FwRev=HDX, SerialNo=CBZ0118..." */
static void hdparm(struct id_attrs *attrs, const char *key, const char *v)
{
	char val[ID_VAL_LEN];

	snprintf(val, sizeof(val), "%.*s", (int)strcspn(v, ","), v);
	if (*val && !id_attrs_get(attrs, key))
		id_attrs_set(attrs, key, val);
}

/*
 * sysfs counts "size" in 512-byte sectors, but flashbench's own
 * "# identity: size: 7948206080 (7.402GiB)" line gives bytes: store
 * sectors either way so a survey read back keeps its card's size.
 */
static void set_value(struct id_attrs *attrs, const char *key,
		      const char *tok, int bytes)
{
	char v[24];

	if (!bytes) {
		id_attrs_set(attrs, key, tok);
		return;
	}
	snprintf(v, sizeof(v), "%" PRIu64,
		 (uint64_t)strtoull(tok, NULL, 10) / 512);
	id_attrs_set(attrs, key, v);
}

void id_scan_token(struct id_scan *sc, struct id_attrs *attrs,
		   const char *tok)
{
	size_t n = strlen(tok);
	int own;

	if (!strcmp(tok, "<=="))
		return;
	if (strstr(tok, "/sys/")) {
		sys_path(sc, attrs, tok);
		return;
	}
	if (!strncmp(tok, "MMC_TYPE=", 9)) {
		set_checked(attrs, "type", tok + 9);
		return;
	}
	if (sc->lsusb_id && usb_id(attrs, tok))
		return;
	sc->lsusb_id = !strcmp(tok, "ID");
	own = sc->own_line;
	sc->own_line = !strcmp(tok, "identity:");
	if (!strncmp(tok, "Model=", 6)) {
		hdparm(attrs, "model", tok + 6);
		return;
	}
	if (!strncmp(tok, "SerialNo=", 9)) {
		hdparm(attrs, "serial", tok + 9);
		return;
	}
	if (n > 1 && tok[n - 1] == ':' && find_key(tok, n - 1) >= 0) {
		sc->nkeys = sc->next = 0;
		sc->size_bytes = own && !strcmp(tok, "size:");
		expect(sc, tok, n - 1);
		return;
	}
	if (sc->next < sc->nkeys) {
		const char *key = sc->keys[sc->next++];
		int k = find_key(key, strlen(key));

		if (looks_like(tok, known[k].shape))
			set_value(attrs, key, tok, sc->size_bytes);
		else
			sc->next = sc->nkeys;	/* not a dump after all */
	}
}
