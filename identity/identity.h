/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_IDENTITY_H
#define FLASHBENCH_IDENTITY_H

#include "dev.h"
#include "identity/decode.h"

/*
 * The identity of an open device: from the registers its backend reports
 * (the sim: its profile's), else from sysfs (or the FLASHBENCH_SYSFS
 * tree) for block devices, else "no registers" (a regular file).  0, or
 * -errno when sysfs has no entry for a block device (id still says what
 * is known).
 */
int identity_read(const struct dev *d, struct identity *id);

/*
 * The identity of a block device by name, also one that sysfs (or the
 * FLASHBENCH_SYSFS tree) knows but /dev does not hold.
 */
int identity_read_name(const char *path, struct identity *id);

#endif
