/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_VERSION_H
#define FLASHBENCH_VERSION_H

/* Above the classic package's "62" for dpkg --compare-versions. */
#define VERSION "63.0"

#endif
