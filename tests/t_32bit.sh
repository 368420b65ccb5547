#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Offsets and lengths beyond 4 GiB: they must be reached exactly, also in
# a 32-bit build (make CC="gcc -m32" check), where size_t and long are 32
# bits wide.  A 2 TiB simulated card, and a sparse 6 GiB file.
. tests/lib.sh

G5=5368709120
T1=1099511627776
T2=2199023255552

# the plan of -O at 5 GiB: every write at or past 5 GiB, inside the card
"$FB" --dry-run -v -O --offset=5G sim:size=2T > "$TMP/32.out" 2> "$TMP/32.err"
rc=$?
awk -v lo=$G5 -v hi=$T2 '
	$1 == "write" { n++; if ($2 < min || n == 1) min = $2
			if ($2 + $3 > hi || $2 < lo) bad++ }
	END { if (!n || bad || min != lo) exit 1 }' "$TMP/32.out"
ok=$?
if [ $rc -eq 0 ] && [ $ok -eq 0 ]; then
	pass "32bit: -O --offset=5G on sim:size=2T plans writes from $G5 on"
else
	fail "32bit: -O --offset=5G plan (exit $rc):" \
	     "$(grep -v '^write' "$TMP/32.out" | head -c 300)" \
	     "$(head -c 300 "$TMP/32.err")"
fi
expect_grep "32bit: the plan announces bytes $G5-5372903423" \
	"^# writes bytes $G5-5372903423\$" "$TMP/32.out"

# the same test run on the simulated card: rows for every size
"$FB" -O --offset=5G sim:size=2T > "$TMP/32.out" 2> "$TMP/32.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^4MiB' "$TMP/32.out" &&
   grep -q "will overwrite.*$G5-" "$TMP/32.err"; then
	pass "32bit: -O --offset=5G runs on sim:size=2T"
else
	fail "32bit: -O --offset=5G on sim:size=2T: exit $rc:" \
	     "$(head -c 300 "$TMP/32.err")"
fi

# -a on 2 TiB starts, as the classic, at the largest boundary that fits
# four times: 512 GiB, read at places up to 1.5 TiB
"$FB" -a sim:size=2T > "$TMP/32.out" 2> "$TMP/32.err"
rc=$?
if [ $rc -eq 0 ] && head -n 1 "$TMP/32.out" | grep -q "^align $((T1 / 2))	"; then
	pass "32bit: -a on sim:size=2T reads across the 512 GiB boundary"
else
	fail "32bit: -a sim:size=2T: exit $rc: $(head -c 200 "$TMP/32.out")" \
	     "$(head -c 200 "$TMP/32.err")"
fi

# a discard longer than 4 GiB needs no 4 GiB buffer
expect_status "32bit: --discard=0:5G on sim:size=2T" 0 \
	"$FB" --discard=0:5G sim:size=2T
expect_grep "32bit: --discard=0:5G announces bytes 0-5368709119" \
	"0-5368709119" "$TMP/err"

# open-AU sweep with AUs spread over the first TiB
"$FB" --dry-run -v -O --offset=1T --open-au-nr=1-4 --erasesize=16M \
	sim:size=2T > "$TMP/32.out" 2>&1
awk -v lo=$T1 -v hi=$T2 '
	$1 == "write" { n++; if ($2 < lo || $2 + $3 > hi) bad++ }
	END { exit !(n && !bad) }' "$TMP/32.out" &&
	pass "32bit: an open-AU sweep at 1 TiB stays between 1 and 2 TiB" ||
	fail "32bit: open-AU sweep at 1 TiB: $(head -c 300 "$TMP/32.out")"

# a real (sparse) file past 4 GiB: the write lands at 5 GiB, byte-exact
IMG=$TMP/32bit-6g.img
rm -f "$IMG"
if ! dd if=/dev/null of="$IMG" bs=1 seek=6442450944 2>/dev/null ||
   [ "$(wc -c < "$IMG")" -ne 6442450944 ]; then
	skip "32bit: sparse 6 GiB file (the file system cannot make one)"
	rm -f "$IMG"
	exit 0
fi
"$FB" -O --offset=5G --open-au-nr=1 --erasesize=1M --blocksize=256K \
	--count=1 "$IMG" > "$TMP/32.out" 2> "$TMP/32.err"
rc=$?
# non-zero bytes in MiB number $1 of the image
nonzero() {
	dd if="$IMG" bs=1048576 skip="$1" count=1 2>/dev/null |
		tr -d '\000' | wc -c
}
# the test writes a non-zero pattern at 5 GiB; an offset cut to 32 bits
# would land at 1 GiB, and the start of the device must stay untouched
at5=$(nonzero 5120)
at4=$(( $(nonzero 0) + $(nonzero 1024) + $(nonzero 5119) + $(nonzero 5121) ))
if [ $rc -eq 0 ] && [ "$at5" -gt 0 ] && [ "$at4" -eq 0 ] &&
   grep -q "$G5-5369757695" "$TMP/32.err"; then
	pass "32bit: -O --offset=5G writes at 5 GiB of a 6 GiB file, only there"
else
	fail "32bit: -O --offset=5G on a 6 GiB file: exit $rc, $at5 bytes" \
	     "set at 5 GiB, $at4 elsewhere: $(head -c 300 "$TMP/32.err")"
fi
rm -f "$IMG" "$TMP/32.out" "$TMP/32.err"
