/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FLASHBENCH_SPELL_H
#define FLASHBENCH_SPELL_H

/*
 * Whether typed (up to a '=') is a misspelling of name: the two differ
 * by a few letters added, dropped or changed, ignoring case, '-' and
 * '_'.  *edits is how many; a smaller count is a likelier meaning.
 */
int misspelt(const char *typed, const char *name, unsigned *edits);

#endif
