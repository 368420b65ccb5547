#!/bin/sh
# The classic command lines from the seed reports run unchanged (option
# order, $[...] arithmetic already expanded by the shell, "--blocksize
# 1024" with a space, the device in the middle) and print the classic rows.
. tests/lib.sh

S=sim:sd08g
F=$TMP/classic.img
truncate -s 512M "$F"

# classic NAME PATTERN ARGS...: exit 0 and every stdout line matches
classic() {
	_name=$1 _pat=$2
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	_st=$?
	if [ $_st -ne 0 ]; then
		fail "$_name: exit $_st: $(head -c 200 "$TMP/err")"
	elif [ ! -s "$TMP/out" ]; then
		fail "$_name: no rows"
	elif grep -v -e "$_pat" "$TMP/out" >"$TMP/bad"; then
		fail "$_name: unexpected line: $(head -n 1 "$TMP/bad")"
	else
		pass "$_name: $(wc -l < "$TMP/out") classic rows"
	fi
}

A='^align [0-9]*	pre [0-9.]*[nµm]*s	on [0-9.]*[nµm]*s	post [0-9.]*[nµm]*s	diff -*[0-9.]*[nµm]*s$'
# -O and -f rows: space-padded fields, a trailing space, no tabs
R='^[0-9.]*[KMG]*i*B  *[0-9.]*[KMG]*\/s  *$'
FAT='^[0-9.]*[KMG]*i*B  *\([0-9.]*[KMG]*\/s  *\)*$'

for dev in $S "$F"; do
	classic "$dev: -a --blocksize=1024" "$A" \
		$FB -a "$dev" --blocksize=1024
	classic "$dev: -a -b 1024 before the device" "$A" \
		$FB -a -b 1024 "$dev"
	classic "$dev: -a --blocksize 1024 (space)" "$A" \
		$FB -a "$dev" --blocksize 1024
	classic "$dev: -a --blocksize=\$[3*1024]" "$A" \
		$FB -a "$dev" --blocksize=$((3 * 1024))
	classic "$dev: -a --count=100" "$A" \
		$FB -a "$dev" --count=100 --blocksize=1024
	classic "$dev: -O --open-au-nr=1" "$R" \
		$FB -O --open-au-nr=1 "$dev"
	classic "$dev: --open-au, options after the device" "$R" \
		$FB "$dev" --open-au --blocksize=$((16 * 1024)) \
		--erasesize=$((4 * 1024 * 1024)) --open-au-nr=2
	classic "$dev: --offset=\$[32 * 1024 * 1024] --random" "$R" \
		$FB --open-au --open-au-nr=1 --erasesize=$((4 * 1024 * 1024)) \
		--blocksize=$((256 * 1024)) "$dev" \
		--offset=$((32 * 1024 * 1024)) --random
	classic "$dev: -f --erasesize=\$[4*1024*1024]" "$FAT" \
		$FB "$dev" -f --erasesize=$((4 * 1024 * 1024)) \
		--blocksize=$((256 * 1024))
	classic "$dev: --findfat --fat-nr=10 --random" "$FAT" \
		$FB --findfat --fat-nr=10 --erasesize=$((1024 * 1024)) \
		--blocksize=$((64 * 1024)) "$dev" --random
done

# 10 MiB erase blocks: sizes like 2.5MiB and 1.25MiB, as in the seeds
classic "10MiB erase size" "$R" $FB --open-au --open-au-nr=1 $S \
	--blocksize=$((5120 * 8)) --erasesize=$((10240 * 1024))
expect_grep "10MiB erase size: 2.5MiB and 1.25MiB rows" "^1.25MiB " \
	"$TMP/out"
rm -f "$F"

# Classic syntax: numbers in any C base, -F, several tests in one run
expect_status "--offset=0x2000000 (hex)" 0 $FB --dry-run -O --open-au-nr=1 \
	--offset=0x2000000 $S
expect_grep "--offset=0x2000000 writes from 32 MiB" \
	"^# writes bytes 33554432-" "$TMP/out"
expect_status "--count=010 (octal: 8)" 0 $FB -a --count=010 --json $S
expect_grep "--count=010 is 8" '"count": 8,' "$TMP/out"
expect_status "-F 3 is --fat-nr=3" 0 $FB -f -F 3 --erasesize=1M \
	--blocksize=512K $S
[ "$(head -n 1 "$TMP/out" | wc -w)" -eq 4 ] &&
	pass "-F 3: three AU columns" ||
	fail "-F 3: $(head -n 1 "$TMP/out")"
# -O -a -f on the command line run as the classic ran them: -f, -a, -O
$FB -O -a -f --open-au-nr=1 --erasesize=1M --blocksize=256K --count=1 $S \
	>"$TMP/out" 2>"$TMP/err"
order=$(awk '/^align / { k = "a" } /^[0-9.]*[KMG]i?B  *[0-9.]*[KMG]\/s  *$/ \
	{ k = "O" } /\/s  *[0-9.]*[KMG]\/s/ { k = "f" }
	k != last { printf "%s", k; last = k }' "$TMP/out")
[ "$order" = "faO" ] && pass "-O -a -f run in the classic order -f -a -O" ||
	fail "-O -a -f: tables in order '$order', want faO"
[ "$(grep -c 'will overwrite' "$TMP/err")" -eq 2 ] &&
	pass "-O -a -f: each write test announces its own ranges" ||
	fail "-O -a -f: announcements: $(grep -c 'will overwrite' "$TMP/err")"
$FB --json -a -O --open-au-nr=1 --count=1 $S >"$TMP/out" 2>/dev/null
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert [x["tables"][0]["kind"] for x in d] == ["align", "open_au"]' \
	"$TMP/out" && pass "--json -a -O: an array of two documents" ||
	fail "--json -a -O: $(head -c 200 "$TMP/out")"
