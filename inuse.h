/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_INUSE_H
#define FLASHBENCH_INUSE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Is the block device at path, or one of its partitions, mounted, an
 * active swap area, or held by another driver (device-mapper, LVM, RAID)?
 * Returns 1 with a line such as "/dev/sdb1 is mounted on /mnt" in msg,
 * else 0.  Regular files and sim: devices are never in use.  Best effort:
 * what cannot be looked at (no /sys, no /proc) counts as not in use, as
 * O_EXCL on open still guards a mounted device.
 */
int dev_in_use(const char *path, char *msg, size_t msglen);

/*
 * Does the block device rdev, or one of its partitions, have the device
 * number dev?  (Whether a file with st_dev == dev lives on rdev.)
 */
int dev_contains(dev_t rdev, dev_t dev);

#endif
