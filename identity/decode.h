/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_DECODE_H
#define FLASHBENCH_DECODE_H

#include <stdint.h>

#include "identity/sd_regs.h"

/*
 * What a device says about itself, as sysfs names it: "cid", "manfid",
 * "queue/discard_granularity", "usb/idVendor", ...  Every source (a sysfs
 * tree, a sim profile, an identity dump pasted in a report) reduces to
 * this, so one decoder serves them all.
 */
#define ID_MAX_ATTRS	40
#define ID_KEY_LEN	32
#define ID_VAL_LEN	132	/* an SSR: 128 hex digits */

struct id_attrs {
	unsigned n;
	struct {
		char key[ID_KEY_LEN];
		char val[ID_VAL_LEN];
	} a[ID_MAX_ATTRS];
};

/* Set key (replacing an earlier value); val is trimmed of blanks. */
void id_attrs_set(struct id_attrs *s, const char *key, const char *val);
/* The value of key, or NULL. */
const char *id_attrs_get(const struct id_attrs *s, const char *key);

#define ID_MAX_WARNINGS	8
#define ID_TEXT_LEN	200

struct identity {
	char type[8];		/* "SD", "MMC", "USB", "NVMe", "disk", "loop",
				   "file", "sim", "" when nothing is known */
	char source[256];	/* where it was read: a sysfs directory, ... */
	char disk[32];		/* the block device's name, e.g. "mmcblk0" */

	/*
	 * The card's identification: from the CID register (has_cid), else
	 * from the kernel's decoded attributes (manfid, name, ...) when a
	 * dump has only those.
	 */
	int has_cid, has_manfid, has_serial;
	unsigned manfid;
	const char *manf_hint;	/* a name from an unofficial list, or NULL */
	char oemid[8];		/* text ("SD", "TM"), or hex when not ASCII */
	char name[20];
	char revision[8];	/* "8.0" */
	uint32_t serial;
	char date[8];		/* "YYYY-MM" */

	/* decoded registers, where present (has_* in each) */
	struct sd_csd csd;
	struct sd_scr scr;
	struct sd_ssr ssr;
	uint64_t capacity_bytes;	/* from the CSD, 0 = unknown */
	uint64_t au_size_bytes;		/* from the SSR, 0 = absent */

	/* what the kernel says, 0 = absent */
	uint64_t preferred_erase_size;
	uint64_t erase_size;
	uint64_t discard_granularity;
	uint64_t logical_block_size, physical_block_size;
	uint64_t dev_size;		/* the block device's size in bytes */
	int rotational;			/* -1 = unknown */
	const char *pref_source;	/* how the kernel got
					   preferred_erase_size, or NULL */

	/* USB and other disks */
	char vendor[48], model[48], disk_serial[48];
	unsigned usb_vid, usb_pid;	/* has_usb_id: both read */
	int has_usb_id;

	/*
	 * a partition: the disk holding it, where it starts and its own
	 * size (dev_size stays the disk's: the CSD's capacity is the card's)
	 */
	int is_partition;
	char parent[32];
	uint64_t part_start;		/* bytes */
	uint64_t part_size;		/* bytes; 0: not known */

	char note[ID_TEXT_LEN];		/* e.g. why there are no registers */
	char warnings[ID_MAX_WARNINGS][ID_TEXT_LEN];
	unsigned nwarnings;
};

/*
 * Decode attrs into id (overwritten).  dev_size, if nonzero, is the size
 * the block device has (for the fake-capacity check).
 */
void identity_decode(const struct id_attrs *s, struct identity *id);

#endif
