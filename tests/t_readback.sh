#!/bin/sh
# Read-back: --analyze of a survey's own text keeps the card's identity
# (the "# identity: size:" line is bytes, not sysfs sectors).
. tests/lib.sh

for p in sd08g su04g; do
	"$FB" --survey "sim:$p" > "$TMP/rb_$p.txt" 2> /dev/null
	"$FB" --analyze="$TMP/rb_$p.txt" > "$TMP/rb_$p.out" 2>&1
	want=$(grep -m1 '^# identity: size:' "$TMP/rb_$p.txt")
	if [ -n "$want" ] && grep -qxF "$want" "$TMP/rb_$p.out"; then
		pass "readback $p: identity size as the survey printed it"
	else
		fail "readback $p: want '$want', got: $(grep 'identity: size' "$TMP/rb_$p.out")"
	fi
done
