/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SURVEY_H
#define FLASHBENCH_SURVEY_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "dev.h"
#include "output/run_json.h"
#include "run.h"
#include "testdesc.h"

/* What the command line says about a survey. */
struct survey_cfg {
	struct opts base;	/* --count and the device; tests are chosen */
	uint64_t max_write;	/* --max-write, 0: no limit */
	uint64_t max_time;	/* --max-time in ns, 0: no limit */
	int yes;		/* --yes: no question before writing */
	int json;
	/*
	 * Before the first write, after the confirmation: save what the
	 * survey may overwrite (--preserve).  0 or an exit status.
	 */
	int (*save)(void *arg, struct dev *d, struct range *r, size_t n);
	void *save_arg;
	int (*stop_signal)(void);	/* the signal that stopped it, or 0 */
	struct json_cmd cmd;	/* the command line, for the JSON */
	const char *out_name;	/* where the results go, for messages */
};

/*
 * The whole procedure: alignment tests until the erase and page verdicts
 * are stable, the open-AU limit (linear, random) by a search, the
 * minimum full-speed write, the FAT area; each step's table under a
 * heading naming its classic command, then the verdicts and advice (or
 * one JSON document).  Budgets and ^C end it at a step boundary with a
 * summary.  Returns the exit status; *wrote tells whether anything was
 * written (so a --preserve file must be put back).
 */
int survey_run(const struct survey_cfg *cfg, struct dev *d, FILE *out,
	       int *wrote);

#endif
