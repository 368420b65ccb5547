// SPDX-License-Identifier: GPL-2.0
/*
 * The device layer: picks a backend, checks every I/O against the device
 * bounds and sector size, counts it and, when asked, records it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "dev.h"

const char *io_kind_name(enum io_kind k)
{
	static const char *const names[] = {
		[IO_READ] = "read", [IO_WRITE] = "write",
		[IO_DISCARD] = "discard",
	};

	return names[k];
}

/* The backends, by the prefix of the paths they take; the last takes all. */
static const struct {
	const char *prefix;
	const struct dev_ops *ops;
} backends[] = {
	{ "sim:", &sim_ops },
	{ "", &real_ops },
};

static const struct dev_ops *backend_of(const char *path)
{
	size_t i = 0;

	while (strncmp(path, backends[i].prefix, strlen(backends[i].prefix)))
		i++;
	return backends[i].ops;
}

int dev_open(struct dev *d, const char *path, int mode, char *err,
	     size_t errlen)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->path = path;
	d->mode = mode;
	d->ops = backend_of(path);
	ret = d->ops->open(d, path, err, errlen);
	if (ret)
		d->ops = NULL;
	return ret;
}

static int promises(const struct dev_ops *ops, unsigned caps)
{
	return (ops->caps & caps) == caps;
}

int dev_has(const struct dev *d, unsigned caps)
{
	return promises(d->ops, caps);
}

int dev_path_has(const char *path, unsigned caps)
{
	return promises(backend_of(path), caps);
}

uint64_t dev_medium_size(const struct dev *d)
{
	return dev_has(d, DEV_CAP_MEDIUM_SIZE) ? d->size : 0;
}

int dev_fault(const struct dev *d, uint64_t *off, char *name, size_t len)
{
	if (!d->ops->fault)
		return -ENOENT;
	return d->ops->fault(d, off, name, len);
}

const char *dev_registers(const struct dev *d, char *source, size_t len)
{
	if (!d->ops->registers)
		return NULL;
	return d->ops->registers(d, source, len);
}

void dev_close(struct dev *d)
{
	if (d->ops)
		d->ops->close(d);
	d->ops = NULL;
}

static int keep_rec(struct io_log *l, enum io_kind kind, uint64_t len,
		    uint64_t off)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		struct io_rec *r = realloc(l->rec, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		l->rec = r;
		l->cap = cap;
	}
	l->rec[l->n++] = (struct io_rec){ .kind = kind, .off = off, .len = len };
	return 0;
}

static int log_io(struct dev *d, enum io_kind kind, uint64_t len,
		  uint64_t off)
{
	struct io_log *l = d->log;

	if (len > l->max_len)
		l->max_len = len;
	if (!l->hi || off < l->lo)
		l->lo = off;
	if (off + len > l->hi)
		l->hi = off + len;
	if (l->print)
		fprintf(l->print, "%s\t%llu\t%llu\n", io_kind_name(kind),
			(unsigned long long)off, (unsigned long long)len);
	if (l->keep == LOG_ALL)
		return keep_rec(l, kind, len, off);
	if (l->keep == LOG_EXTENTS && kind != IO_READ)
		return extents_add(&l->written, off, len);
	return 0;
}

int io_log_add_shifted(struct io_log *to, const struct io_log *from,
		       int64_t lo, uint64_t step, uint64_t count)
{
	uint64_t first = from->lo + (uint64_t)lo;
	uint64_t end = from->hi + (uint64_t)lo + (count - 1) * step;

	if (!from->hi)
		return 0;
	if (from->max_len > to->max_len)
		to->max_len = from->max_len;
	if (!to->hi || first < to->lo)
		to->lo = first;
	if (end > to->hi)
		to->hi = end;
	return extents_add_shifted(&to->written, &from->written, lo, step,
				   count);
}

/* a * times + b, or -EOVERFLOW */
static int mul_add(uint64_t a, uint64_t times, uint64_t *b)
{
	uint64_t t;

	if (__builtin_mul_overflow(a, times, &t) ||
	    __builtin_add_overflow(*b, t, b))
		return -EOVERFLOW;
	return 0;
}

int io_stats_add(struct io_stats *s, const struct io_stats *delta,
		 uint64_t times)
{
	struct io_stats t = *s;

	if (mul_add(delta->reads, times, &t.reads) ||
	    mul_add(delta->writes, times, &t.writes) ||
	    mul_add(delta->discards, times, &t.discards) ||
	    mul_add(delta->bytes_read, times, &t.bytes_read) ||
	    mul_add(delta->bytes_written, times, &t.bytes_written) ||
	    mul_add(delta->bytes_discarded, times, &t.bytes_discarded) ||
	    mul_add(delta->ns, times, &t.ns))
		return -EOVERFLOW;
	*s = t;
	return 0;
}

/*
 * Every request must be sector-aligned and inside the device: the classic
 * tool wrapped offsets past the end back to the partition table.
 */
static int check_io(const struct dev *d, uint64_t len, uint64_t off)
{
	if (len == 0 || len % d->sector || off % d->sector)
		return -EINVAL;
	if (off > d->size || len > d->size - off)
		return -ERANGE;
	return 0;
}

static void count(struct dev *d, enum io_kind kind, uint64_t len,
		  uint64_t ns)
{
	struct io_stats *s = &d->stats;

	s->ns += ns;
	switch (kind) {
	case IO_READ:
		s->reads++;
		s->bytes_read += len;
		break;
	case IO_WRITE:
		s->writes++;
		s->bytes_written += len;
		break;
	case IO_DISCARD:
		s->discards++;
		s->bytes_discarded += len;
		break;
	}
}

static int backend_io(struct dev *d, enum io_kind kind, void *buf,
		      uint64_t len, uint64_t off, uint64_t *ns)
{
	switch (kind) {
	case IO_READ:
		return d->ops->read(d, buf, len, off, ns);
	case IO_WRITE:
		return d->ops->write(d, buf, len, off, ns);
	case IO_DISCARD:
		return d->ops->discard(d, off, len, ns);
	}
	return -EINVAL;
}

/* The pieces of a transfer, each from buf; their times summed in *ns. */
static int backend_pieces(struct dev *d, enum io_kind kind, void *buf,
			  uint64_t piece, uint64_t len, uint64_t off,
			  uint64_t *ns)
{
	uint64_t done, n, t;
	int ret;

	if (kind == IO_DISCARD || !piece || piece >= len)
		return backend_io(d, kind, buf, len, off, ns);
	for (done = 0; done < len; done += n) {
		n = len - done < piece ? len - done : piece;
		ret = backend_io(d, kind, buf, n, off + done, &t);
		if (ret)
			return ret;
		*ns += t;
	}
	return 0;
}

int dev_transfer(struct dev *d, enum io_kind kind, void *buf,
		 uint64_t buf_len, uint64_t len, uint64_t off, uint64_t *ns)
{
	uint64_t piece = buf_len - buf_len % d->sector;
	int ret = check_io(d, len, off);

	*ns = 0;
	if (!ret && buf_len && !piece)
		ret = -EINVAL;
	if (ret)
		return ret;
	if (d->log) {
		ret = log_io(d, kind, len, off);
		if (ret)
			return ret;
	}
	if (d->dry_run) {
		count(d, kind, len, 0);
		return 0;
	}
	if (kind != IO_READ && !(d->mode & DEV_RDWR))
		return -EBADF;
	ret = backend_pieces(d, kind, buf, piece, len, off, ns);
	if (ret == 0)
		count(d, kind, len, *ns);
	return ret;
}

int dev_read(struct dev *d, void *buf, uint64_t len, uint64_t off,
	     uint64_t *ns)
{
	return dev_transfer(d, IO_READ, buf, 0, len, off, ns);
}

int dev_write(struct dev *d, const void *buf, uint64_t len, uint64_t off,
	      uint64_t *ns)
{
	return dev_transfer(d, IO_WRITE, (void *)buf, 0, len, off, ns);
}

int dev_discard(struct dev *d, uint64_t off, uint64_t len, uint64_t *ns)
{
	return dev_transfer(d, IO_DISCARD, NULL, 0, len, off, ns);
}

uint64_t dev_buf_len(uint64_t len)
{
	return len < DEV_CHUNK_MAX ? len : DEV_CHUNK_MAX;
}

int dev_idle(struct dev *d, uint64_t ns, const volatile sig_atomic_t *stop)
{
	struct timespec ts = { (time_t)(ns / 1000000000u),
			       (long)(ns % 1000000000u) };

	if (d->dry_run)
		return 0;
	if (d->ops->idle) {
		d->ops->idle(d, ns);
		return 0;
	}
	/* a signal that is no stop (a resized terminal) sleeps on */
	while (nanosleep(&ts, &ts))
		if (errno != EINTR || *stop)
			return -EINTR;
	return 0;
}

void *dev_alloc(uint64_t len)
{
	void *p;

	if (len == 0 || len > SIZE_MAX)
		return NULL;
	/* mmap gives page alignment and lazily zeroed memory. */
	p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void dev_lock(void *buf, uint64_t len)
{
	/* best effort: without the privilege the run goes on unlocked */
	mlock(buf, (size_t)len);
}

void dev_free(void *buf, uint64_t len)
{
	if (buf)
		munmap(buf, (size_t)len);
}
