#!/bin/sh
# The survey's random open-AU search: after the N=1 reference, the
# random ramp up to the linear count, then the run above its count to
# the collapse and its count as a probe down to the smallest size where
# random slots running out shows and a row more, not a full run down to
# the last size.
. tests/lib.sh

S=$TMP/survey_random

$FB --survey sim:evo32 > "$S.txt" 2> /dev/null
$FB --survey --json sim:evo32 > "$S.json" 2> /dev/null
got=$(sed -n 's/^# step [0-9]* (open-AU limit, random, \(.*\)): .*/\1/p' \
	"$S.txt" | tr '\n' '|')
want="full run at N=1|ramp|probe N=8|probe N=7|"
[ "$got" = "$want" ] && pass "survey random: N=1, the ramp, probes at 8 and 7" ||
	fail "survey random: random steps '$got', want '$want'"
expect_grep "survey random: the verdict from the probes" \
	'^# open_au_random: 7 (high) -- N=7 holds' "$S.txt"

# the probe at 7 stops one size below 64KiB: 10 of the 13 sizes
rows=$(awk '/^# step [0-9]* \(open-AU limit, random, probe N=7\)/ { on = 1;
	next } on && /^$/ { exit } on { n++ } END { print n + 0 }' "$S.txt")
[ "$rows" = 10 ] && pass "survey random: the probe at 7 goes down to 32KiB" ||
	fail "survey random: the probe at 7 has $rows rows, want 10"

# it writes less than the full run at 7 the search made before
$FB --json -O --random --erasesize=16777216 --blocksize=4096 \
	--open-au-nr=7 sim:evo32 > "$S.full" 2> /dev/null 0<>/dev/null
if python3 - "$S.json" "$S.full" <<'PY'
import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
full = json.load(open(sys.argv[2]))["io"]["bytes_written"]
probe = [s["bytes_written"] for s in steps
         if s["what"] == "open-AU limit, random, probe N=7"]
sys.exit(0 if probe and 0 < probe[0] < 0.9 * full else 1)
PY
then
	pass "survey random: the probe at 7 writes under 90% of a full run"
else
	fail "survey random: the probe at 7 writes as much as a full run"
fi

# a card without random slots: N=1 collapses and ends the search
$FB --survey sim:sd08g > "$S.zero" 2> /dev/null
got=$(sed -n 's/^# step [0-9]* (open-AU limit, random, \(.*\)): .*/\1/p' \
	"$S.zero" | tr '\n' '|')
[ "$got" = "full run at N=1|" ] &&
	pass "survey random: no random slot, N=1 only" ||
	fail "survey random: random steps '$got' on sd08g"
expect_grep "survey random: no random slot, the verdict" \
	'^# open_au_random: 0 (medium) -- N=1 collapses' "$S.zero"
