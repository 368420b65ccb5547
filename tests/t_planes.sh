#!/bin/sh
# Multi-plane reads: the sim keys planes and planecost, and the page
# verdict on the -a tables they make (the page is the first step above
# the floor; the larger step at 2 or 4 pages is a note, not the page).
. tests/lib.sh

# diffs NAME SPEC: the noise-free 1 KiB -a table's "align diff" pairs
diffs() {
	if ! $FB --json -a "$2" --blocksize=1024 --count=1 > "$TMP/json" \
		2> "$TMP/err"; then
		fail "$1: exit: $(head -c 300 "$TMP/err")"
		return 1
	fi
	python3 -c '
import json, sys
for r in json.load(sys.stdin)["tables"][0]["rows"]:
    print(r["align"], r["diff_ns"])' < "$TMP/json" > "$TMP/diffs"
}

# at KEY: the diff at boundary KEY of $TMP/diffs
at() { awk -v k="$1" '$1 == k { print $2 }' "$TMP/diffs"; }

# ratio NAME A B LO HI: LO <= A / B <= HI
ratio() {
	if awk -v a="$2" -v b="$3" -v lo="$4" -v hi="$5" \
		'BEGIN { exit !(b > 0 && a / b >= lo && a / b <= hi) }'; then
		pass "$1"
	else
		fail "$1: $2 / $3 not in $4..$5"
	fi
}

# Two 4 KiB pages read at once: seed 000's SD04G shape (2.5µs at 2KiB,
# 52.5µs at 4KiB, 272µs from 8KiB), on evo32's 205µs page read.
if diffs "planes=2" sim:evo32,page=4k,planes=2,noise=0; then
	ratio "sim planes=2: no step at 2KiB" "$(at 2048)" 1000 0 0.5
	ratio "sim planes=2: 4KiB steps by planecost (20%) of 8KiB" \
		"$(at 4096)" "$(at 8192)" 0.15 0.25
	ratio "sim planes=2: 8KiB and up step by a whole page read" \
		"$(at 8192)" "$(at 65536)" 0.97 1.03
fi
if diffs "planes=4" sim:evo32,page=4k,planes=4,planecost=30,noise=0; then
	ratio "sim planes=4: 4KiB and 8KiB alike" "$(at 4096)" "$(at 8192)" \
		0.97 1.03
	ratio "sim planes=4: 8KiB at planecost (30%) of 16KiB" \
		"$(at 8192)" "$(at 16384)" 0.25 0.35
fi

# planes=1 is the card as it was, whatever planecost says
$FB -a sim:sd08g --blocksize=1024 > "$TMP/p0" 2>&1
$FB -a sim:sd08g,planes=1,planecost=90 --blocksize=1024 > "$TMP/p1" 2>&1
if cmp -s "$TMP/p0" "$TMP/p1"; then
	pass "sim planes=1: the same output as without the key"
else
	fail "sim planes=1: output differs"
fi

expect_status "sim planes=3: refused" 2 $FB -a sim:planes=3
expect_grep "sim planes=3: the message names the key" \
	"sim:planes=3: planes: must be 1, 2, 4 or 8" "$TMP/err"
expect_status "sim planes x page beyond the AU: refused" 2 \
	$FB -a sim:au=128k,page=64k,planes=4
expect_grep "sim planes x page: the message says why" \
	"au: 128KiB is not a multiple of planes x page (256KiB)" "$TMP/err"
$FB --help-sim > "$TMP/out" 2>&1
expect_grep "--help-sim: planes" "^  planes .*multi-plane" "$TMP/out"
expect_grep "--help-sim: planecost" "^  planecost .*\[20\]" "$TMP/out"

# The page verdict: the first step is the page, the group a note.
expect_status "-a, 2 pages at once" 0 $FB -a sim:evo32,page=4k,planes=2 \
	--blocksize=1024 -o "$TMP/planes.txt"
expect_grep "-a, 2 pages at once: the page is the first step" \
	"page_size: 4KiB (.*note: second, larger step at 8KiB: reads 2 pages at once (multi-plane)" \
	"$TMP/err"
expect_status "--analyze, 2 pages at once" 0 $FB --analyze="$TMP/planes.txt"
expect_grep "--analyze, 2 pages at once: the page is the first step" \
	"# page_size: 4KiB (.*reads 2 pages at once (multi-plane)" "$TMP/out"
# A 32KiB page read two at a time whose own step (6.6µs at 32KiB) is
# hardly above the floor: the 64KiB group is no page said for sure.
expect_status "-a, a first step in the noise" 0 $FB -a \
	sim:xporter,size=33093386240,au=512k,page=32k,noise=6,seed=2100816479,planes=2,planecost=28 \
	--blocksize=1024
expect_grep "-a, a first step in the noise: low, and why" \
	"page_size: 64KiB (low) .*the page may be 32KiB, read 2 at a time (multi-plane)" \
	"$TMP/err"
# A 2KiB page read four at a time: the floor (2KiB, 4KiB) stands at 26µs.
expect_status "-a, a raised floor" 0 $FB -a \
	sim:evo32,page=2k,planes=4,planecost=13 --blocksize=1024
expect_grep "-a, a raised floor: low, and why" \
	"page_size: 8KiB (low) .*the floor under it stands at .*multi-plane" \
	"$TMP/err"
# An 8KiB page read four at a time, its own step (34% of a page read)
# lost in 14% noise: the 32KiB group is the first clear step, and the
# 16KiB row's scatter could hide the page's: low, and why.
expect_status "-a, a page step hidden in the scatter" 0 $FB -a \
	sim:su04g,size=29729488896,au=8m,page=8k,open=12,random=2,fat=1,noise=14,merge=15,small=64k,seed=1366768051,planes=4,planecost=34 \
	--blocksize=1024
expect_grep "-a, a page step hidden in the scatter: low, and why" \
	"page_size: 32KiB (low) .*could hide a smaller page read 2 or 4 at a time (multi-plane)" \
	"$TMP/err"
