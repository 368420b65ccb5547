#!/bin/sh
# Verdicts on every simulated profile at 0, 5 and 15 percent noise over
# several seeds: right, or honestly unsure -- never confidently wrong.
. tests/lib.sh

if python3 tests/profiles.py --noise 0,5,15 --seeds 1,2,3 \
	--fb "$FB" > "$TMP/accuracy"; then
	pass "accuracy: no confident wrong verdict at noise 0, 5, 15%"
else
	fail "accuracy: $(grep '^wrong' "$TMP/accuracy" | head -n 3)"
fi
sed 's/^/# /' "$TMP/accuracy"
# at noise 0 every verdict is right
if awk -F'\t' '$1 == "0%" { exit !($3 == 0 && $4 == 0) }' "$TMP/accuracy"
then
	pass "accuracy: every verdict right without noise"
else
	fail "accuracy: noise 0: $(grep '^0%' "$TMP/accuracy")"
fi

# Random cards over the whole parameter space (the fast part of "make
# accuracy"): the share of confident wrong verdicts may only shrink.
if python3 tests/accuracy.py --cards 12 --seed 2 --max-wrong 4 \
	--fb "$FB" > "$TMP/random"; then
	pass "accuracy: random cards: at most 4% confidently wrong"
else
	fail "accuracy: random cards: $(grep '^all' "$TMP/random")"
fi
sed 's/^/# /' "$TMP/random"
