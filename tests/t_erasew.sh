#!/bin/sh
# --find-erase: the erase size from writes.  On the sim's profiles the
# verdict is the card's AU; every write stays inside the announced
# region; --analyze of the printed table says what the run said; random
# cards of known AU get no wrong verdict at medium or high; bad values
# exit 2 with one line.
. tests/lib.sh

# verdict SPEC: the run's rows in $TMP/out, its erase_size line in
# $TMP/live, the plan and trace (-v) in $TMP/err
verdict() {
	if ! $FB -v --find-erase "$1" > "$TMP/out" 2> "$TMP/err"; then
		fail "$1: exit: $(grep -v '^write' "$TMP/err" | head -c 300)"
		return 1
	fi
	grep -o 'erase_size: .*' "$TMP/err" > "$TMP/live"
}

for want in sd08g:4MiB su04g:4MiB samsung16:8MiB rage:12MiB; do
	p=${want%%:*} au=${want#*:}
	verdict "sim:$p" || continue
	expect_grep "$p: erase size $au from writes" \
		"^erase_size: $au (\(medium\|high\)) -- writes at $au boundaries" \
		"$TMP/live"
done

# sd08g's run: each write inside one of the ranges the plan announced
verdict sim:sd08g &&
if awk '/will overwrite/ { for (i = 1; i <= NF; i++)
		if (split($i, r, "-") == 2 && r[1] ~ /^[0-9]+$/) {
			lo[n] = r[1]; hi[n++] = r[2] } }
	/^write / { w++; ok = 0
		for (i = 0; i < n; i++)
			if ($2 >= lo[i] && $2 + $3 - 1 <= hi[i]) ok = 1
		if (!ok) bad++ }
	END { exit !(n > 0 && w > 0 && !bad) }' "$TMP/err"; then
	pass "every write inside the announced region"
else
	fail "a write outside the announced region: $(head -c 300 "$TMP/err")"
fi

# the printed table, read back, gives the live verdict
if $FB --analyze="$TMP/out" > "$TMP/back" 2>&1 &&
   grep -o 'erase_size: .*' "$TMP/back" | cmp -s - "$TMP/live"; then
	pass "--analyze of the table: the live verdict"
else
	fail "--analyze differs: $(cat "$TMP/live") / $(head -c 300 "$TMP/back")"
fi

# random cards of every kind: right or abstained, never wrong and sure
if python3 bench/erasew_accuracy.py "$FB" --cards 12 --seed 3 \
	> "$TMP/acc" 2>&1 && grep -q "read back the same: 18 of 18" "$TMP/acc" &&
   grep -q "right [1-9]" "$TMP/acc"; then
	pass "random cards: right verdicts, no wrong medium/high one, all read back"
else
	fail "random cards: $(head -c 400 "$TMP/acc")"
fi

expect_status "--offset off the sector: exit 2" 2 \
	$FB --find-erase --offset=1000 sim:
expect_grep "--offset off the sector: one line naming it" \
	"^flashbench: --offset=1000: not a multiple" "$TMP/err"
[ "$(wc -l < "$TMP/err")" -eq 1 ] && pass "--offset: a single line" ||
	fail "--offset: $(wc -l < "$TMP/err") lines"
expect_status "a card too small for two candidates: exit 2" 2 \
	$FB --find-erase sim:size=40M
