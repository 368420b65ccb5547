#!/bin/sh
# The man page documents every option the program takes (the rows of the
# option table in options.c, short and long), and has the sections a user
# looks for.
. tests/lib.sh

if ! command -v man >/dev/null 2>&1; then
	skip "man page contents (man not installed)"
	exit 0
fi
MANWIDTH=200 man -l flashbench.1 > "$TMP/man.txt" 2>/dev/null
long=$(sed -n 's/^	{ "\([a-z-]*\)", .*/\1/p' options.c | sort -u)
if [ "$(echo "$long" | wc -w)" -lt 30 ]; then
	fail "man page: cannot read the option table of options.c"
	exit 0
fi
missing=
for o in $long; do
	grep -q -e "--$o\b" "$TMP/man.txt" || missing="$missing --$o"
done
short=$(sed -n "s/^	{ \"[a-z-]*\", '\\(.\\)',.*/\\1/p" options.c | tr -d '\n')
for c in $(echo "$short" | sed 's/./& /g'); do
	grep -q -e "-$c\b" "$TMP/man.txt" || missing="$missing -$c"
done
if [ -z "$missing" ] && [ -n "$short" ]; then
	pass "man page: every option ($(echo "$long" | wc -w) long, ${#short} short)"
else
	fail "man page: not documented:$missing"
fi
for sec in SYNOPSIS OPTIONS "EXIT STATUS" EXAMPLES "SEE ALSO"; do
	expect_grep "man page: has $sec" "^$sec" "$TMP/man.txt"
done
rm -f "$TMP/man.txt"
