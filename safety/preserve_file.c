// SPDX-License-Identifier: GPL-2.0
/*
 * --preserve and --restore: keep a copy of the bytes a destructive test
 * overwrites and put them back, verified.
 *
 * File layout, integers little-endian:
 *	 0  magic "FBPRESRV"
 *	 8  u32 version (2; version 1 had no identity and no fingerprint)
 *	12  u32 complete: set only once data and checksums are on disk
 *	16  u64 device size
 *	24  u32 logical sector size
 *	28  u32 length of the device path
 *	32  u64 number of ranges
 *	40  u64 FNV-1a 64 of the header up to the data, this field as zero
 *	48  u32 length of the device identity (devid.h)
 *	52  u32 number of fingerprint samples
 *	56  u32 length of each sample
 *	60  u32 zero
 *	64  u64 FNV-1a 64 of the samples' bytes
 *	72  device path (canonical), identity, u64 offset of each sample,
 *	    then per range u64 offset, length and FNV-1a 64 of its data,
 *	    then the data of each range in order.
 * (Version 1: the path at 48, then the ranges.)
 *
 * The fingerprint is a few blocks outside the saved ranges, which a test
 * never writes: read again before a restore, they tell whether the device
 * is still the one the data came from, where sysfs names no serial.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safety/devid.h"
#include "safety/inuse.h"
#include "safety/preserve.h"
#include "safety/safefile.h"
#include "lib/units.h"
#include "vm.h"

#define PRESERVE_MAGIC	"FBPRESRV"
#define PRESERVE_VER	2
#define FIXED_LEN_V1	48
#define FIXED_LEN	72
#define RANGE_LEN	24
#define ID_MAX		1024
#define FP_SAMPLES	8
/* A sample is one page, or one sector where sectors are larger. */
#define FP_PAGE		4096u
#define FP_MAX_LEN	(1u << 20)
/* Bounded memory whatever the size of the ranges. */
#define CHUNK		(4u << 20)
/* More ranges than any test plans: a corrupt count is caught early. */
#define MAX_RANGES	(1u << 24)

struct prange {
	uint64_t off, len, sum;
};

struct phdr {
	uint32_t version;
	uint32_t complete;
	uint64_t size;
	uint32_t sector;
	char path[PATH_MAX];
	char id[ID_MAX];
	uint32_t nsamples, sample_len;
	uint64_t sample[FP_SAMPLES];
	uint64_t fp;		/* FNV-1a 64 of the samples */
	uint64_t n;
	struct prange *r;
	uint64_t data_off;	/* where the data starts in the file */
	uint64_t total;		/* bytes of data */
};

uint64_t fnv64(uint64_t h, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static void put32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v = 0;
	int i;

	for (i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The device as the file names it: symlinks resolved where possible. */
static void dev_id(const struct dev *d, char *buf)
{
	if (!realpath(d->path, buf))
		snprintf(buf, PATH_MAX, "%s", d->path);
}

/* Where the range table starts. */
static uint64_t table_off(const struct phdr *h)
{
	if (h->version == 1)
		return FIXED_LEN_V1 + strlen(h->path);
	return FIXED_LEN + strlen(h->path) + strlen(h->id) +
	       8 * (uint64_t)h->nsamples;
}

static void set_layout(struct phdr *h)
{
	uint64_t i;

	h->data_off = table_off(h) + RANGE_LEN * h->n;
	h->total = 0;
	for (i = 0; i < h->n; i++)
		h->total += h->r[i].len;
}

/* Encode h into buf (h->data_off bytes), in the current version. */
static void encode(const struct phdr *h, unsigned char *buf)
{
	size_t plen = strlen(h->path), idlen = strlen(h->id);
	unsigned char *p = buf + FIXED_LEN + plen + idlen;
	uint64_t i;

	memset(buf, 0, FIXED_LEN);
	memcpy(buf, PRESERVE_MAGIC, 8);
	put32(buf + 8, PRESERVE_VER);
	put32(buf + 12, h->complete);
	put64(buf + 16, h->size);
	put32(buf + 24, h->sector);
	put32(buf + 28, (uint32_t)plen);
	put64(buf + 32, h->n);
	put32(buf + 48, (uint32_t)idlen);
	put32(buf + 52, h->nsamples);
	put32(buf + 56, h->sample_len);
	put64(buf + 64, h->fp);
	memcpy(buf + FIXED_LEN, h->path, plen);
	memcpy(buf + FIXED_LEN + plen, h->id, idlen);
	for (i = 0; i < h->nsamples; i++, p += 8)
		put64(p, h->sample[i]);
	for (i = 0; i < h->n; i++, p += RANGE_LEN) {
		put64(p, h->r[i].off);
		put64(p + 8, h->r[i].len);
		put64(p + 16, h->r[i].sum);
	}
	put64(buf + 40, fnv64(FNV64_INIT, buf, h->data_off));
}

static int pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(fd, (char *)buf + done, len - done,
			  (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		done += (size_t)n;
	}
	return 0;
}

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

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return v % a ? v + (a - v % a) : v;
}

/*
 * Up to FP_SAMPLES blocks spread over the device, each moved past the
 * (sorted) ranges it would overlap: bytes no test run writes.
 */
static void pick_samples(struct phdr *h)
{
	uint64_t len = h->sector > FP_PAGE ? h->sector : FP_PAGE, o, i, j;

	h->sample_len = (uint32_t)len;
	h->nsamples = 0;
	for (i = 0; i < FP_SAMPLES && h->size >= len; i++) {
		o = h->size / FP_SAMPLES * i;
		o -= o % len;
		for (j = 0; j < h->n; j++)
			if (o < h->r[j].off + h->r[j].len &&
			    h->r[j].off < o + len)
				o = align_up(h->r[j].off + h->r[j].len, len);
		if (o > h->size - len ||
		    (h->nsamples && o <= h->sample[h->nsamples - 1]))
			continue;
		h->sample[h->nsamples++] = o;
	}
}

/* The fingerprint: FNV-1a 64 of the samples as the device has them now. */
static int sample_sum(struct dev *d, const struct phdr *h, uint64_t *sum,
		      char *err, size_t errlen)
{
	void *buf = dev_alloc(h->sample_len ? h->sample_len : 1);
	uint64_t ns;
	uint32_t i;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	*sum = FNV64_INIT;
	for (i = 0; !ret && i < h->nsamples; i++) {
		ret = dev_read(d, buf, h->sample_len, h->sample[i], &ns);
		if (ret)
			snprintf(err, errlen, "reading %u bytes at offset "
				 "%llu of %s: %s", h->sample_len,
				 (unsigned long long)h->sample[i], d->path,
				 strerror(-ret));
		else
			*sum = fnv64(*sum, buf, h->sample_len);
	}
	dev_free(buf, h->sample_len ? h->sample_len : 1);
	return ret;
}

int preserve_check(const char *file, const struct dev *d, char *err,
		   size_t errlen)
{
	char copy[PATH_MAX], why[PATH_MAX + 128];
	struct stat st;

	if (lstat(file, &st) == 0) {
		snprintf(err, errlen, "--preserve=%s: file exists; it may hold "
			 "the only copy of an earlier run's data (put it back "
			 "with --restore=%s, or remove it)", file, file);
		return -EEXIST;
	}
	snprintf(copy, sizeof(copy), "%s", file);
	if (stat(dirname(copy), &st) < 0) {
		snprintf(err, errlen, "--preserve=%s: %s", file,
			 strerror(errno));
		return -errno;
	}
	if (d->kind != DEV_SIM &&
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
	encode(h, hbuf);
	ret = pwrite_full(fd, hbuf, h->data_off, 0);
	if (!ret)
		ret = save_data(fd, d, h, err, errlen);
	if (!ret && fsync(fd) < 0)
		ret = -errno;
	if (!ret) {
		h->complete = 1;
		encode(h, hbuf);
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
	dev_id(d, h.path);
	dev_identity(d->path, h.id, sizeof(h.id));
	pick_samples(&h);
	set_layout(&h);
	err[0] = '\0';
	ret = sample_sum(d, &h, &h.fp, err, errlen);
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

/* The fixed part: magic, version and counts; 0, -EINVAL or -EBADMSG. */
static int load_fixed(int fd, const char *file, struct phdr *h,
		      uint32_t *plen, uint32_t *idlen, char *err,
		      size_t errlen)
{
	unsigned char fixed[FIXED_LEN] = { 0 };
	int ret;

	ret = pread_full(fd, fixed, FIXED_LEN_V1, 0);
	h->version = get32(fixed + 8);
	if (ret || memcmp(fixed, PRESERVE_MAGIC, 8) ||
	    (h->version != 1 && h->version != PRESERVE_VER)) {
		snprintf(err, errlen, "%s: not a flashbench preserve file",
			 file);
		return -EINVAL;
	}
	if (h->version != 1 &&
	    pread_full(fd, fixed, FIXED_LEN, 0))
		return -EBADMSG;
	h->complete = get32(fixed + 12);
	h->size = get64(fixed + 16);
	h->sector = get32(fixed + 24);
	*plen = get32(fixed + 28);
	h->n = get64(fixed + 32);
	*idlen = get32(fixed + 48);
	h->nsamples = get32(fixed + 52);
	h->sample_len = get32(fixed + 56);
	h->fp = get64(fixed + 64);
	if (!h->complete) {
		snprintf(err, errlen, "%s: incomplete: the run stopped while "
			 "saving, before its first write, so the device was "
			 "not changed and there is nothing to restore", file);
		return -EINVAL;
	}
	if (*plen >= PATH_MAX || *idlen >= ID_MAX ||
	    h->nsamples > FP_SAMPLES || h->n > MAX_RANGES)
		return -EBADMSG;
	return 0;
}

/* Path, identity, samples and ranges from the header in buf. */
static void decode_var(struct phdr *h, const unsigned char *buf,
		       uint32_t plen, uint32_t idlen)
{
	const unsigned char *p = buf + (h->version == 1 ? FIXED_LEN_V1 :
					FIXED_LEN);
	uint64_t i;

	memcpy(h->path, p, plen);
	h->path[plen] = '\0';
	p += plen;
	memcpy(h->id, p, idlen);
	h->id[idlen] = '\0';
	p += idlen;
	for (i = 0; i < h->nsamples; i++, p += 8)
		h->sample[i] = get64(p);
	for (i = 0; i < h->n; i++, p += RANGE_LEN)
		h->r[i] = (struct prange){ get64(p), get64(p + 8),
					   get64(p + 16) };
}

/* Read and check the header; -EINVAL with a message if it is unusable. */
static int load_header(int fd, const char *file, struct phdr *h, char *err,
		       size_t errlen)
{
	unsigned char *buf;
	uint32_t plen, idlen;
	uint64_t hlen;
	struct stat st;
	int ret;

	if (fstat(fd, &st) < 0)
		return -errno;
	ret = load_fixed(fd, file, h, &plen, &idlen, err, errlen);
	if (ret == -EINVAL)
		return ret;
	hlen = (h->version == 1 ? FIXED_LEN_V1 : FIXED_LEN) + plen + idlen +
	       8 * (uint64_t)h->nsamples + RANGE_LEN * h->n;
	buf = ret ? NULL : malloc(hlen);
	h->r = ret ? NULL : calloc(h->n ? h->n : 1, sizeof(*h->r));
	if (!ret && (!buf || !h->r))
		ret = -ENOMEM;
	if (!ret && pread_full(fd, buf, hlen, 0))
		ret = -EBADMSG;
	if (!ret) {
		uint64_t sum = get64(buf + 40);

		memset(buf + 40, 0, 8);
		if (fnv64(FNV64_INIT, buf, hlen) != sum)
			ret = -EBADMSG;
	}
	if (!ret) {
		decode_var(h, buf, plen, idlen);
		set_layout(h);
		if ((uint64_t)st.st_size != h->data_off + h->total)
			ret = -EBADMSG;
	}
	free(buf);
	if (ret == -EBADMSG)
		snprintf(err, errlen, "%s: corrupt or truncated; the device "
			 "was not written", file);
	return ret;
}

/* Size and sector size: without both, no range could be trusted. */
static int check_geometry(const struct phdr *h, const struct dev *d,
			  const char *file, char *err, size_t errlen)
{
	char path[PATH_MAX], a[UNIT_BUFLEN], b[UNIT_BUFLEN];

	if (h->size == d->size && h->sector == d->sector)
		return 0;
	dev_id(d, path);
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
	dev_id(d, path);
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
		ret = sample_sum(d, h, &fp, err, errlen);
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
			ret = pread_full(fd, buf, len, pos + done);
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
static int do_restore(const char *file, struct dev *d, int force, char *msg,
		      size_t msglen)
{
	struct phdr h = { .r = NULL };
	char err[PATH_MAX + 256] = "", size[UNIT_BUFLEN];
	int fd, ret;

	fd = open_trusted(file, msg, msglen);
	if (fd < 0)
		return fd;
	ret = load_header(fd, file, &h, msg, msglen);
	if (!ret)
		ret = check_geometry(&h, d, file, msg, msglen);
	if (!ret)
		ret = check_ranges(&h, d, file, msg, msglen);
	if (!ret && !force)
		ret = check_identity(&h, d, file, msg, msglen);
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

int preserve_restore(const char *file, struct dev *d, int force, char *msg,
		     size_t msglen)
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
	ret = do_restore(file, d, force, msg, msglen);
	sigprocmask(SIG_SETMASK, &old, NULL);
	d->stats = stats;
	return ret;
}
