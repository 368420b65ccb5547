/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_PLACES_H
#define FLASHBENCH_PLACES_H

#include <stdio.h>

#include "lib/table.h"

/*
 * A live -a table's reads at each place, as comment lines after it:
 * the align rows average them away, the page and erase size verdicts
 * use them, and report/parse.c reads them back.  Nothing for a table
 * that kept none (a parsed one, or not -a).
 */
void places_text(FILE *f, const struct table *t);

#endif
