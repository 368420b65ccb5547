/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SAFEFILE_H
#define FLASHBENCH_SAFEFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * The files flashbench writes and reads besides the device: the report
 * (-o), the backup of the card's data (--preserve) and that backup read
 * back (--restore).  Where another user can write (a world-writable
 * directory, a file not ours), they could plant a symbolic link to a file
 * of ours, or data to be written onto the card.
 *
 * Messages name the file, without the "flashbench: " prefix.
 */

/*
 * The report, created or emptied: in a world-writable directory not
 * through a symbolic link, and not another user's file.
 */
FILE *open_report(const char *path, char *err, size_t errlen);

/*
 * A new file only we can read, for writing: mode 0600, never an existing
 * name (nor a symbolic link).  The descriptor or -errno.
 */
int create_private(const char *path);

/*
 * A regular file (not a FIFO, device or symbolic link: opening one must
 * not block or lead elsewhere) that only we or root could have written:
 * owned by us or root, not writable by group or others.  -EINVAL for a
 * file that is refused.
 */
int open_trusted(const char *path, char *err, size_t errlen);

#endif
