#!/bin/sh
# Reports as people paste them (mail archives, markdown, pastebins, gists,
# wrapper scripts, cut pastes, terminal logs), made from sim: runs: every
# rendering reads as the plain report does, and that as the runs were
# made.  The full corpus: python3 tests/paste_corpus.py (all profiles).
. tests/lib.sh

if ! command -v python3 >/dev/null 2>&1; then
	skip "paste corpus: needs python3"
	exit 0
fi
python3 tests/paste_corpus.py --fb "$FB" --dir "$TMP/paste" \
	--profiles=sd08g,su04g,samsung16 > "$TMP/paste.out" 2>&1
sed -n 's/^error: /FAIL: paste corpus: /p' "$TMP/paste.out"
awk -F'\t' '$1 != "all" && $2 ~ /\// {
	split($2, n, "/")
	if (n[1] == n[2] && n[2] > 0)
		print "PASS: paste corpus: " $1 " (" $2 ")"
	else
		print "FAIL: paste corpus: " $1 ": " $2 " read right"
}' "$TMP/paste.out"
grep -q '^all' "$TMP/paste.out" ||
	fail "paste corpus: no summary: $(tail -n 3 "$TMP/paste.out")"
