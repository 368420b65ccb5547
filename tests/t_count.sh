#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# --count on the write tests: -O and -f measure each size once by default
# (the classic's table); --count=N makes N passes and keeps the best.
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
# several tests in one run: each its own default
c=$("$FB" --json -O -a sim: 2>/dev/null | grep -o '"count": *[0-9]*' |
    tr -dc '0-9\n' | tr '\n' ' ')
[ "$c" = "8 1 " ] && pass "count: -O -a in one run: -a best of 8, -O once" ||
	fail "count: -O -a in one run: counts $c, want 8 1"
