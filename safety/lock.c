// SPDX-License-Identifier: GPL-2.0
/*
 * The storage under test locked, not its name: a run on /dev/loop0 and
 * another on its image file, or on /dev/loop1 over the same file, would
 * each pass an exclusive open of its own name and then interleave their
 * writes and restores.  Every block device that shares the storage is
 * opened with O_EXCL for a write run, which keeps mounts and other
 * exclusive openers out of all of them, and carries a flock(); the image
 * file under it carries a byte-range lock on the bytes the target stands
 * for, so loop devices on disjoint parts of one image stay independent.
 * The locks are what tells another flashbench run from a mount: the
 * kernel says only "busy" for both.
 *
 * Read-only tests take the locks shared: they run side by side, but not
 * beside a write run, whose I/O would skew their timings (and theirs the
 * writer's) and which they would report as the card's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safety/inuse.h"
#include "safety/lock.h"

static void held_by_run(const char *path, const char *what, char *msg,
			size_t len)
{
	snprintf(msg, len, "%s: in use by another flashbench run, which "
		 "holds %s", path, what);
}

/* Is one of the sharers a partition of the whole disk x? */
static int has_parts(const struct sharers *sh, const struct sharer *x)
{
	size_t i;

	for (i = 0; i < sh->n; i++)
		if (sh->s[i].disk == x->dev && sh->s[i].dev != x->dev)
			return 1;
	return 0;
}

/*
 * O_EXCL on the target is dev_open()'s, and it keeps the target's disk
 * and, for a whole disk, its partitions to us.  Another disk whose
 * partitions share the storage is claimed through those: the kernel
 * refuses its O_EXCL while a partition of it that does not share the
 * storage is mounted, and keeps the whole disk out once one is claimed.
 * The flock() is on every one: a run on a partition and one on another
 * partition of the same card would skew each other's timings.
 */
static int claims(const struct sharers *sh, const struct sharer *x)
{
	if (x->dev == sh->tdev || x->dev == sh->tdisk || x->disk == sh->tdev)
		return 0;
	return x->disk != x->dev || !has_parts(sh, x);
}

static int lock_node(struct storage_lock *l, const struct sharers *sh,
		     const struct sharer *x, int write, int force,
		     const char *path, char *msg, size_t len)
{
	int excl = write && claims(sh, x) ? O_EXCL : 0;
	int busy = 0, fd;
	struct stat st;

	fd = open(x->node, O_RDONLY | O_CLOEXEC | excl);
	if (fd < 0 && errno == EBUSY) {
		busy = 1;
		fd = open(x->node, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != x->dev) {
		close(fd);
		return 0;
	}
	l->fd[l->n++] = fd;
	if (flock(fd, (write ? LOCK_EX : LOCK_SH) | LOCK_NB) < 0) {
		held_by_run(path, x->desc, msg, len);
		return -EBUSY;
	}
	if (busy && !force) {
		snprintf(msg, len, "%s: in use: %s is mounted or held by "
			 "another program (use --force to override)", path,
			 x->desc);
		return -EBUSY;
	}
	return 0;
}

static int lock_file(struct storage_lock *l, const struct sharers *sh,
		     int write, const char *path, char *msg, size_t len)
{
	struct flock fl = {
		.l_type = write ? F_WRLCK : F_RDLCK,
		.l_whence = SEEK_SET,
		.l_start = (off_t)sh->start,
		.l_len = (off_t)sh->len,
	};
	int fd;

	if (!sh->file[0])
		return 0;
	fd = open(sh->file, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return 0;
	l->fd[l->n++] = fd;
	/* an open file description's lock: a second one conflicts */
	if (fcntl(fd, F_OFD_SETLK, &fl) < 0 &&
	    (errno == EAGAIN || errno == EACCES)) {
		held_by_run(path, sh->file, msg, len);
		return -EBUSY;
	}
	return 0;
}

int storage_lock(struct storage_lock *l, const char *path, int write,
		 int force, char *msg, size_t len)
{
	struct sharers sh;
	size_t i;
	int ret;

	l->fd = NULL;
	l->n = 0;
	ret = sharers_load(path, &sh);
	if (ret == -ENODEV)
		return 0;
	if (!ret)
		l->fd = calloc(sh.n + 1, sizeof(*l->fd));
	if (!l->fd) {
		snprintf(msg, len, "%s: no memory to lock it", path);
		sharers_free(&sh);
		return -ENOMEM;
	}
	ret = lock_file(l, &sh, write, path, msg, len);
	for (i = 0; !ret && i < sh.n; i++)
		ret = lock_node(l, &sh, &sh.s[i], write, force, path, msg, len);
	sharers_free(&sh);
	if (ret)
		storage_unlock(l);
	return ret;
}

void storage_unlock(struct storage_lock *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		close(l->fd[i]);
	free(l->fd);
	l->fd = NULL;
	l->n = 0;
}
