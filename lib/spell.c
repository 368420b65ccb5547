// SPDX-License-Identifier: GPL-2.0
/* Misspelt names: "did you mean" for the command line; see spell.h. */
#include <string.h>

#include "lib/spell.h"

/* Longest name compared; the option names are shorter. */
#define NAME_CMP_MAX 32
/*
 * Letters added, dropped or changed that still make a misspelling: one
 * or two catches "--blocksise" and "--eraze-size" without guessing at
 * unrelated words.
 */
#define SPELL_EDITS 2

/*
 * The name up to '=' in lower case without '-' and '_': "erase-size" and
 * "Erase_Size" both give "erasesize".
 */
static void squeeze(char *out, const char *name)
{
	size_t n = 0;

	for (; *name && *name != '=' && n < NAME_CMP_MAX - 1; name++)
		if (*name != '-' && *name != '_')
			out[n++] = (char)(*name | 0x20);
	out[n] = '\0';
}

/* Edit (Levenshtein) distance of two squeezed names. */
static unsigned distance(const char *a, const char *b)
{
	unsigned row[NAME_CMP_MAX], diag, up, i, j;
	size_t nb = strlen(b);

	for (j = 0; j <= nb; j++)
		row[j] = j;
	for (i = 1; a[i - 1]; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= nb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[nb];
}

int misspelt(const char *typed, const char *name, unsigned *edits)
{
	char a[NAME_CMP_MAX], b[NAME_CMP_MAX];

	squeeze(a, typed);
	squeeze(b, name);
	*edits = distance(a, b);
	/* half the letters changed is another word, not a typo */
	return *edits <= SPELL_EDITS && 2 * *edits < strlen(a);
}
