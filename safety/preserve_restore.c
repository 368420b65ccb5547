// SPDX-License-Identifier: GPL-2.0
/*
 * --restore: put a --preserve file back, verified.  The file is checked
 * whole and against the device before the first write; the data is
 * read back after it.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safety/devid.h"
#include "safety/preserve_file.h"
#include "safety/safefile.h"
#include "lib/msg.h"
#include "lib/units.h"
#include "safety/gate.h"

/* Size and sector size: without both, no range could be trusted. */
static int check_geometry(const struct phdr *h, const struct dev *d,
			  const char *file, char *err, size_t errlen)
{
	char path[PATH_MAX], a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	if (h->size == d->size && h->sector == d->sector)
		return 0;
	preserve_dev_id(d, path);
	snprintf(err, errlen, "%s: made for %s (%llu bytes, %s, %u-byte "
		 "sectors), not %s (%llu bytes, %s, %u-byte sectors); nothing "
		 "written", file, h->path, (unsigned long long)h->size,
		 fmt_size(a, (double)h->size), h->sector, path,
		 (unsigned long long)d->size, fmt_size(b, (double)d->size),
		 d->sector);
	return -EINVAL;
}

/* Why a block of len bytes at off cannot be written to d, or NULL. */
static const char *bad_block(uint64_t off, uint64_t len, uint64_t prev_end,
			     const struct dev *d)
{
	if (len == 0)
		return "is empty";
	if (off % d->sector || len % d->sector)
		return "is not aligned to the sector size";
	if (off > d->size || len > d->size - off)
		return "ends past the end of the device";
	if (off < prev_end)
		return "overlaps the one before or is out of order";
	return NULL;
}

/*
 * Every range and sample whole before the first write: a range found bad
 * halfway would leave the device half restored.
 */
static int check_ranges(const struct phdr *h, const struct dev *d,
			const char *file, char *err, size_t errlen)
{
	uint64_t i, end = 0;
	const char *why = NULL;

	for (i = 0; !why && i < h->n; i++) {
		why = bad_block(h->r[i].off, h->r[i].len, end, d);
		end = h->r[i].off + h->r[i].len;
	}
	if (why) {
		i--;
		snprintf(err, errlen, "%s: corrupt range table: range %llu "
			 "(%llu bytes at offset %llu) %s; nothing written",
			 file, (unsigned long long)i,
			 (unsigned long long)h->r[i].len,
			 (unsigned long long)h->r[i].off, why);
		return -EBADMSG;
	}
	for (i = 0; !why && i < h->nsamples; i++)
		why = h->sample_len > FP_MAX_LEN ? "is too long" :
		      bad_block(h->sample[i], h->sample_len, 0, d);
	if (why) {
		snprintf(err, errlen, "%s: corrupt header: fingerprint sample "
			 "%llu %s; nothing written", file,
			 (unsigned long long)(i - 1), why);
		return -EBADMSG;
	}
	return 0;
}

/* Append "; text" (or "text" first) to buf of len bytes. */
static void add_diff(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_diff(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(buf + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/*
 * Whether d is the device the file was saved from: its name, what sysfs
 * calls it, and the fingerprint.  -EINVAL, naming what differs.
 */
static int check_identity(const struct phdr *h, struct dev *d,
			  const char *file, char *err, size_t errlen)
{
	char path[PATH_MAX], id[ID_MAX], diff[2 * PATH_MAX + 2 * ID_MAX];
	uint64_t fp;
	int ret;

	diff[0] = '\0';
	preserve_dev_id(d, path);
	if (strcmp(path, h->path))
		add_diff(diff, sizeof(diff), "saved from %s, not %s", h->path,
			 path);
	if (h->version == 1) {
		add_diff(diff, sizeof(diff), "made by an older flashbench, "
			 "which did not record which device it was");
	} else {
		dev_identity(d->path, id, sizeof(id));
		if (strcmp(id, h->id))
			add_diff(diff, sizeof(diff), "saved from %s, this is "
				 "%s", h->id[0] ? h->id : "a device without "
				 "serial", id[0] ? id : "a device without one");
		ret = preserve_sample_sum(d, h, &fp, err, errlen);
		if (ret)
			return ret;
		if (fp != h->fp)
			add_diff(diff, sizeof(diff), "the %u blocks sampled "
				 "outside the saved ranges have changed",
				 h->nsamples);
	}
	if (!diff[0])
		return 0;
	snprintf(err, errlen, "%s: not the device it was saved from: %s; "
		 "nothing written (use --force if %s is that device)", file,
		 diff, d->path);
	return -EINVAL;
}

enum pass { PASS_CHECK_FILE, PASS_WRITE, PASS_VERIFY };

static const char *const pass_io[] = {
	[PASS_CHECK_FILE] = "reading", [PASS_WRITE] = "writing",
	[PASS_VERIFY] = "reading back",
};

/* One pass over a range in chunks; the sum of what was read in *sum. */
static int range_pass(int fd, struct dev *d, const struct prange *r,
		      uint64_t pos, void *buf, enum pass pass, uint64_t *sum,
		      char *err, size_t errlen)
{
	uint64_t done, len, ns;
	int ret;

	*sum = FNV64_INIT;
	for (done = 0; done < r->len; done += len) {
		len = r->len - done < CHUNK ? r->len - done : CHUNK;
		if (pass == PASS_VERIFY) {
			/* what was just written must not pass for read back */
			memset(buf, 0, len);
			ret = dev_read(d, buf, len, r->off + done, &ns);
		} else {
			ret = preserve_pread(fd, buf, len, pos + done);
		}
		if (!ret && pass == PASS_WRITE)
			ret = dev_write(d, buf, len, r->off + done, &ns);
		if (ret) {
			snprintf(err, errlen, "%s %llu bytes at offset %llu "
				 "of %s: %s", pass_io[pass],
				 (unsigned long long)len,
				 (unsigned long long)(pass == PASS_CHECK_FILE ?
						      pos + done :
						      r->off + done),
				 pass == PASS_CHECK_FILE ? "the file" : d->path,
				 strerror(-ret));
			return ret;
		}
		*sum = fnv64(*sum, buf, len);
	}
	return 0;
}

static int all_ranges(int fd, struct dev *d, const struct phdr *h,
		      void *buf, enum pass pass, char *err, size_t errlen)
{
	uint64_t pos = h->data_off, i, sum;
	int ret;

	for (i = 0; i < h->n; pos += h->r[i].len, i++) {
		ret = range_pass(fd, d, &h->r[i], pos, buf, pass, &sum, err,
				 errlen);
		if (ret)
			return ret;
		if (pass == PASS_WRITE || sum == h->r[i].sum)
			continue;
		if (pass == PASS_CHECK_FILE) {
			snprintf(err, errlen, "checksum of range %llu-%llu "
				 "does not match: the file is corrupt; the "
				 "device was not written",
				 (unsigned long long)h->r[i].off,
				 (unsigned long long)(h->r[i].off +
						      h->r[i].len - 1));
			return -EBADMSG;
		}
		snprintf(err, errlen, "verification failed: bytes %llu-%llu "
			 "of %s differ from the saved data after writing it "
			 "back", (unsigned long long)h->r[i].off,
			 (unsigned long long)(h->r[i].off + h->r[i].len - 1),
			 d->path);
		return -EIO;
	}
	return 0;
}

/* The file's own checksums first: never write a corrupt copy back. */
static int restore_data(int fd, struct dev *d, const struct phdr *h,
			char *err, size_t errlen)
{
	void *buf = dev_alloc(CHUNK);
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = all_ranges(fd, d, h, buf, PASS_CHECK_FILE, err, errlen);
	if (!ret)
		ret = all_ranges(fd, d, h, buf, PASS_WRITE, err, errlen);
	if (!ret)
		ret = all_ranges(fd, d, h, buf, PASS_VERIFY, err, errlen);
	dev_free(buf, CHUNK);
	return ret;
}

/* Everything that can be known before the first write, then the write. */
static int do_restore(const char *file, struct dev *d, int force,
		      const char *announce, char *msg, size_t msglen)
{
	struct phdr h = { .r = NULL };
	char err[PATH_MAX + 256] = "", size[UNIT_BUFLEN];
	int fd, ret;

	fd = open_trusted(file, msg, msglen);
	if (fd < 0)
		return fd;
	ret = preserve_load_header(fd, file, &h, msg, msglen);
	if (!ret)
		ret = check_geometry(&h, d, file, msg, msglen);
	if (!ret)
		ret = check_ranges(&h, d, file, msg, msglen);
	if (!ret && !force)
		ret = check_identity(&h, d, file, msg, msglen);
	if (!ret && announce) {
		tell("%s\n", announce);
		gate_wait();
	}
	if (!ret) {
		ret = restore_data(fd, d, &h, err, sizeof(err));
		if (ret)
			snprintf(msg, msglen, "restoring from %s: %s", file,
				 err[0] ? err : strerror(-ret));
	}
	if (!ret)
		snprintf(msg, msglen, "restored %s in %llu range%s from %s, "
			 "checksums verified",
			 fmt_size(size, (double)h.total),
			 (unsigned long long)h.n, h.n == 1 ? "" : "s", file);
	close(fd);
	free(h.r);
	return ret;
}

int preserve_restore(const char *file, struct dev *d, int force,
		     const char *announce, char *msg, size_t msglen)
{
	struct io_stats stats = d->stats;
	sigset_t block, old;
	int ret;

	/* A second ^C must not leave the device half restored. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigprocmask(SIG_BLOCK, &block, &old);
	ret = do_restore(file, d, force, announce, msg, msglen);
	sigprocmask(SIG_SETMASK, &old, NULL);
	d->stats = stats;
	return ret;
}
