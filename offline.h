/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_OFFLINE_H
#define FLASHBENCH_OFFLINE_H

#include <stdio.h>

#include "options.h"

/*
 * --analyze=FILE...: verdicts on saved or pasted reports, no device.
 * Returns the exit status.
 */
int analyze_files(const struct front *fr, FILE *out);

#endif
