/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_DEVINFO_H
#define FLASHBENCH_DEVINFO_H

#include <stdint.h>

/*
 * The card's preferred_erase_size from sysfs (MMC/SD cards report their
 * AU there), for the block device at path or its parent disk; 0 if none.
 */
uint64_t sysfs_preferred_erase(const char *path);

#endif
