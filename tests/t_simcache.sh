#!/bin/sh
# The sim's write cache (cache=SIZE:RATE): once SIZE bytes are written,
# writes go at no more than RATE; before that the card is unchanged.
. tests/lib.sh

OPTS="-O --erasesize=4194304 --open-au-nr=1"

# rows NAME SPEC: the -O rows ("size rate") of SPEC into $TMP/NAME
rows() {
	if ! $FB $OPTS "$2" > "$TMP/$1" 2> "$TMP/err"; then
		fail "$1: exit: $(head -c 300 "$TMP/err")"
		return 1
	fi
}

rows plain sim:noise=0 &&
rows big sim:noise=0,cache=1G:1M &&
if cmp -s "$TMP/plain" "$TMP/big"; then
	pass "cache not reached: rows unchanged"
else
	fail "cache not reached: rows differ: $(head -c 300 "$TMP/big")"
fi

# Past a 1 MiB cache every row runs at 1 MiB/s (1.05M/s), within 15 %.
rows small sim:noise=0,cache=1M:1M &&
if awk 'NR > 1 { r = $2; sub(/M\/s/, "", r); n++
		if (r < 1.048576 * 0.85 || r > 1.048576 * 1.15) bad++ }
	END { exit !(n >= 3 && !bad) }' "$TMP/small"; then
	pass "past the cache: rows at its rate"
else
	fail "past the cache: $(tr '\n' ' ' < "$TMP/small")"
fi

$FB --help-sim > "$TMP/help" 2>&1
expect_grep "help-sim lists cache" '^  cache  *SIZE:RATE' "$TMP/help"

for v in 1G 1G:x x:1M 0:1M 1M:0; do
	expect_status "cache=$v: exit 2" 2 $FB -O "sim:cache=$v"
	if [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	   grep -q "cache" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		pass "cache=$v: one line naming the key"
	else
		fail "cache=$v: $(head -c 300 "$TMP/err")"
	fi
done
