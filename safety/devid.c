// SPDX-License-Identifier: GPL-2.0
/*
 * A block device's identity for --restore: what stays the same when the
 * same card or image comes back, and differs for another one.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "dev.h"
#include "safety/devid.h"
#include "identity/sysfs.h"

/* One line of DIR/ATTR without the newline; 0 or -1 (absent, empty). */
static int read_line(const char *dir, const char *attr, char *buf,
		     size_t len)
{
	char path[PATH_MAX + 32];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0] ? 0 : -1;
}

/* A loop device: what it reads from, by device and inode, and where. */
static int loop_identity(const char *dir, char *buf, size_t len)
{
	char file[PATH_MAX], off[32];
	struct stat st;

	if (read_line(dir, "loop/backing_file", file, sizeof(file)) ||
	    stat(file, &st) < 0)
		return -1;
	if (read_line(dir, "loop/offset", off, sizeof(off)))
		snprintf(off, sizeof(off), "0");
	snprintf(buf, len, "loop device on %s (device %u:%u inode %llu) at "
		 "offset %s", file, major(st.st_dev), minor(st.st_dev),
		 (unsigned long long)st.st_ino, off);
	return 0;
}

/* The first of the names the hardware gives the disk. */
static void disk_identity(const char *dir, const struct id_attrs *s,
			  char *buf, size_t len)
{
	static const char *const keys[] = { "cid", "serial", "usb/serial" };
	char v[256];
	const char *k;
	size_t i;

	if (loop_identity(dir, buf, len) == 0)
		return;
	/* SCSI and NVMe disks: not among the attributes identity/sysfs.c reads */
	if (read_line(dir, "wwid", v, sizeof(v)) == 0 ||
	    read_line(dir, "device/wwid", v, sizeof(v)) == 0 ||
	    read_line(dir, "serial", v, sizeof(v)) == 0) {
		snprintf(buf, len, "%s", v);
		return;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		k = id_attrs_get(s, keys[i]);
		if (k && k[0]) {
			snprintf(buf, len, "%s %s", keys[i], k);
			return;
		}
	}
}

void dev_identity(const char *path, char *buf, size_t len)
{
	struct id_attrs s;
	char dir[PATH_MAX];
	const char *start;
	struct stat st;
	size_t n;

	buf[0] = '\0';
	if (!dev_path_has(path, DEV_CAP_SYSFS) || stat(path, &st) < 0 ||
	    !S_ISBLK(st.st_mode) || sysfs_block_attrs(path, &s, dir,
						      sizeof(dir)))
		return;
	start = id_attrs_get(&s, "start");
	if (start)
		/* a partition: its disk is the parent directory */
		*strrchr(dir, '/') = '\0';
	disk_identity(dir, &s, buf, len);
	n = strlen(buf);
	if (start)
		snprintf(buf + n, len - n, "%spartition at sector %s",
			 n ? ", " : "", start);
}
