#!/bin/sh
# --survey picks the sizes and regions of its tests itself: an option it
# would ignore (it used to, silently: --offset=64M still wrote its FAT
# area at 0) is refused in one line naming it, exit 2, nothing run.
# --count it takes; --random it refuses too, as it runs both orders.
. tests/lib.sh

for typed in --offset=64M --blocksize=4k -b4k --erasesize=4M --fat-nr=2 \
	     --open-au-nr=3 --scatter-order=8 --scatter-span=2 \
	     --interval-order=4; do
	expect_status "survey $typed: refused" 2 \
		$FB --survey --yes "$typed" sim:sd08g
	if [ "$(wc -l < "$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ]; then
		expect_grep "survey $typed: says why" \
			"^flashbench: --[a-z-]*=[0-9kM]*: --survey chooses its own" \
			"$TMP/err"
	else
		fail "survey $typed: want one line, no results: $(head -c 300 "$TMP/err")"
	fi
done
for typed in -r --random; do
	expect_status "survey $typed: refused" 2 \
		$FB --survey --yes "$typed" sim:sd08g
	expect_grep "survey $typed: says why" \
		"^flashbench: --random: --survey runs both orders itself" \
		"$TMP/err"
done
expect_status "survey --count=2: taken (its --max-time stops it: 3)" 3 \
	$FB --survey --yes --count=2 --max-time=1m sim:sd08g
