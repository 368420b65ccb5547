#!/bin/sh
# The survey's random open-AU search: after the N=1 reference, the
# random ramp up to the linear count where it pays, then the run above
# its count to the collapse (none past the linear limit) and its count
# as a probe down to the smallest size where random slots running out
# shows and a row more, not a full run down to the last size.
. tests/lib.sh

S=$TMP/survey_random

# random_steps NAME FILE WANT: the survey's random steps, '|'-joined
random_steps() {
	got=$(sed -n 's/^# step [0-9]* (open-AU limit, random, \(.*\)): .*/\1/p' \
		"$2" | tr '\n' '|')
	[ "$got" = "$3" ] && pass "$1" ||
		fail "$1: random steps '$got', want '$3'"
}

$FB --survey sim:evo32 > "$S.txt" 2> /dev/null
$FB --survey --json sim:evo32 > "$S.json" 2> /dev/null
random_steps "survey random: N=1, the ramp, a probe at 7" "$S.txt" \
	"full run at N=1|ramp|probe N=7|"
# random slots are open slots: no random run past the linear limit
expect_grep "survey random: the verdict from the probe and the linear count" \
	'^# open_au_random: 7 (medium) -- N=7 holds.*no more than the 7 AUs open for linear writes' \
	"$S.txt"

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

# where climbing to the linear limit costs more than the -O runs would
# on the counts still possible (2MiB AUs, keeping 4), the planner's
# probe at the linear limit instead of the ramp
$FB --survey sim:size=17179869184,au=2097152,page=16384,open=4,random=4,fat=2,noise=0,seed=426350,merge=100,level=25 \
	> "$S.four" 2> /dev/null
random_steps "survey random: no ramp where it does not pay" "$S.four" \
	"full run at N=1|probe N=4|"
expect_grep "survey random: no ramp, the verdict" \
	'^# open_au_random: 4 (medium) -- N=4 holds' "$S.four"

# a card without random slots: N=1 collapses and ends the search
$FB --survey sim:sd08g > "$S.zero" 2> /dev/null
random_steps "survey random: no random slot, N=1 only" "$S.zero" \
	"full run at N=1|"
expect_grep "survey random: no random slot, the verdict" \
	'^# open_au_random: 0 (medium) -- N=1 collapses' "$S.zero"
