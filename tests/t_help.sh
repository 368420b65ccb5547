#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# --help is built from the option table: it must come out byte for byte
# as reviewed.  A change on purpose: ./flashbench --help > tests/golden/help.txt
. tests/lib.sh

want=tests/golden/help.txt
"$FB" --help > "$TMP/help.txt" 2>&1
st=$?
if [ $st -ne 0 ]; then
	fail "--help: exit $st"
elif cmp -s "$want" "$TMP/help.txt"; then
	pass "--help: byte for byte $want"
else
	fail "--help: differs from $want (on purpose? ./flashbench --help >" \
		"$want): $(diff "$want" "$TMP/help.txt" | head -5 | tr '\n' ' ')"
fi
rm -f "$TMP/help.txt"
