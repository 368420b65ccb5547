#!/bin/sh
# The survey's linear open-AU search: the ramp after the N=1 reference,
# ended at its first step that does not hold, then only the -O runs of
# the minimal proof (L+1 to its collapse, L as a probe as deep as that
# shows); the ramp's second AUs announced and written only there; a
# ramp that reaches its cap falls back to a full run at the bound; on
# AUs where the ramp costs more than the proof, the planner's runs.
. tests/lib.sh

# linear_steps FILE: the headings of a survey's linear open-AU steps,
# each ended by |
linear_steps() {
	sed -n 's/^# step [0-9]* (open-AU limit, linear, \(.*\)): .*/\1/p' \
		"$1" | tr '\n' '|'
}

# expect_steps WHAT FILE STEPS: the linear steps are STEPS, no more
expect_steps() {
	_got=$(linear_steps "$2")
	[ "$_got" = "$3" ] && pass "$1" || fail "$1: linear steps '$_got'"
}

S=$TMP/survey_ramp

$FB --survey -v sim:sd08g > "$S.txt" 2> "$S.err"
$FB --survey --json sim:sd08g > "$S.json" 2> /dev/null
expect_grep "survey ramp: the linear search runs the ramp after N=1" \
	'^# step 5 (open-AU limit, linear, ramp): flashbench -O --ramp --erasesize=4194304 --blocksize=4096 --offset=25165824 sim:sd08g$' \
	"$S.txt"

# the linear search's headings after the reference: the ramp, the run
# at L+1 = 7 and the probe at L = 6, nothing else
got=$(linear_steps "$S.txt")
want="full run at N=1|ramp|probe N=7|probe N=6|"
[ "$got" = "$want" ] && pass "survey ramp: then only N=7 and a probe at 6" ||
	fail "survey ramp: linear steps '$got', want '$want'"
expect_grep "survey ramp: the verdict from the -O runs" \
	'^# open_au_linear: 6 (high) -- N=6 holds' "$S.txt"

# the ramp ends at its first step past the limit: no drop and re-add
rows=$(sed -n 's/^ramp \([0-9]*\) .* \([a-z]*\)$/\1 \2/p' "$S.txt" |
	tr '\n' ',')
[ "$rows" = "1 held,2 held,3 held,4 held,5 held,6 held,7 collapsed," ] &&
	pass "survey ramp: it stops at 7 streams, collapsed" ||
	fail "survey ramp: ramp rows '$rows'"

# cost: the ramp writes less than the two -O runs that prove the limit
if python3 - "$S.json" <<'EOF'
import json, sys
steps = json.load(open(sys.argv[1]))["steps"]
lin = [s for s in steps if s["what"].startswith("open-AU limit, linear")]
ramp = sum(s["bytes_written"] for s in lin if s["what"].endswith("ramp"))
proof = sum(s["bytes_written"] for s in lin if "probe" in s["what"])
sys.exit(0 if 0 < ramp < proof else 1)
EOF
then
	pass "survey ramp: the ramp writes less than the -O confirmations"
else
	fail "survey ramp: ramp bytes not under the confirmations'"
fi

# every write inside the plan's regions, some in the AU after an
# open-AU one (the ramp's second AU per stream); the IOPS step's places,
# last, are t_survey_iops.sh's
expect_grep "survey ramp: the plan names the ramp's AUs" \
	'^# plan: writes only within .* every 48MiB (and the AU after each, for the ramp) from' \
	"$S.txt"
au=4194304 off=25165824 step=$((48 * 1048576))
if awk -v au=$au -v off=$off -v step=$step '
	function bytes(v) {
		if (v ~ /KiB$/) return v * 1024
		if (v ~ /MiB$/) return v * 1048576
		return v + 0
	}
	/survey step [0-9]*: random 4KiB IOPS/ { iops = 1 }
	/^write / && !iops {
		o = $2; n = bytes($3)
		if (o + n <= 6 * au) { fat++; next }
		k = int((o - off) / step); r = o - off - k * step
		if (o < off || r + n > 2 * au) { bad++; next }
		if (r >= au) second++
	}
	END { exit !(fat && second && !bad) }' "$S.err"; then
	pass "survey ramp: writes only in the announced AUs, the ramp's second ones too"
else
	fail "survey ramp: a write outside the plan, or none in the ramp's AUs"
fi

# a card that keeps more open than fit: the ramp reaches its cap, and a
# full run at that bound proves "at least"
$FB --survey sim:sd08g,size=176M > "$S.cap" 2> /dev/null
expect_grep "survey ramp: at the cap, a full run at the bound" \
	'^# step 6 (open-AU limit, linear, full run at N=4)' "$S.cap"
expect_grep "survey ramp: at the cap, a bound" \
	'^# open_au_linear: at least 4 (medium)' "$S.cap"

# 1 MiB AUs: four coarse writes of 256 KiB to an AU, three judged, so the
# ramp costs less than the planner's -O runs (141 MiB there, 82 now),
# and the probes that held and collapsed end it
$FB --survey sim:sd08g,au=1M,size=1G > "$S.small" 2> /dev/null
expect_grep "survey ramp: 1MiB AUs: coarse writes of a quarter AU" \
	'^ramp of 1MiB AUs, coarse 256KiB and fine 64KiB writes, linear order$' \
	"$S.small"
expect_steps "survey ramp: 1MiB AUs: the ramp, then probes" \
	"$S.small" "full run at N=1|ramp|probe N=7|probe N=6|"
expect_grep "survey ramp: 1MiB AUs: the limit" \
	'^# open_au_linear: 6 (high)' "$S.small"

# 512 KiB AUs: the coarse writes are half an AU and every other round
# opens fresh AUs unjudged: the planner's -O runs cost less
$FB --survey sim:sd08g,au=512K,size=1G > "$S.half" 2> /dev/null
if grep -q '^# step .*linear, ramp' "$S.half"; then
	fail "survey ramp: 512KiB AUs: ran the ramp"
else
	pass "survey ramp: 512KiB AUs: no ramp"
fi

# the limit right below the probe that collapsed: a probe proves it as
# deep as that collapse shows, where a full run wrote twice as much
$FB --survey sim:sd08g,au=1M,size=1G,open=2 > "$S.two" 2> /dev/null
expect_steps "survey ramp: 1MiB AUs keeping 2: a probe at the limit" \
	"$S.two" "full run at N=1|ramp|probe N=3|probe N=2|"
expect_grep "survey ramp: 1MiB AUs keeping 2: the limit" \
	'^# open_au_linear: 2 (\(medium\|high\))' "$S.two"

# a collapse too shallow to call (a tenth of an AU copied): every N past
# the limit looks the same, so the N after one that held unclearly ends
# the climb, where the search went on to N=42 in full runs
$FB --survey sim:sd08g,au=2M,size=1G,open=3,merge=10,small=128K,rcost=100 \
	> "$S.shallow" 2> /dev/null
expect_steps "survey ramp: a shallow collapse: no climb past it" \
	"$S.shallow" "full run at N=1|ramp|probe N=4|probe N=5|probe N=3|"
expect_grep "survey ramp: a shallow collapse: the limit" \
	'^# open_au_linear: 3 (medium)' "$S.shallow"
rm -f "$S.txt" "$S.err" "$S.json" "$S.cap" "$S.small" "$S.half" "$S.two" \
	"$S.shallow"
