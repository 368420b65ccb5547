/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_RUN_JSON_H
#define FLASHBENCH_RUN_JSON_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "identity/identity.h"
#include "output/json.h"
#include "output/verdicts.h"
#include "run.h"
#include "testdesc.h"

/* The command a document reports: as typed, and the test's parameters. */
struct json_cmd {
	int argc;
	char **argv;
	const struct opts *o;
};

/*
 * The members every document starts with: tool, version, the command
 * line as typed and when it ran (UTC).
 */
void json_meta(struct json *j, const struct json_cmd *cmd);

/* "device": {path, size, logical_sector_size}. */
void json_device(struct json *j, const char *path, uint64_t size,
		 uint32_t sector);

/* One table as a JSON object: kind, mode, N and its rows. */
void json_table(struct json *j, const struct table *t);

/*
 * The --json document of a live run; error: the stderr line of a failed
 * one (without "flashbench: "), NULL when it did not fail.
 */
/* The --sustained verdicts of tabs, if one is its table (doc/json.md). */
void sustained_json(struct json *j, const struct table *tabs, size_t n);

/* The "capacity" object of a complete --capacity table t; else nothing. */
void capacity_json(struct json *j, const struct table *t);
void print_run_json(FILE *f, const struct json_cmd *cmd, const struct dev *d,
		    const struct identity *id, const struct run *r,
		    const struct analysis *a, int status, const char *error);

/*
 * The --dry-run --json document: the device, the parameters and the plan
 * (I/O totals, largest I/O, the byte ranges written or discarded).
 */
void print_plan_json(FILE *f, const struct json_cmd *cmd, const struct dev *d,
		     const struct run *r);

#endif
