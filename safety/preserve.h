/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_PRESERVE_H
#define FLASHBENCH_PRESERVE_H

#include <stddef.h>
#include <stdint.h>

#include "dev.h"
#include "lib/extent.h"

/*
 * --preserve=FILE: the bytes a destructive test is about to overwrite are
 * copied to FILE before its first write and put back afterwards, so a card
 * can be measured without losing its contents.  The file keeps the device
 * path, size and sector size, what identifies the device (devid.h) and
 * a fingerprint of a few blocks outside the ranges, and an FNV-1a 64
 * checksum per range; a flag set last, after fsync, marks it complete, so
 * a file cut short by a crash while saving is never written back.  It is
 * created 0600, as it holds the card's data.
 *
 * Messages go to err/msg without the "flashbench: " prefix.
 */

/*
 * Before any I/O: FILE must not exist yet (it may be the only copy of an
 * earlier run's data) and must not live on the device.  0 or -EEXIST,
 * -EINVAL, -errno.
 */
int preserve_check(const char *file, const struct dev *d, char *err,
		   size_t errlen);

/*
 * Save ranges of d into FILE and fsync it and its directory.  Stops with
 * -EINTR when vm_stop is set.  On failure FILE is removed.
 */
int preserve_save(const char *file, struct dev *d, const struct range *r,
		  size_t n, char *err, size_t errlen);

/*
 * Write FILE back to d and read it back to verify the checksums, with
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT held off until done.  FILE must be
 * a regular file that only we or root could have written, and is checked
 * whole (header, ranges, data checksums) before the first write.  Unless
 * force, d must also be the device FILE was saved from: the same path,
 * identity and fingerprint (size and sector size always).  On success
 * msg tells what was restored.  -EINVAL: FILE is refused: not a complete
 * preserve file, not trusted, or for another device (nothing written);
 * -EBADMSG: FILE is corrupt (nothing written); other -errno: an I/O error
 * or a verification failure on the device.  announce, if not NULL, is
 * told once FILE passed those checks, just before the first write: a
 * refused FILE gives its one error line and nothing else.
 */
int preserve_restore(const char *file, struct dev *d, int force,
		     const char *announce, char *msg, size_t msglen);

/* FNV-1a 64 of buf, continuing from h (start with FNV64_INIT). */
#define FNV64_INIT 0xcbf29ce484222325ull
uint64_t fnv64(uint64_t h, const void *buf, size_t len);

#endif
