#!/bin/sh
# tests/real/CALIBRATION, the sim: cards fitted to the real reports
# (tests/fit_real.py, doc/sim.md): every line parses, every spec opens,
# and the cards of two cheap reports (the two Kingstons) make rows as
# close to their report's as their lines say (one PASS or FAIL line per
# report, from fit_real.py --check).
. tests/lib.sh

if ! python3 tests/fit_real.py --fb "$FB" --check 002-kingston-sa04g-2010 \
	013-kingston-sa04g-2013 > "$TMP/calib" \
	2> "$TMP/calib.err"; then
	grep -q '^FAIL: ' "$TMP/calib" ||
		fail "fit_real.py --check: $(tail -c 300 "$TMP/calib.err")"
fi
cat "$TMP/calib"

# The Kingston (013) the fit exists for: --random runs hold at N=1 to 3,
# flat at a third of the linear rate, and N=4 collapses.  On its fitted
# card a random sweep may read that flat rate as a collapse, but then
# only without confidence: 3, or unknown / low, never another count said
# at medium or high confidence.
spec=$(awk '/^013-/ { print $NF }' tests/real/CALIBRATION)
if $FB --json -O --random --open-au-nr=1-4 --erasesize=4194304 \
	--blocksize=16384 "$spec" > "$TMP/calib.json" 2> "$TMP/calib.err" &&
   python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["analysis"]["open_au_random"]
sys.exit(a["value"] not in (None, 3) and
	 a["confidence"] in ("medium", "high"))' "$TMP/calib.json"; then
	pass "013 fitted card: open_au_random 3 or unsure, never wrong"
else
	fail "013 fitted card: $(head -c 300 "$TMP/calib.err")"
fi
