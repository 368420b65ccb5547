#!/bin/sh
# Read-back: --analyze of a survey's own text keeps the card's identity
# (the "# identity: size:" line is bytes, not sysfs sectors) and its
# verdicts.
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

# Every verdict line reads back to the letter, evidence too: where the
# places of the -a rows set the page size (the text once kept only the
# rows' means: 16KiB read back at low) and where rounding the rates
# moved the smallest full-speed write ("at most 4KiB" to "at most 8KiB")
for k in 'size=4294967296,au=1048576,page=16384,open=5,random=0,fat=0,fatstart=0,noise=5,seed=681099,merge=10,level=0,small=16384,rcost=100' \
	'size=4294967296,au=2097152,page=4096,open=1,random=0,fat=1,fatstart=0,noise=0,seed=193578,merge=50,level=0,small=0,rcost=0'; do
	"$FB" --survey "sim:$k" > "$TMP/rb.txt" 2>/dev/null
	grep '^# [a-z_]*: .* -- ' "$TMP/rb.txt" > "$TMP/rb.live"
	"$FB" --analyze="$TMP/rb.txt" 2>&1 | grep '^# [a-z_]*: .* -- ' > "$TMP/rb.back"
	if grep -q '^# places at ' "$TMP/rb.txt" && [ -s "$TMP/rb.live" ] &&
	   cmp -s "$TMP/rb.live" "$TMP/rb.back"; then
		pass "readback: verdicts word for word (${k%%,open*})"
	else
		fail "readback: verdicts of ${k%%,open*} differs:" \
			"$(diff "$TMP/rb.live" "$TMP/rb.back" | head -n 4)"
	fi
done
