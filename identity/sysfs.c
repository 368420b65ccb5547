// SPDX-License-Identifier: GPL-2.0
/*
 * Reading what the kernel says about a block device from sysfs; the test
 * build reads the tree $FLASHBENCH_SYSFS names instead of /sys.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "identity/sysfs.h"

/*
 * Only the test build takes another tree from the environment: the
 * installed binary may run under sudo, and the identity --restore checks
 * must not be one the caller's environment can replace.
 */
const char *sysfs_root(void)
{
#ifdef FLASHBENCH_TEST_HOOKS
	const char *r = getenv("FLASHBENCH_SYSFS");

	if (r && *r)
		return r;
#endif
	return "/sys";
}

/*
 * An attribute opened without blocking, and read only if it is a regular
 * file: a FIFO or a device in a (copied) tree must not hang --info.
 */
static FILE *open_attr(const char *path)
{
	struct stat st;
	FILE *f;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

/* One attribute's first line into s under key; absent files are skipped. */
static void read_attr(struct id_attrs *s, const char *dir, const char *file,
		      const char *key)
{
	char path[PATH_MAX], buf[ID_VAL_LEN];
	FILE *f;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    sizeof(path))
		return;
	f = open_attr(path);
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		id_attrs_set(s, key, buf);
	}
	fclose(f);
}

static void read_list(struct id_attrs *s, const char *dir, const char *sub,
		      const char *const *names, const char *prefix)
{
	char file[ID_KEY_LEN + 16], key[ID_KEY_LEN];
	size_t i;

	for (i = 0; names[i]; i++) {
		snprintf(file, sizeof(file), "%s%s", sub, names[i]);
		snprintf(key, sizeof(key), "%s%s", prefix, names[i]);
		read_attr(s, dir, file, key);
	}
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The device's directory: by device number for a device node (whatever
 * its name, e.g. /dev/disk/by-id/...), else by the name's last part.
 */
static int find_dir(const char *path, char *dir, size_t len)
{
	const char *root = sysfs_root(), *base;
	char link[2 * PATH_MAX], real[PATH_MAX];
	struct stat st;

	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode)) {
		snprintf(link, sizeof(link), "%s/dev/block/%u:%u", root,
			 major(st.st_rdev), minor(st.st_rdev));
		if (realpath(link, real) && is_dir(real))
			goto found;
	}
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	snprintf(link, sizeof(link), "%s/class/block/%s", root, base);
	if (!realpath(link, real) || !is_dir(real)) {
		snprintf(link, sizeof(link), "%s/block/%s", root, base);
		if (!realpath(link, real) || !is_dir(real))
			return -ENOENT;
	}
found:
	if ((size_t)snprintf(dir, len, "%s", real) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* The USB device above a disk (the one with idVendor), if any. */
static void read_usb(struct id_attrs *s, const char *disk)
{
	static const char *const usb[] = {
		"idVendor", "idProduct", "serial", "manufacturer", "product",
		NULL,
	};
	char path[PATH_MAX], real[PATH_MAX], *slash;
	size_t rootlen;

	snprintf(path, sizeof(path), "%s/device", disk);
	if (!realpath(path, real) || !realpath(sysfs_root(), path))
		return;
	rootlen = strlen(path);
	while (strlen(real) > rootlen) {
		char probe[PATH_MAX + 16];

		snprintf(probe, sizeof(probe), "%s/idVendor", real);
		if (access(probe, R_OK) == 0) {
			id_attrs_set(s, "transport", "usb");
			read_list(s, real, "", usb, "usb/");
			return;
		}
		slash = strrchr(real, '/');
		if (!slash)
			return;
		*slash = '\0';
	}
}

static void read_disk(struct id_attrs *s, const char *disk)
{
	static const char *const dev[] = {
		"type", "cid", "csd", "scr", "ssr", "manfid", "oemid", "name",
		"serial", "date", "hwrev", "fwrev", "prv",
		"preferred_erase_size", "erase_size", "vendor", "model", "rev",
		"firmware_rev", NULL,
	};
	static const char *const queue[] = {
		"discard_granularity", "discard_max_bytes",
		"logical_block_size", "physical_block_size", "rotational",
		NULL,
	};
	static const char *const top[] = { "size", "removable", "ro", NULL };

	read_list(s, disk, "device/", dev, "");
	read_list(s, disk, "queue/", queue, "queue/");
	read_list(s, disk, "", top, "");
	read_usb(s, disk);
}

int sysfs_block_attrs(const char *path, struct id_attrs *s, char *dir,
		      size_t len)
{
	char part[PATH_MAX], probe[PATH_MAX + 16];
	const char *base;
	char *slash;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = find_dir(path, dir, len);
	if (ret)
		return ret;
	base = strrchr(dir, '/');
	id_attrs_set(s, "disk", base ? base + 1 : dir);
	snprintf(probe, sizeof(probe), "%s/partition", dir);
	if (access(probe, R_OK) != 0) {
		read_disk(s, dir);
		return 0;
	}
	/* a partition: its own start and size, the card is its disk's */
	read_attr(s, dir, "partition", "partition");
	read_attr(s, dir, "start", "start");
	read_attr(s, dir, "size", "partition_size");
	snprintf(part, sizeof(part), "%s", dir);
	slash = strrchr(part, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	base = strrchr(part, '/');
	id_attrs_set(s, "parent", base ? base + 1 : part);
	read_disk(s, part);
	return 0;
}
