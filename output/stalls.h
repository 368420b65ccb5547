/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_STALLS_H
#define FLASHBENCH_STALLS_H

#include <stdio.h>

#include "lib/latency.h"
#include "lib/table.h"
#include "output/json.h"

/*
 * A row's write latencies as its JSON member "latency": percentiles and
 * the slowest in microseconds, the writes and the stalls among them.
 */
void latency_json(struct json *j, const struct latency *l);

/*
 * One line on f after a write test: the slowest write, the row it was
 * in and the stalls of the whole table; nothing for a table without
 * timed writes.
 */
void stall_summary(FILE *f, const struct table *t);

#endif
