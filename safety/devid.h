/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_DEVID_H
#define FLASHBENCH_DEVID_H

#include <stddef.h>

/*
 * What tells the block device at path from another one attached under
 * the same name, for --restore: the disk's WWID, CID (MMC/SD), serial
 * number or USB serial, or for a loop device its backing file (device
 * and inode) and offset; for a partition, that of its disk and where it
 * starts.  An empty string for a regular file, a sim: device or a device
 * sysfs says nothing about.
 */
void dev_identity(const char *path, char *buf, size_t len);

#endif
