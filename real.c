// SPDX-License-Identifier: GPL-2.0
/* The real backend: a block device or a regular file, through O_DIRECT. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dev.h"
#include "lib/clock.h"

/*
 * The block ioctls come from the libc's <sys/mount.h>, so a static build
 * (musl-gcc) needs no kernel headers; it lacks only this one, whose number
 * is part of the kernel ABI.
 */
#ifndef BLKDISCARD
#define BLKDISCARD _IO(0x12, 119)
#endif

static int open_flags(int mode)
{
	int flags = O_DIRECT | O_SYNC | O_CLOEXEC;

	if (!(mode & DEV_RDWR))
		return flags | O_RDONLY;
	flags |= O_RDWR;
	if (mode & DEV_EXCL)
		flags |= O_EXCL;
	return flags;
}

/* A regular file: real_open moves its device here. */
static const struct dev_ops file_ops;

static int query_geometry(struct dev *d, const struct stat *st, char *err,
			  size_t errlen)
{
	uint64_t size;
	int ssz, ro = 0;

	if (S_ISREG(st->st_mode)) {
		d->ops = &file_ops;
		d->size = (uint64_t)st->st_size;
		d->sector = 512;
		return 0;
	}
	if (ioctl(d->fd, BLKGETSIZE64, &size) < 0 ||
	    ioctl(d->fd, BLKSSZGET, &ssz) < 0 || ssz <= 0) {
		snprintf(err, errlen, "%s: cannot read the device size: %s",
			 d->path, strerror(errno));
		return -errno;
	}
	/* O_RDWR succeeds on a read-only block device; writes get EPERM */
	if ((d->mode & DEV_RDWR) && ioctl(d->fd, BLKROGET, &ro) == 0 && ro) {
		snprintf(err, errlen,
			 "%s: read-only; this test writes to the device",
			 d->path);
		return -EROFS;
	}
	d->size = size;
	d->sector = (uint32_t)ssz;
	return 0;
}

static int real_open(struct dev *d, const char *path, char *err,
		     size_t errlen)
{
	struct stat st;
	int ret;

	if (stat(path, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: is a directory, not a device", path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen,
			 "%s: not a block device or regular file", path);
		return -ENODEV;
	}
	d->fd = open(path, open_flags(d->mode));
	if (d->fd < 0) {
		ret = -errno;
		if (ret == -EBUSY)
			snprintf(err, errlen,
				 "%s: device is in use (mounted or claimed)",
				 path);
		else if (ret == -EROFS || (ret == -EACCES && (d->mode & DEV_RDWR)
					   && access(path, W_OK) < 0 &&
					   access(path, R_OK) == 0))
			snprintf(err, errlen,
				 "%s: read-only; this test writes to the device",
				 path);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(d->fd, &st) < 0)
		return -errno;
	ret = query_geometry(d, &st, err, errlen);
	if (ret) {
		close(d->fd);
		d->fd = -1;
	}
	return ret;
}

/*
 * One syscall per timed window; short transfers continue with the rest
 * and EINTR is retried, both outside the window.
 */
static int timed_xfer(struct dev *d, int write, void *buf, uint64_t len,
		      uint64_t off, uint64_t *ns)
{
	uint64_t done = 0, t0, t1;
	ssize_t n;

	*ns = 0;
	while (done < len) {
		t0 = now_ns();
		if (write)
			n = pwrite(d->fd, (char *)buf + done, len - done,
				   (off_t)(off + done));
		else
			n = pread(d->fd, (char *)buf + done, len - done,
				  (off_t)(off + done));
		t1 = now_ns();
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return write ? -ENOSPC : -ENXIO;
		*ns += t1 - t0;
		done += (uint64_t)n;
	}
	return 0;
}

static int real_read(struct dev *d, void *buf, uint64_t len, uint64_t off,
		     uint64_t *ns)
{
	return timed_xfer(d, 0, buf, len, off, ns);
}

static int real_write(struct dev *d, const void *buf, uint64_t len,
		      uint64_t off, uint64_t *ns)
{
	return timed_xfer(d, 1, (void *)buf, len, off, ns);
}

/* Time from t0 and the status of a discard that returned ret. */
static int discarded(int ret, uint64_t t0, uint64_t *ns)
{
	*ns = now_ns() - t0;
	if (ret < 0)
		return errno == ENOTTY || errno == EINVAL ? -EOPNOTSUPP : -errno;
	return 0;
}

static int block_discard(struct dev *d, uint64_t off, uint64_t len,
			 uint64_t *ns)
{
	uint64_t range[2] = { off, len };
	uint64_t t0 = now_ns();

	return discarded(ioctl(d->fd, BLKDISCARD, range), t0, ns);
}

static int file_discard(struct dev *d, uint64_t off, uint64_t len,
			uint64_t *ns)
{
	uint64_t t0 = now_ns();

	return discarded(fallocate(d->fd, FALLOC_FL_PUNCH_HOLE |
				   FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len),
			 t0, ns);
}

static void real_close(struct dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* Every path not taken by another backend opens here, as a block device. */
const struct dev_ops real_ops = {
	.name = "block",
	.caps = DEV_CAP_MEDIUM_SIZE | DEV_CAP_SYSFS,
	.open = real_open,
	.read = real_read,
	.write = real_write,
	.discard = block_discard,
	.close = real_close,
};

static const struct dev_ops file_ops = {
	.name = "file",
	.open = real_open,
	.read = real_read,
	.write = real_write,
	.discard = file_discard,
	.close = real_close,
};
