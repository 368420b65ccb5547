#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# --count on the write tests: -O and -f measure each size once by default
# (the classic's table; in linear order again, twice at most, while a
# pause took the fastest pass); --count=N makes N passes and keeps the
# best.
. tests/lib.sh

# writes ARGS...: the number of writes a run makes and its parameters.count
writes() {
	"$FB" --json "$@" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["io"]["writes"], d["parameters"]["count"], len(d["tables"][0]["rows"]))'
}
for t in "-O" "-O --open-au-nr=1-3" "-f"; do
	set -- $(writes $t sim:)
	n1=$1 c1=$2 rows1=$3
	set -- $(writes $t --count=3 sim:)
	if [ "$c1" = 1 ] && [ "$2" = 3 ] && [ "$1" -ge $((2 * n1)) ] &&
	   [ "$1" -le $((3 * n1)) ] && [ "$3" = "$rows1" ]; then
		pass "count: $t: one pass by default, --count=3 makes 3 ($n1, $1 writes)"
	else
		fail "count: $t: default $n1 writes (count $c1), --count=3: $1 (count $2), rows $rows1/$3"
	fi
done
# on a card with noise, the best of 5 passes beats a single pass
# in most rows
"$FB" -O --json sim:noise=15,seed=4 --count=5 > "$TMP/count5" 2>/dev/null
"$FB" -O --json sim:noise=15,seed=4 > "$TMP/count1" 2>/dev/null
if python3 - "$TMP/count1" "$TMP/count5" <<'PY'
import json, sys
one, five = (json.load(open(f))["tables"][0]["rows"] for f in sys.argv[1:])
faster = sum(b["rate_bps"] > a["rate_bps"] for a, b in zip(one, five))
sys.exit(0 if faster * 2 > len(one) else 1)
PY
then
	pass "count: -O --count=5 keeps the fastest of its passes"
else
	fail "count: -O --count=5 is not faster than one pass"
fi
rm -f "$TMP/count1" "$TMP/count5"
# A pause of the card (20-200ms now and then, seed 000's slow rows): in
# linear order a pass one of whose writes stands out that far is made
# again, twice at most, and the fastest kept; --count=1 makes one pass,
# as the classic.
# A card without pauses, or random order (where a second pass finds the
# AUs as the first left them), gets one pass.
card=sim:sd08g,noise=0,pause=20
one="-O --open-au-nr=1 --blocksize=16k"
"$FB" --json $one sim:sd08g,noise=0 > "$TMP/still" 2>/dev/null
"$FB" --json $one $card > "$TMP/again" 2>/dev/null
"$FB" --json $one --count=1 $card > "$TMP/once" 2>/dev/null
if python3 - "$TMP/still" "$TMP/again" "$TMP/once" <<'PY'
import json, sys
still, again, once = (json.load(open(f)) for f in sys.argv[1:])
def near(d):
    return sum(abs(r["rate_bps"] / s["rate_bps"] - 1) < 0.05 for r, s in
               zip(d["tables"][0]["rows"], still["tables"][0]["rows"]))
w = [d["io"]["writes"] for d in (still, again, once)]
print("writes %s, rows within 5%% of the card without pauses: %d, %d" %
      (w, near(again), near(once)))
sys.exit(0 if 3 * w[2] >= w[1] > w[2] == w[0] and near(again) > near(once)
         else 1)
PY
then
	pass "count: -O measures a row a pause took again, 3 passes at most"
else
	fail "count: -O and pauses"
fi
for c in "$card --random" "sim:sd08g,noise=0"; do
	set -- $(writes $one $c) $(writes $one --count=1 $c)
	[ "$1" = "$4" ] && pass "count: -O $c: one pass ($1 writes)" ||
		fail "count: -O $c: $1 writes, --count=1 $4"
done
rm -f "$TMP/still" "$TMP/again" "$TMP/once"
# several tests in one run: each its own default
c=$("$FB" --json -O -a sim: 2>/dev/null | grep -o '"count": *[0-9]*' |
    tr -dc '0-9\n' | tr '\n' ' ')
[ "$c" = "32 1 " ] && pass "count: -O -a in one run: -a best of 32, -O once" ||
	fail "count: -O -a in one run: counts $c, want 32 1"
