#!/bin/sh
# What a user plans with: budgets, progress and refusals say one thing once.
. tests/lib.sh

# A --restore file that is not there is refused with one error line and
# nothing before it (the "putting it back" line came first once).
$FB --restore="$TMP/no-such.fbp" sim:sd08g >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
   grep -q "^flashbench: --restore=$TMP/no-such.fbp: " "$TMP/err"; then
	pass "--restore=missing: exit 2, one error line"
else
	fail "--restore=missing: exit $st, stderr: $(cat "$TMP/err")"
fi
