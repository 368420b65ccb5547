#!/bin/sh
# The real-report corpus of tests/real: the scorer of "make accuracy"
# reads every report and every label line, and says so when one does not.
. tests/lib.sh

SCORER="python3 tests/real_accuracy.py --flashbench $FB"

if $SCORER --check > "$TMP/corpus" 2>&1; then
	pass "corpus: every report reads and every label line is well formed"
else
	fail "corpus: $(head -n 3 "$TMP/corpus")"
fi

# the score table: one row per reading kind and a total over every label
$SCORER > "$TMP/score" 2>&1
want=$(cat tests/real/[0-9]*.labels | sed 's/#.*//' | grep -c '[^ ]')
got=$(awk '$1 == "total" { print $7 }' "$TMP/score")
if [ "$got" = "$want" ]; then
	pass "corpus: the score counts all $want readings"
else
	fail "corpus: the score counts '$got' readings, the labels hold $want"
fi
for kind in erase page open_linear open_random min_write fat; do
	expect_grep "corpus: a score row for $kind" "^$kind  *[0-9]" "$TMP/score"
done

# a verdict is a promise: on real cards none may be wrong at medium or high
bad=$(awk '$1 == "total" { print $5 + $6 }' "$TMP/score")
if [ "$bad" = 0 ]; then
	pass "corpus: no reading wrong at medium or high confidence"
else
	fail "corpus: $bad readings wrong at medium or high: $($SCORER -v 2>&1 |
		grep -E 'wrong-(medium|high)' | head -n 3)"
fi

# --check must fail on a broken corpus, naming the file and the fault
D=$TMP/corpus-broken
rm -rf "$D"
mkdir -p "$D"
cp tests/real/001-*.txt tests/real/001-*.labels "$D"
printf '# source: nowhere\nno table here\n' > "$D/002-empty.txt"
echo "page 16KiB high ours" > "$D/002-empty.labels"
cp tests/real/009-*.txt "$D/003-nolabels.txt"
echo "erase 4MiB high ours" > "$D/004-orphan.labels"
tail -n +2 tests/real/009-*.txt > "$D/005-nosource.txt"
echo "page 512B low ours" > "$D/005-nosource.labels"
bad=$(ls "$D"/001-*.labels)
{
	echo "erase 4 high ours # no unit"
	echo "open_linear 4MiB medium ours # a size for a count"
	echo "page between:16KiB:8KiB low ours # backwards"
	echo "min_write 32KiB certain ours # no such confidence"
	echo "fat none high Arnd # no expert: prefix"
	echo "speed 4MiB low ours # no such kind"
	echo "erase at_least low ours # a bound with no value"
	echo "erase between:1MiB:2MiB:4MiB low ours # three ends"
} >> "$bad"
$SCORER --check --dir "$D" > "$TMP/broken" 2>&1
st=$?
if [ $st -eq 1 ]; then
	pass "corpus: --check exits 1 on a broken corpus"
else
	fail "corpus: --check on a broken corpus: exit $st"
fi
for why in "002-empty.txt: flashbench exit 1" \
	"003-nolabels.labels: no labels file" \
	"004-orphan.labels: no report" \
	'005-nosource.txt:1: no "# source: " line first' \
	"erase is a size with a unit" "open_linear is a count" \
	"ends below its start" "confidence 'certain'" \
	"who 'Arnd'" "unknown kind 'speed'" "'at_least' is no size" \
	"wrong number of parts"; do
	expect_grep "corpus: --check reports: $why" "$why" "$TMP/broken"
done
n=$(wc -l < "$TMP/broken")
if [ "$n" -eq 12 ]; then
	pass "corpus: --check reports each of the 12 faults once"
else
	fail "corpus: --check printed $n lines, want 12: $(cat "$TMP/broken")"
fi
rm -rf "$D"

# "make accuracy" prints each kind's real figures beside a sim run's
python3 tests/accuracy.py --cards 1 --seed 1 --fb "$FB" > "$TMP/sim" 2>&1
$SCORER --sim "$TMP/sim" > "$TMP/beside" 2>&1
for kind in erase page open_linear open_random min_write fat total; do
	expect_grep "corpus: $kind beside its sim figures" \
		"^$kind\( *[0-9][0-9]*\)\{10\}$" "$TMP/beside"
done
sim_all=$(awk -F'\t' '$1 == "all" { print $2 + $3 }' "$TMP/sim")
shown=$(awk '$1 == "total" && NF == 11 { print $7 }' "$TMP/beside")
if [ -n "$sim_all" ] && [ "$shown" = "$sim_all" ]; then
	pass "corpus: the sim's right beside the total is its right and right-abstain"
else
	fail "corpus: the sim's right shows '$shown', its table says '$sim_all'"
fi
