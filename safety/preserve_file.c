// SPDX-License-Identifier: GPL-2.0
/*
 * The file --preserve writes and --restore reads: its layout, the header
 * encoded and checked, and the fingerprint of the device.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safety/preserve_file.h"

#define PRESERVE_MAGIC	"FBPRESRV"
#define FIXED_LEN_V1	48
#define FIXED_LEN	72
#define RANGE_LEN	24
/* A sample is one page, or one sector where sectors are larger. */
#define FP_PAGE		4096u
/* More ranges than any test plans: a corrupt count is caught early. */
#define MAX_RANGES	(1u << 24)

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
void preserve_dev_id(const struct dev *d, char *buf)
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

void preserve_set_layout(struct phdr *h)
{
	uint64_t i;

	h->data_off = table_off(h) + RANGE_LEN * h->n;
	h->total = 0;
	for (i = 0; i < h->n; i++)
		h->total += h->r[i].len;
}

/* Encode h into buf (h->data_off bytes), in the current version. */
void preserve_encode(const struct phdr *h, unsigned char *buf)
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

int preserve_pread(int fd, void *buf, size_t len, uint64_t off)
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

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return v % a ? v + (a - v % a) : v;
}

/*
 * Up to FP_SAMPLES blocks spread over the device, each moved past the
 * (sorted) ranges it would overlap: bytes no test run writes.
 */
void preserve_pick_samples(struct phdr *h)
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
int preserve_sample_sum(struct dev *d, const struct phdr *h, uint64_t *sum,
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

/* The fixed part: magic, version and counts; 0, -EINVAL or -EBADMSG. */
static int load_fixed(int fd, const char *file, struct phdr *h,
		      uint32_t *plen, uint32_t *idlen, char *err,
		      size_t errlen)
{
	unsigned char fixed[FIXED_LEN] = { 0 };
	int ret;

	ret = preserve_pread(fd, fixed, FIXED_LEN_V1, 0);
	h->version = get32(fixed + 8);
	if (ret || memcmp(fixed, PRESERVE_MAGIC, 8) ||
	    (h->version != 1 && h->version != PRESERVE_VER)) {
		snprintf(err, errlen, "%s: not a flashbench preserve file",
			 file);
		return -EINVAL;
	}
	if (h->version != 1 &&
	    preserve_pread(fd, fixed, FIXED_LEN, 0))
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
int preserve_load_header(int fd, const char *file, struct phdr *h, char *err,
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
	if (!ret && preserve_pread(fd, buf, hlen, 0))
		ret = -EBADMSG;
	if (!ret) {
		uint64_t sum = get64(buf + 40);

		memset(buf + 40, 0, 8);
		if (fnv64(FNV64_INIT, buf, hlen) != sum)
			ret = -EBADMSG;
	}
	if (!ret) {
		decode_var(h, buf, plen, idlen);
		preserve_set_layout(h);
		if ((uint64_t)st.st_size != h->data_off + h->total)
			ret = -EBADMSG;
	}
	free(buf);
	if (ret == -EBADMSG)
		snprintf(err, errlen, "%s: corrupt or truncated; the device "
			 "was not written", file);
	return ret;
}
