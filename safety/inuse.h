/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_INUSE_H
#define FLASHBENCH_INUSE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
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
 * Does the kernel hold the block device (a mount, swap, a holder)?  Then
 * no exclusive open succeeds, and --force cannot get past it.
 */
int held_by_kernel(const char *path);

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

/* A block device that shares a target's storage, for locking it. */
struct sharer {
	dev_t dev;
	dev_t disk;			/* a partition's disk, else dev */
	char node[NAME_MAX + 8];	/* "/dev/loop1" */
	char desc[PATH_MAX + NAME_MAX + 16]; /* "/dev/loop1 (on /x.img)" */
};

struct sharers {
	struct sharer *s;	/* every one, the target itself included */
	size_t n;
	dev_t tdev;		/* the target's device number, 0 for a file */
	dev_t tdisk;		/* and its disk */
	/*
	 * The image file under the target (the target itself, or the one
	 * a loop device reads from) while a name still reaches it, else
	 * empty; and the bytes of it the target stands for, len 0 for all.
	 */
	char file[PATH_MAX];
	uint64_t start, len;
};

/*
 * The block devices that share the storage of target, a block device or
 * image file, and the image file under it: 0, or -ENODEV for what has no
 * storage to share (a sim: device), -ENOMEM.  sharers_free() after 0.
 */
int sharers_load(const char *target, struct sharers *sh);
void sharers_free(struct sharers *sh);

#endif
