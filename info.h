/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_INFO_H
#define FLASHBENCH_INFO_H

#include <stdio.h>

#include "options.h"

/* --info DEVICE: its identity on out, read-only, no timing; exit status. */
int info_mode(const struct front *fr, FILE *out);

#endif
