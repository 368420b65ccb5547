#!/bin/sh
# Open-AU counts are what the runs prove: runs that held at N=a and
# collapsed at N=b, with no N between tried, give "between a and b-1",
# not a, and the survey's search goes on inside that interval.
. tests/lib.sh

card='sim:size=4G,au=4M,page=16K,open=16,random=4,noise=0,seed=5'

# paste FILE N...: one classic -O run per N, each under its command line,
# as a user pastes them
paste_runs() {
	_f=$1
	shift
	: > "$_f"
	for n in "$@"; do
		echo "# flashbench -O --open-au-nr=$n /dev/sdb" >> "$_f"
		$FB -O --open-au-nr=$n "$card" 0<>/dev/null >> "$_f" \
			2> /dev/null
	done
}

paste_runs "$TMP/bounds.txt" 1 8 19
$FB --analyze="$TMP/bounds.txt" > "$TMP/bounds.out" 2>&1
expect_grep "held at 8, collapsed at 19: between 8 and 18" \
	"open_au_linear: between 8 and 18 (" "$TMP/bounds.out"
$FB --analyze="$TMP/bounds.txt" --json > "$TMP/bounds.json" 2>&1
if python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["reports"][0]["sections"][0]["analysis"]["open_au_linear"]
assert v["value"] == 8 and v["at_least"] and v["max"] == 18, v
' "$TMP/bounds.json"; then
	pass "JSON: value 8, at_least, max 18"
else
	fail "JSON: $(head -c 400 "$TMP/bounds.json")"
fi

# adjacent N prove the count itself, and "max" is null
paste_runs "$TMP/bounds2.txt" 16 17
$FB --analyze="$TMP/bounds2.txt" > "$TMP/bounds2.out" 2>&1
expect_grep "held at 16, collapsed at 17: 16" \
	"open_au_linear: 16 (" "$TMP/bounds2.out"

# a collapse too shallow to call (2 MiB AUs keeping 3, a tenth of an AU
# copied on each): every N past the limit held at 65 % of the others,
# N=3 clearly; two such N make the edge, one alone (a pause as likely)
# does not, and with N between untried they give an interval
shallow='sim:sd08g,au=2M,size=1G,open=3,merge=10,small=128K,rcost=100'
erase=2M
# shallow_runs FILE N...: one -O run per N on $shallow with --erasesize
# $erase, each under its command line
shallow_runs() {
	_f=$1
	shift
	: > "$_f"
	for n in "$@"; do
		echo "# flashbench -O --erasesize=$erase --open-au-nr=$n" \
			"/dev/sdb" >> "$_f"
		$FB -O --erasesize=$erase --open-au-nr=$n "$shallow" \
			0<>/dev/null >> "$_f" 2> /dev/null
	done
}
shallow_runs "$TMP/shallow.txt" 1 3 4 5
$FB --analyze="$TMP/shallow.txt" > "$TMP/shallow.out" 2>&1
expect_grep "shallow collapse from N=4 on: 3" \
	"open_au_linear: 3 (medium) .*too shallow to call" "$TMP/shallow.out"
shallow_runs "$TMP/shallow1.txt" 1 3 4
$FB --analyze="$TMP/shallow1.txt" > "$TMP/shallow1.out" 2>&1
expect_grep "one N held unclearly: a bound, low" \
	"open_au_linear: at least 4 (low)" "$TMP/shallow1.out"
shallow_runs "$TMP/shallow2.txt" 1 3 6 9
$FB --analyze="$TMP/shallow2.txt" > "$TMP/shallow2.out" 2>&1
expect_grep "shallow collapse from N=6 on, 4 and 5 untried: between" \
	"open_au_linear: between 3 and 5 (low)" "$TMP/shallow2.out"

# shallower still (1 MiB AUs keeping 6, small writes buffered): every N
# from 13 on at 79 % of the others at 256 KiB, N=3 not: "at least 36
# (medium)" was a wrong promise
shallow=sim:size=16G,au=1M,page=16K,open=6,random=1,seed=659632,merge=10
shallow=$shallow,small=128K
erase=1M
shallow_runs "$TMP/shallow3.txt" 1 3 13 36
$FB --analyze="$TMP/shallow3.txt" > "$TMP/shallow3.out" 2>&1
expect_grep "alike at one size from N=13 on: between 3 and 12" \
	"open_au_linear: between 3 and 12 (low) .*at the same size" \
	"$TMP/shallow3.out"
