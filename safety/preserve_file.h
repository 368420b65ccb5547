/* SPDX-License-Identifier: GPL-2.0 */
/* What saving and restoring a --preserve file share: its contents. */
#ifndef FLASHBENCH_PRESERVE_FILE_H
#define FLASHBENCH_PRESERVE_FILE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "safety/preserve.h"

#define PRESERVE_VER	2
#define ID_MAX		1024
#define FP_SAMPLES	8
#define FP_MAX_LEN	(1u << 20)
/* Bounded memory whatever the size of the ranges. */
#define CHUNK		(4u << 20)

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

/* The device as the file names it: symlinks resolved where possible. */
void preserve_dev_id(const struct dev *d, char *buf);

/* Where the data starts and how much of it there is, from the ranges. */
void preserve_set_layout(struct phdr *h);

/* Encode h into buf (h->data_off bytes), in the current version. */
void preserve_encode(const struct phdr *h, unsigned char *buf);

/* Read and check the header; -EINVAL with a message if it is unusable. */
int preserve_load_header(int fd, const char *file, struct phdr *h, char *err,
			 size_t errlen);

/* len bytes at off of fd, retried until whole; -ENODATA past its end. */
int preserve_pread(int fd, void *buf, size_t len, uint64_t off);

/* Blocks outside the ranges for the fingerprint, into h->sample. */
void preserve_pick_samples(struct phdr *h);

/* The fingerprint: FNV-1a 64 of the samples as the device has them now. */
int preserve_sample_sum(struct dev *d, const struct phdr *h, uint64_t *sum,
			char *err, size_t errlen);

#endif
