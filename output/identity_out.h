/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_IDENTITY_OUT_H
#define FLASHBENCH_IDENTITY_OUT_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "identity/decode.h"
#include "output/json.h"

/* The --info "key: value" lines, warnings last ("warning: ..."). */
void identity_print(FILE *f, const struct identity *id);

/* The same, each line starting with prefix (offline: "# identity: "). */
void identity_print_prefixed(FILE *f, const struct identity *id,
			     const char *prefix);

/* The "identity" object (with its "warnings" list) as a member of j. */
void identity_json(struct json *j, const struct identity *id);

/*
 * The claimed sizes the erase verdict checks the measurement against,
 * with where each came from.
 */
void identity_claims(const struct identity *id, struct analysis_ctx *ctx);

#endif
