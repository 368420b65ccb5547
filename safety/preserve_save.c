// SPDX-License-Identifier: GPL-2.0
/*
 * --preserve: before a destructive test's first write, copy the bytes it
 * will overwrite into a new file, checksummed, synced, and marked
 * complete only once all of it is on disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "safety/devid.h"
#include "safety/inuse.h"
#include "safety/preserve_file.h"
#include "safety/safefile.h"
#include "vm.h"

static int pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pwrite(fd, (const char *)buf + done, len - done,
			   (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	return 0;
}

/* The new name must survive a power loss too, not only its data. */
static int sync_dir(const char *file)
{
	char copy[PATH_MAX];
	int fd, ret = 0;

	snprintf(copy, sizeof(copy), "%s", file);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fsync(fd) < 0 && errno != EINVAL)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Kernel file systems whose directories pass access(2) for root yet take
 * no new regular file: the save would fail only after the announcement.
 */
static const struct {
	unsigned long magic;
	const char *name;
} no_file_fs[] = {
	{ 0x9fa0, "a proc file system" },		/* PROC_SUPER_MAGIC */
	{ 0x62656572, "a sysfs file system" },	/* SYSFS_MAGIC */
	{ 0x64626720, "a debugfs file system" },	/* DEBUGFS_MAGIC */
	{ 0x73636673, "a securityfs file system" },	/* SECURITYFS_MAGIC */
	{ 0x27e0eb, "a cgroup file system" },		/* CGROUP_SUPER_MAGIC */
	{ 0x63677270, "a cgroup2 file system" },	/* CGROUP2_SUPER_MAGIC */
	{ 0x6165676c, "a pstore file system" },	/* PSTOREFS_MAGIC */
	{ 0xcafe4a11, "a bpf file system" },		/* BPF_FS_MAGIC */
};

/*
 * Whether dir takes a new file: NULL, or why not.  access(2) says EROFS
 * for a read-only mount and EACCES without permission.
 */
static const char *dir_refuses(const char *dir)
{
	struct statfs fs;
	size_t i;

	if (statfs(dir, &fs) == 0)
		for (i = 0; i < sizeof(no_file_fs) / sizeof(no_file_fs[0]); i++)
			if ((unsigned long)fs.f_type == no_file_fs[i].magic)
				return no_file_fs[i].name;
	if (access(dir, W_OK | X_OK) < 0)
		return strerror(errno);
	return NULL;
}

int preserve_check(const char *file, const struct dev *d, char *err,
		   size_t errlen)
{
	const char *no;
	char copy[PATH_MAX], why[PATH_MAX + 128];
	const char *dir;
	struct stat st;

	if (lstat(file, &st) == 0) {
		snprintf(err, errlen, "--preserve=%s: file exists; it may hold "
			 "the only copy of an earlier run's data (put it back "
			 "with --restore=%s, or remove it)", file, file);
		return -EEXIST;
	}
	snprintf(copy, sizeof(copy), "%s", file);
	dir = dirname(copy);
	if (stat(dir, &st) < 0) {
		snprintf(err, errlen, "--preserve=%s: %s", file,
			 strerror(errno));
		return -errno;
	}
	no = dir_refuses(dir);
	if (no) {
		snprintf(err, errlen, "--preserve=%s: cannot create it: %s",
			 file, no);
		return -EACCES;
	}
	if (!dev_has(d, DEV_CAP_NO_BACKING) &&
	    fs_on_storage(d->path, st.st_dev, why, sizeof(why))) {
		snprintf(err, errlen, "--preserve=%s: on %s; put it on "
			 "another disk", file, why);
		return -EINVAL;
	}
	return 0;
}

/* Copy one range of the device to the file at *pos, summing it. */
static int save_range(int fd, struct dev *d, struct prange *r, void *buf,
		      uint64_t *pos, char *err, size_t errlen)
{
	uint64_t done, len, ns;
	int ret;

	r->sum = FNV64_INIT;
	for (done = 0; done < r->len; done += len) {
		len = r->len - done < CHUNK ? r->len - done : CHUNK;
		if (vm_stop)
			return -EINTR;
		ret = dev_read(d, buf, len, r->off + done, &ns);
		if (ret) {
			snprintf(err, errlen, "reading %llu bytes at offset "
				 "%llu of %s: %s", (unsigned long long)len,
				 (unsigned long long)(r->off + done), d->path,
				 strerror(-ret));
			return ret;
		}
		r->sum = fnv64(r->sum, buf, len);
		ret = pwrite_full(fd, buf, len, *pos);
		if (ret)
			return ret;
		*pos += len;
	}
	return 0;
}

static int save_data(int fd, struct dev *d, struct phdr *h, char *err,
		     size_t errlen)
{
	uint64_t pos = h->data_off, i;
	void *buf = dev_alloc(CHUNK);
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	for (i = 0; !ret && i < h->n; i++)
		ret = save_range(fd, d, &h->r[i], buf, &pos, err, errlen);
	dev_free(buf, CHUNK);
	return ret;
}

/*
 * Placeholder header, data, fsync, then the complete header and fsync:
 * whatever is on disk after a crash is either complete or marked so.
 */
static int save_file(int fd, struct dev *d, struct phdr *h, char *err,
		     size_t errlen)
{
	unsigned char *hbuf = malloc(h->data_off);
	int ret;

	if (!hbuf)
		return -ENOMEM;
	preserve_encode(h, hbuf);
	ret = pwrite_full(fd, hbuf, h->data_off, 0);
	if (!ret)
		ret = save_data(fd, d, h, err, errlen);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (!ret) {
		h->complete = 1;
		preserve_encode(h, hbuf);
		ret = pwrite_full(fd, hbuf, h->data_off, 0);
	}
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	free(hbuf);
	return ret;
}

/*
 * "--preserve=FILE: " before the message in err (or the errno's text);
 * the message is copied whole, so a long device name keeps the reason.
 */
static void prefix_file(char *err, size_t errlen, const char *file, int ret)
{
	char *why = strdup(err[0] ? err : strerror(-ret));

	snprintf(err, errlen, "--preserve=%s: %s", file,
		 why ? why : strerror(-ret));
	free(why);
}

int preserve_save(const char *file, struct dev *d, const struct range *r,
		  size_t n, char *err, size_t errlen)
{
	struct io_stats stats = d->stats;
	struct phdr h = { .version = PRESERVE_VER, .size = d->size,
			  .sector = d->sector, .n = n };
	size_t i;
	int fd, ret;

	h.r = calloc(n ? n : 1, sizeof(*h.r));
	if (!h.r)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		h.r[i] = (struct prange){ r[i].off, r[i].len, 0 };
	preserve_dev_id(d, h.path);
	dev_identity(d->path, h.id, sizeof(h.id));
	preserve_pick_samples(&h);
	preserve_set_layout(&h);
	err[0] = '\0';
	ret = preserve_sample_sum(d, &h, &h.fp, err, errlen);
	fd = ret ? ret : create_private(file);
	if (fd < 0) {
		ret = fd;
	} else {
		ret = save_file(fd, d, &h, err, errlen);
		if (close(fd) < 0 && !ret)
			ret = -errno;
		if (!ret)
			ret = sync_dir(file);
		if (ret)
			unlink(file);
	}
	if (ret && ret != -EINTR)
		prefix_file(err, errlen, file, ret);
	d->stats = stats;
	free(h.r);
	return ret;
}
