/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SYSFS_H
#define FLASHBENCH_SYSFS_H

#include <stddef.h>

#include "identity/decode.h"

/*
 * Where sysfs is: /sys; in the test build (FLASHBENCH_TEST_HOOKS),
 * $FLASHBENCH_SYSFS if set (tests, copied trees).
 */
const char *sysfs_root(void);

/*
 * The attributes of the block device at path (a device node, or a name
 * sysfs knows such as "/dev/mmcblk0" when /dev lacks it), named as in
 * struct id_attrs: the card's device/ files bare ("cid", "type"), the
 * queue's as "queue/...", a USB ancestor's as "usb/...", and "disk",
 * "parent", "partition", "start", "partition_size", "transport".  dir
 * gets the sysfs directory read.  0, or -ENOENT when sysfs has no entry.
 */
int sysfs_block_attrs(const char *path, struct id_attrs *s, char *dir,
		      size_t len);

#endif
