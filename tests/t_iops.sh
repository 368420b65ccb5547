#!/bin/sh
# --iops: random 4KiB reads and writes and a sequential write inside an
# announced region only (file and loop device), the table and the line
# of classes, --preserve, JSON, and bad values (exit 2, one line).
. tests/lib.sh

I=$TMP/iops
mkdir -p "$I"
LOOPS=
cleanup() {
	detach_loops
	rm -rf "$I"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# head and tail: the parts around the region 16MiB-96MiB of a 98MiB image
sums() {
	printf '%s %s\n' \
		"$(dd if="$1" bs=1M count=16 iflag=direct 2>/dev/null | cksum)" \
		"$(dd if="$1" bs=1M skip=96 iflag=direct 2>/dev/null | cksum)"
}

# region NAME DEV: a run from 16MiB writes only 16MiB-96MiB, announced
region() {
	_before=$(sums "$2")
	expect_status "$1: runs" 0 $FB --iops --offset=16M --count=64 "$2"
	expect_grep "$1: announces the region" \
		"^flashbench: iops will overwrite 80MiB of $2 in 1 range: 16777216-100663295$" \
		"$TMP/err"
	expect_grep "$1: the IOPS row" \
		"^4KiB random: read [0-9]* IOPS (.*), write [0-9]* IOPS (.*); sequential write " \
		"$TMP/out"
	expect_grep "$1: the classes line" \
		"(from measurement; the card's claims are not readable here)$" \
		"$TMP/out"
	if [ "$(sums "$2")" = "$_before" ]; then
		pass "$1: nothing written outside the region"
	else
		fail "$1: bytes outside 16MiB-96MiB changed"
	fi
}

F=$I/card.img
dd if=/dev/urandom of="$F" bs=1M count=98 2>/dev/null
region "file" "$F"

# --preserve puts the region back
_all=$(sum_of "$F")
expect_status "file: --preserve runs" 0 \
	$FB --iops --offset=16M --count=16 --preserve="$I/keep.fbp" "$F"
unchanged "file: --preserve" "$F" "$_all"

if is_root; then
	new_loop L "$F"
	if [ -n "$L" ]; then
		region "loop" "$L"
	else
		skip "loop: --iops (losetup failed)"
	fi
else
	skip "loop: --iops (need root for losetup)"
fi

# JSON: an additive table
expect_status "json: runs" 0 $FB --iops --json --count=16 sim:size=512M
expect_grep "json: the iops table" '"kind": "iops"' "$TMP/out"
expect_grep "json: read_ns" '"read_ns": [0-9]' "$TMP/out"
expect_grep "json: seq_bps" '"seq_bps": [0-9]' "$TMP/out"

# bad values: exit 2, one line naming the option, nothing written
truncate -s 20M "$I/small.img"
_small=$(sum_of "$I/small.img")
expect_status "too small: refused" 2 \
	$FB --iops --offset=16M --count=2000 "$I/small.img"
expect_grep "too small: names --count and says what it needs" \
	"^flashbench: --count=2000: 2000 random 4KiB writes and a 4MiB sequential write from offset 16MiB need 24MiB" \
	"$TMP/err"
unchanged "too small" "$I/small.img" "$_small"
expect_status "--offset=1000: refused" 2 $FB --iops --offset=1000 "$F"
expect_grep "--offset=1000: named" "^flashbench: --offset=1000: " "$TMP/err"
expect_status "--count=0: refused" 2 $FB --iops --count=0 "$F"
expect_grep "--count=0: named" "^flashbench: --count=0: " "$TMP/err"
if [ "$(wc -l < "$TMP/err")" -eq 1 ]; then
	pass "bad value: one line"
else
	fail "bad value: $(wc -l < "$TMP/err") lines"
fi

# the sim's class= states classes in an SD Status register: --info reads
# them, --iops checks each against the measurement; the sd08g profile
# writes at about 8MB/s (its seed report), far below U3's 30MB/s
expect_status "sim class=: --info" 0 $FB --info sim:class=A1:U3:V30
expect_grep "sim class=: --info decodes U3" "^uhs_speed_grade: U3$" "$TMP/out"
expect_grep "sim class=: --info decodes A1" "^app_class: A1$" "$TMP/out"
expect_status "sim class=: --iops" 0 \
	$FB --iops --count=32 sim:size=1GiB,noise=0,class=A1:U3:C4
expect_grep "sim class=: C4 met" \
	"^claims C4: [0-9.]* MB/s sequential write: meets C4 (medium)$" \
	"$TMP/out"
expect_grep "sim class=: U3 missed" \
	"^claims U3: [0-9.]* MB/s sequential write: sequential write below U3 (medium)$" \
	"$TMP/out"
expect_grep "sim class=: A1 judged" "^claims A1: [0-9]* read / [0-9]* write IOPS, " \
	"$TMP/out"
if grep -q "^qualifies for" "$TMP/out"; then
	fail "sim class=: a qualifies line beside the claims"
else
	pass "sim class=: no qualifies line beside the claims"
fi
expect_status "sim class=: an unknown class is refused" 2 \
	$FB --iops sim:class=A3
expect_grep "sim class=: names the key" "^flashbench: sim:class=A3: class: " \
	"$TMP/err"

# the sim's iops=READ:WRITE: random 4KiB I/O at the stated rates, within
# 5% (the default 1% jitter, averaged over the run's I/Os)
within() {
	awk -v v="$2" -v want="$3" 'BEGIN { exit !(v >= want * 0.95 &&
						   v <= want * 1.05) }' &&
		pass "$1: $2 within 5% of $3" || fail "$1: $2, not within 5% of $3"
}
expect_status "sim iops=: runs" 0 $FB --iops --count=64 sim:iops=2200:800
_r=$(sed -n 's/^4KiB random: read \([0-9]*\) IOPS.*/\1/p' "$TMP/out")
_w=$(sed -n 's/^4KiB random: .*, write \([0-9]*\) IOPS.*/\1/p' "$TMP/out")
within "sim iops=: read" "$_r" 2200
within "sim iops=: write" "$_w" 800

# class verdicts on cards with known IOPS: samsung16 writes at 16MB/s,
# above the A1/A2 sequential floor of 10MB/s
claim() {
	expect_status "$1: runs" 0 $FB --iops --count=64 "sim:samsung16,$2"
	expect_grep "$1: $3" "^claims A[12]: .*: $3$" "$TMP/out"
}
claim "an A1 card" "iops=2200:800,class=A1" "meets A1 (medium)"
claim "an A2 card" "iops=4800:2500,class=A2" "meets A2 (medium)"
claim "a card claiming A1 that writes 300 IOPS" "iops=2100:300,class=A1" \
	"write below A1 (medium)"
claim "a card at the A1 read floor" "iops=1520:900,class=A1" \
	"read within 10% of the A1 floor (inconclusive)"
expect_status "sim iops=: one of two is refused" 2 $FB --iops sim:iops=1:0
expect_grep "sim iops=: names the key" "^flashbench: sim:iops=1:0: iops: " \
	"$TMP/err"

# random cards around the A1/A2 floors: no verdict wrong at medium/high
if python3 tests/iops_check.py "$FB" 64 > "$TMP/iops_check" 2>&1; then
	pass "iops_check: $(tail -1 "$TMP/iops_check")"
else
	fail "iops_check: $(grep -m1 '^FAIL' "$TMP/iops_check")"
fi
