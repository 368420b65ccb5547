/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_INUSE_H
#define FLASHBENCH_INUSE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Is the block device or image file at path in use?  What shares its
 * storage is looked at too: its partitions, the disk it is a partition
 * of, loop devices on it or on its image file (with their partitions),
 * and holders (device-mapper, LVM, RAID) built on any of these.  Any of
 * them mounted, an active swap area, or held makes it in use.  Returns 1
 * with a line such as "/dev/loop2 (on /srv/card.img) is mounted on /mnt"
 * in msg, else 0.  sim: devices are never in use.  Best effort: what
 * cannot be looked at (no /sys, no /proc) counts as not in use, as O_EXCL
 * on open still guards a mounted device.
 */
int dev_in_use(const char *path, char *msg, size_t msglen);

/*
 * Would writing to the file or block device other change target's
 * storage: the same device or file under another name, a partition or
 * holder of it, a loop device on it or on its image, or its image file?
 * Returns 1 with a phrase such as "the device under test" or "/dev/loop2
 * (on /srv/card.img), which shares storage with the device under test"
 * in why, else 0.
 */
int shares_storage(const char *target, const char *other, char *why,
		   size_t len);

/* Does the filesystem with device number fsdev live on target's storage? */
int fs_on_storage(const char *target, dev_t fsdev, char *why, size_t len);

/*
 * Is the regular file at path an active swap file?  Returns 1 with "FILE
 * is an active swap file" in msg, else 0.  The kernel refuses to write
 * one (ETXTBSY) whatever --force says.
 */
int file_is_swap(const char *path, char *msg, size_t msglen);

#endif
