#!/bin/sh
# The README is the front door: the two commands of a fresh machine come
# first (CI and people run them as written), it stays short, its source
# map names every folder of code, and the reference it points to exists.
# The man page documents every option the program takes (the rows of
# the option table in options.c, short and long), and has the sections
# a user looks for.
. tests/lib.sh

# A front door is read whole; the reference lives in the man page and doc/.
README_MAX_LINES=200

first=$(grep -m 2 '^    ' README | sed 's/^    //' | tr '\n' '|')
if [ "$first" = "make && ./flashbench --survey sim:|make check|" ]; then
	pass "README: the fresh-machine commands come first"
else
	fail "README: the first commands are \"$first\""
fi
n=$(wc -l < README)
if [ "$n" -le $README_MAX_LINES ]; then
	pass "README: $n lines"
else
	fail "README: $n lines, more than $README_MAX_LINES"
fi

# Folders of code by the files in them, so a new folder must enter the map.
unmapped=
for d in $(find . -mindepth 2 -maxdepth 2 -name '*.[ch]' \
	-not -path './tests/*' | cut -d/ -f2 | sort -u); do
	grep -q "$d/" README || unmapped="$unmapped $d/"
done
if [ -z "$unmapped" ]; then
	pass "README: the source map names every folder of code"
else
	fail "README: not in the source map:$unmapped"
fi

# Every doc/ file is named in the README, every name there exists, and
# the links between the doc/ files lead somewhere.
broken=
for f in doc/*.md; do
	grep -q "$f" README || broken="$broken $f(not in README)"
done
for f in $(grep -o 'doc/[a-z-]*\.md' README | sort -u); do
	[ -f "$f" ] || broken="$broken $f(missing)"
done
for f in doc/*.md; do
	for l in $(grep -o '](\([^)]*\))' "$f" | sed 's/^](\(.*\))$/\1/'); do
		[ -f "doc/$l" ] || broken="$broken $f:$l"
	done
done
if [ -z "$broken" ]; then
	pass "README and doc/: every reference leads to a file"
else
	fail "README and doc/:$broken"
fi

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
# The man page sends the reader on to each doc/ file.
for f in doc/*.md; do
	expect_grep "man page: names $f" "$(basename "$f")" "$TMP/man.txt"
done
rm -f "$TMP/man.txt"

if ! command -v groff >/dev/null 2>&1; then
	skip "man pages: groff warnings (groff not installed)"
	exit 0
fi
for p in flashbench.1 flashbench-erase.1; do
	w=$(groff -man -Tutf8 -ww "$p" 2>&1 >/dev/null)
	if [ -z "$w" ]; then
		pass "man page $p: no groff warnings"
	else
		fail "man page $p: $(echo "$w" | head -c 300)"
	fi
done
