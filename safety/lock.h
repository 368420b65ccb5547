/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_LOCK_H
#define FLASHBENCH_LOCK_H

#include <stddef.h>

/* The descriptors that hold a run's storage; see storage_lock(). */
struct storage_lock {
	int *fd;
	size_t n;
};

/*
 * Lock the storage of the block device or image file at path, under
 * every name that reaches it, until storage_unlock() or the end of the
 * process.  A write run holds it alone; read-only tests share it.  Fails
 * with -EBUSY and one line in msg when another flashbench run holds it
 * (also with force), or, for a write run without force, when a block
 * device sharing it is mounted or held by another program.  What cannot
 * be looked at or opened is not locked: best effort, as dev_in_use().
 */
int storage_lock(struct storage_lock *l, const char *path, int write,
		 int force, char *msg, size_t len);
void storage_unlock(struct storage_lock *l);

#endif
