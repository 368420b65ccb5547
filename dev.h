/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_DEV_H
#define FLASHBENCH_DEV_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/clock.h"	/* the clock the backends time with */
#include "lib/extent.h"

struct dev;

/*
 * Capabilities: the traits of a backend the core asks about with
 * dev_has(), never by asking which backend a device is.  Each is a
 * promise an ops makes for every device that holds it once open.
 */
/* Writing destroys nothing anyone owns: no consent is asked first. */
#define DEV_CAP_NO_CONSENT	(1u << 0)
/*
 * Held on no file system or disk of this machine, so a --preserve file
 * can never land on the storage it saves.
 */
#define DEV_CAP_NO_BACKING	(1u << 1)
/*
 * The size is a storage medium's (not a regular file's), so verdicts may
 * check the geometry they find against it.
 */
#define DEV_CAP_MEDIUM_SIZE	(1u << 2)
/*
 * The path names a block device that sysfs describes: its identity is
 * read there.  A device with neither this nor registers() is a plain
 * file to the identity.
 */
#define DEV_CAP_SYSFS		(1u << 3)

/*
 * A backend, added to the list in dev.c.  Every timed call returns 0 or
 * -errno and stores the elapsed nanoseconds in *ns, so an error can never
 * be mistaken for a time.  Offsets and lengths are already checked by
 * dev.c against the device size and sector alignment.  open may switch
 * d->ops to another ops of the same backend whose capabilities fit what
 * it found (the real backend: a block device or a regular file).
 */
struct dev_ops {
	const char *name;
	unsigned caps;		/* DEV_CAP_* */
	int (*open)(struct dev *d, const char *path, char *err, size_t errlen);
	int (*read)(struct dev *d, void *buf, uint64_t len, uint64_t off,
		    uint64_t *ns);
	int (*write)(struct dev *d, const void *buf, uint64_t len, uint64_t off,
		     uint64_t *ns);
	int (*discard)(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns);
	void (*close)(struct dev *d);
	/*
	 * Optional: the identity attributes the device reports of itself
	 * ("key=value" lines named as sysfs names them), with where they
	 * come from put in source; NULL when it has none.
	 */
	const char *(*registers)(const struct dev *d, char *source,
				 size_t len);
	/*
	 * Optional: the byte where the backend injects a fault, its name
	 * as the user set it put in name; 0, or -ENOENT when there is none.
	 */
	int (*fault)(const struct dev *d, uint64_t *off, char *name,
		     size_t len);
	/*
	 * Optional: let ns of the device's own time pass with no I/O (a
	 * modelled card's clock); NULL: dev_idle() sleeps for real.
	 */
	void (*idle)(struct dev *d, uint64_t ns);
};

/* Open modes for dev_open(). */
#define DEV_RDONLY	0
#define DEV_RDWR	1
/* With DEV_RDWR: open with O_EXCL (block devices). */
#define DEV_EXCL	2

enum io_kind { IO_READ, IO_WRITE, IO_DISCARD };

struct io_stats {
	uint64_t reads, writes, discards;
	uint64_t bytes_read, bytes_written, bytes_discarded;
	uint64_t ns;		/* device time summed over all timed calls */
};

/* One I/O as seen by the recorder. */
struct io_rec {
	enum io_kind kind;
	uint64_t off, len;
};

/*
 * What the recorder keeps.  LOG_EXTENTS holds only the merged ranges
 * written or discarded, so planning a run takes memory by the number of
 * ranges, not of I/Os; LOG_ALL keeps every I/O in order (unit tests).
 */
struct io_log {
	enum { LOG_COUNT, LOG_EXTENTS, LOG_ALL } keep;
	struct io_rec *rec;	/* LOG_ALL */
	size_t n, cap;
	struct extents written;	/* LOG_EXTENTS */
	FILE *print;		/* when set, every I/O is printed here */
	uint64_t max_len;	/* largest single I/O */
	uint64_t lo, hi;	/* every I/O lies in [lo, hi); hi 0: none */
};

/*
 * Add to the LOG_EXTENTS log to what from holds, as count copies shifted
 * by lo + k * step for k = 0..count-1 (the passes of a loop, planned from
 * one; every copy must lie on the device).  0 or -ENOMEM.
 */
int io_log_add_shifted(struct io_log *to, const struct io_log *from,
		       int64_t lo, uint64_t step, uint64_t count);

/* Add times the counts and bytes of delta to s; -EOVERFLOW leaves s. */
int io_stats_add(struct io_stats *s, const struct io_stats *delta,
		 uint64_t times);

/* The byte where d injects a fault and its name; 0, or -ENOENT: none. */
int dev_fault(const struct dev *d, uint64_t *off, char *name, size_t len);

struct dev {
	const struct dev_ops *ops;
	const char *path;
	int mode;
	int fd;
	uint64_t size;		/* bytes */
	uint32_t sector;	/* logical sector size */
	void *priv;		/* backend state */
	struct io_stats stats;
	struct io_log *log;	/* when set, every I/O is recorded */
	int dry_run;		/* record only, touch nothing */
};

extern const struct dev_ops real_ops;
extern const struct dev_ops sim_ops;

/*
 * Open path ("sim:..." selects the simulated card).  On failure returns
 * -errno and leaves a message without the "flashbench: " prefix in err.
 */
int dev_open(struct dev *d, const char *path, int mode, char *err,
	     size_t errlen);
void dev_close(struct dev *d);

/* Whether d's backend promises every one of caps (DEV_CAP_*). */
int dev_has(const struct dev *d, unsigned caps);

/*
 * The same, before opening path: what its backend promises as declared
 * (the real backend's are a block device's; a regular file has fewer).
 */
int dev_path_has(const char *path, unsigned caps);

/* The size verdicts may check against: 0 when it is not a medium's. */
uint64_t dev_medium_size(const struct dev *d);

/* The backend's registers(), or NULL when it has none. */
const char *dev_registers(const struct dev *d, char *source, size_t len);

/* Checked, counted, recorded wrappers around the backend. */
int dev_read(struct dev *d, void *buf, uint64_t len, uint64_t off,
	     uint64_t *ns);
int dev_write(struct dev *d, const void *buf, uint64_t len, uint64_t off,
	      uint64_t *ns);
int dev_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns);

/*
 * The largest piece of a transfer (dev_transfer): a read or write longer
 * than its buffer goes as consecutive pieces from that one buffer, so the
 * buffer, and so memory, stays bounded whatever --erasesize, --blocksize
 * or --interval-order ask (a typo of 16G must not reserve 16 GiB).  16 MiB
 * is above the erase blocks cards have (4-12 MiB in tests/real/), so the
 * I/Os of normal runs still go whole, and large enough that the pieces
 * of a longer transfer keep the device's queue full.
 */
#define DEV_CHUNK_MAX (16ull << 20)

/* The buffer a transfer of up to len bytes needs: at most DEV_CHUNK_MAX. */
uint64_t dev_buf_len(uint64_t len);

/*
 * A read or write of len bytes at off through buf, a buffer of buf_len
 * bytes (0: it holds len whole): longer transfers go in pieces of at most
 * buf_len, each from the same buffer.  Checked, counted and recorded as
 * the one I/O it is; *ns is the time of the whole transfer, the sum of
 * its pieces'.  A discard ignores buf and buf_len.
 */
int dev_transfer(struct dev *d, enum io_kind kind, void *buf,
		 uint64_t buf_len, uint64_t len, uint64_t off, uint64_t *ns);

/* Page-aligned buffer for O_DIRECT, zero-filled; NULL on failure. */
void *dev_alloc(uint64_t len);
void dev_free(void *buf, uint64_t len);

/*
 * Lock an I/O buffer in RAM (where permitted): a page fault inside a
 * timed window would show as noise.  It is at most DEV_CHUNK_MAX.
 */
void dev_lock(void *buf, uint64_t len);

/*
 * Leave d idle for ns: the backend's idle(), else a sleep of this
 * thread; none on a dry run.  0, or -EINTR when a signal set *stop.
 */
int dev_idle(struct dev *d, uint64_t ns, const volatile sig_atomic_t *stop);

const char *io_kind_name(enum io_kind k);

#endif
