#!/bin/sh
# A survey stopped by a budget names the next step's own cost, not the
# amount already spent (both once shared one buffer and printed alike).
. tests/lib.sh

$FB --survey --yes --max-write=2436M sim:xporter >"$TMP/out" 2>"$TMP/err"
line=$(grep 'survey stopped: --max-write' "$TMP/err" | head -n 1)
spent=$(printf '%s\n' "$line" | sed -n 's/.*reached: \([^ ]*\) written.*/\1/p')
next=$(printf '%s\n' "$line" | sed -n 's/.*next step writes \([^ ]*\)$/\1/p')
if [ -n "$spent" ] && [ -n "$next" ] && [ "$spent" != "$next" ]; then
	pass "max-write stop: next step's cost ($next) apart from spent ($spent)"
else
	fail "max-write stop line: $line"
fi

# A survey that did not finish says so in its exit status: 3 stopped by
# a budget (verdicts so far), 1 when it could not start writing.
expect_status "budget stop: exit 3" 3 \
	$FB --survey --yes --max-write=100M sim:sd08g
expect_grep "budget stop: says why" 'survey stopped: --max-write' "$TMP/err"
expect_status "no erase size to write with: exit 1" 1 \
	$FB --survey --yes sim:au=64k,page=64k
expect_grep "no erase size: says why" \
	'survey stopped: no erase size sure enough' "$TMP/err"
expect_status "a complete survey: exit 0" 0 $FB --survey --yes sim:sd08g
