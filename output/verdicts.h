/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_VERDICTS_H
#define FLASHBENCH_VERDICTS_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "output/json.h"

/* Text: one line per derived verdict, each starting with prefix. */
void analysis_print(FILE *f, const struct analysis *a, const char *prefix);

/* The "analysis" member of the --json document. */
void analysis_json(struct json *j, const struct analysis *a);

#endif
