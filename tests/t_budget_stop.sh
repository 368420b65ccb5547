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
