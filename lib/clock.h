/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_CLOCK_H
#define FLASHBENCH_CLOCK_H

#include <stdint.h>

/* Monotonic clock in ns (CLOCK_MONOTONIC_RAW where available). */
uint64_t now_ns(void);

#endif
