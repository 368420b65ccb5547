/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_REPORT_IDENTITY_H
#define FLASHBENCH_REPORT_IDENTITY_H

#include "identity/decode.h"

/*
 * Identity dumps in a pasted report, read token by token (lines may be
 * collapsed by a mail archive):
 *
 *   ==> /sys/block/mmcblk0/device/cid <== 0353...	head .../device/ *
 *   cid: 0353... csd: 400e...			find -printf '%f:' -exec cat
 *   cat /sys/.../device/{manfid,oemid,name} 0x000003 0x5344 SD08G
 *   /sys/block/mmcblk0/device/cid:0353...		grep . .../device/ *
 *   MMC_TYPE=SD					uevent
 *   Bus 001 Device 024: ID 13fe:3800			lsusb
 *   Model=SanDisk, FwRev=HDX, SerialNo=CBZ01...	hdparm -i
 *
 * Each value must look like what sysfs prints for its attribute, so
 * prose after a dump is not taken for it.
 */
#define ID_SCAN_MAX 16

struct id_scan {
	char keys[ID_SCAN_MAX][ID_KEY_LEN];	/* values expected next */
	unsigned nkeys, next;
	int lsusb_id;		/* the previous token was lsusb's "ID" */
	int own_line;		/* the previous token was "identity:" */
	int size_bytes;		/* our own "identity: size:" prints bytes */
};

void id_scan_token(struct id_scan *sc, struct id_attrs *attrs,
		   const char *tok);

#endif
