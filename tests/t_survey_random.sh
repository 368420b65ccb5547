#!/bin/sh
# The survey's random open-AU search: after the N=1 reference, the
# random ramp up to one short of the linear count or the cap that pays
# best, then the run above its count to the collapse (none past the
# linear limit) and its count as a probe down to the smallest size where
# random slots running out shows and a row more, not a full run down to
# the last size.
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

# where climbing to the linear limit costs more than the -O runs after
# a shorter ramp would on the counts still possible (2MiB AUs, keeping
# 4), the ramp stops below it and the probe at the limit follows
$FB --survey sim:size=17179869184,au=2097152,page=16384,open=4,random=4,fat=2,noise=0,seed=426350,merge=100,level=25 \
	> "$S.four" 2> /dev/null
random_steps "survey random: a ramp capped below the limit" "$S.four" \
	"full run at N=1|ramp|probe N=4|"
expect_grep "survey random: the capped ramp's cap" \
	'^# step [0-9]* (open-AU limit, random, ramp): flashbench -O --ramp .*--open-au-nr=2 ' \
	"$S.four"
expect_grep "survey random: a capped ramp, the verdict" \
	'^# open_au_random: 4 (medium) -- N=4 holds' "$S.four"

# ramp_ends FILE PROBE LO HI EXACT: a --json survey's random search was
# the N=1 reference, the ramp, ended at LO to HI streams, and the probe
# at PROBE, the count its verdict gives, not low (EXACT=1: nor a bound)
ramp_ends() {
	python3 - "$@" <<'PY'
import json, sys
path, probe, lo, hi, exact = sys.argv[1], *map(int, sys.argv[2:])
d = json.load(open(path))
steps = [s for s in d["steps"] if s["what"].startswith("open-AU limit, random")]
what = [s["what"][len("open-AU limit, random, "):] for s in steps]
ramp = [s for s in steps if s["what"].endswith("ramp")]
top = max(r["streams"] for t in ramp[0]["tables"] for r in t["rows"]) \
    if ramp else 0
v = d["analysis"]["open_au_random"]
sys.exit(0 if what == ["full run at N=1", "ramp", "probe N=%d" % probe] and
         lo <= top <= hi and v["value"] == probe and not v["at_least"] and
         not (exact and v["at_most"]) and v["confidence"] != "low" else 1)
PY
}

# below a linear limit the runs proved the ramp stops one short of it:
# the probe at the limit follows whatever the ramp's step there shows
# (on a card keeping 10 open, all 10 for random writes, 4 MiB AUs: the
# ramp to 9, then the probe at 10 proves the count)
$FB --survey --json sim:size=17179869184,au=4194304,page=16384,open=10,random=10,fat=0,noise=0,seed=283286,merge=50,level=25,small=131072 \
	> "$S.below" 2> /dev/null
ramp_ends "$S.below" 10 9 9 1 &&
	pass "survey random: the ramp stops one short of the linear limit" ||
	fail "survey random: the ramp did not stop at 9, below the limit of 10"

# a card without random slots: N=1 collapses and ends the search
$FB --survey sim:sd08g > "$S.zero" 2> /dev/null
random_steps "survey random: no random slot, N=1 only" "$S.zero" \
	"full run at N=1|"
expect_grep "survey random: no random slot, the verdict" \
	'^# open_au_random: 0 (medium) -- N=1 collapses' "$S.zero"

# cards that copy a tenth of an AU they close, small writes buffered:
# C6 keeps 6 open (1 MiB AUs), C12 12 of which 2 take random writes
C6=sim:size=17179869184,au=1048576,page=16384,open=6,random=1,fat=0
C6=$C6,fatstart=0,noise=0,seed=659632,merge=10,level=0,small=131072,rcost=0
C12=sim:size=17179869184,au=2097152,page=16384,open=12,random=2,fat=1
C12=$C12,fatstart=0,noise=5,seed=237113,merge=10,level=0,small=131072,rcost=0
$FB --survey "$C6" > "$S.shallow" 2> /dev/null
$FB --survey "$C12" > "$S.thin" 2> /dev/null

# C6's linear collapse is too shallow to call sure: the linear count is
# low, and the random search still ends at it, where it made full runs
# up to N=64
random_steps "survey random: no climb past a low linear count" \
	"$S.shallow" "full run at N=1|ramp|probe N=6|probe N=7|"
expect_grep "survey random: the shallow linear count" \
	'^# open_au_linear: 6 (low)' "$S.shallow"

# C12's random runs held at the linear limit at 71 % of the others where
# running out of random slots shows: a bound, not the count
expect_grep "survey random: held thinly at the linear limit: a bound" \
	'^# open_au_random: fewer than 13 (medium)' "$S.thin"
