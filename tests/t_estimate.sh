#!/bin/sh
# What a user plans with: budgets, progress and refusals say one thing once.
. tests/lib.sh

# A --restore file that is not there is refused with one error line and
# nothing before it (the "putting it back" line came first once).
$FB --restore="$TMP/no-such.fbp" sim:sd08g >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
   grep -q "^flashbench: --restore=$TMP/no-such.fbp: " "$TMP/err"; then
	pass "--restore=missing: exit 2, one error line"
else
	fail "--restore=missing: exit $st, stderr: $(cat "$TMP/err")"
fi

# The ramp's plan counts its steps' writes, which its progress line
# measures itself against: a ramp that runs to its cap writes exactly
# the plan (its progress reaches 100 % with its last row, not after the
# first steps: the plan once counted each stream's two AUs once), and
# one that collapses earlier writes less than the plan.
ramp_io() {
	_p=$($FB -O --ramp "$@" --dry-run sim:sd08g 2>/dev/null |
		sed -n 's/^# 0 reads (0B), \([0-9]*\) writes .*/\1/p')
	_a=$($FB -O --ramp "$@" --json sim:sd08g 2>/dev/null | python3 -c '
import json, sys
print(json.load(sys.stdin)["io"]["writes"])')
}
ramp_io --open-au-nr=4
if [ -n "$_p" ] && [ "$_p" = "$_a" ]; then
	pass "ramp to its cap: writes $_a as planned"
else
	fail "ramp to its cap: planned '$_p' writes, wrote '$_a'"
fi
ramp_io --random
if [ -n "$_p" ] && [ -n "$_a" ] && [ "$_a" -le "$_p" ]; then
	pass "ramp collapsing early: $_a writes, at most the $_p planned"
else
	fail "ramp collapsing early: planned '$_p' writes, wrote '$_a'"
fi

# No read tells the open-AU count, and the survey's writes grow with
# it: the first plan gives the span of cards keeping 2 to 16 AUs open,
# not a guess of one count (a guess of 8 was a quarter of what a card
# keeping 24 wrote).  The plans after the ramps narrow it; once the
# random ramp has told the last count, the plan says "about" again, and
# means it.  On a card keeping 24: the first plan's span holds what the
# survey wrote and took, and the plan after the random ramp is within
# 1.5x of the rest.
D='sim:size=4294967296,au=8388608,page=16384,open=24,random=2,fat=0,noise=0,seed=5'
$FB --survey --json "$D" >"$TMP/s24.json" 2>"$TMP/s24"
if python3 - "$TMP/s24.json" "$TMP/s24" <<'PY'
import json, re, sys
sys.path.insert(0, "bench")
from budget import FIGURE, PLAN, duration, figure, size
doc = json.load(open(sys.argv[1]))
err = open(sys.argv[2]).read()
io, steps = doc["io"], doc["steps"]
first = PLAN.search(err)
assert first and "a card keeping 2 to 16 AUs open" in err, "no first plan"
for text, parse, did in ((first.group(1), size, io["bytes_written"]),
                         (first.group(2), duration, io["device_ns"] / 1e9)):
    lo, hi, about = figure(text, parse)
    assert not about and lo <= did <= hi, "first plan %s: did %g" % (text, did)
last = re.search(r"^# plan: after step (\d+) \(the random ramp: its count\): "
                 r"the rest writes %s in %s$" % (FIGURE, FIGURE), err, re.M)
assert last, "no plan after the random ramp"
k = int(last.group(1))
rest = (sum(s["bytes_written"] for s in steps[k:]),
        sum(s["device_ns"] for s in steps[k:]) / 1e9)
for text, parse, did in zip(last.groups()[1:], (size, duration), rest):
    lo, hi, about = figure(text, parse)
    assert about and 1 / 1.5 <= lo / did <= 1.5, "after: %s for %g" % (
        text, did)
PY
then
	pass "first plan: a span holding the survey; after the random ramp: about, within 1.5x"
else
	fail "plans on a card keeping 24: $(grep '^# plan: \(writes [^o]\|after\)' "$TMP/s24")"
fi

# The ramp's "(about T)" is its own model (its steps up to one past the
# forecasts' count of 8, at the reference run's rates) and not that of
# an -O run: on a card keeping 8 it is within 1.5x of the ramp's device
# time (the -O model said 0.56x).
D='sim:size=4294967296,au=4194304,page=16384,open=8,random=1,fat=0,noise=0,seed=3'
$FB --survey --json "$D" >"$TMP/r8.json" 2>"$TMP/r8.err"
r=$(python3 -c '
import json, re, sys
sys.path.insert(0, "bench")
from budget import duration
est = re.search(r"ramp \(about (\S+)\)", open(sys.argv[2]).read())
did = [s["device_ns"] for s in json.load(open(sys.argv[1]))["steps"]
       if s["what"].endswith(", ramp")]
print("%.2f" % (duration(est.group(1)) * 1e9 / did[0]) if est and did else "")
' "$TMP/r8.json" "$TMP/r8.err")
if [ -n "$r" ] && python3 -c "import sys; sys.exit(not 1/1.5 <= $r <= 1.5)"; then
	pass "ramp step forecast: $r of its device time"
else
	fail "ramp step forecast: '$r' of its device time"
fi

# A progress line measures a run against its plan (the dry run's count):
# a run writing more than that sits at 100 % while work remains.
# --find-erase writes two passes; its plan once counted one (and the
# survey's --max-write check with it).  -O adds a pass after a card's
# pause and tells the progress line then; the others write at most
# their plan.
plan_vs_run() {
	_p=$($FB "$@" --dry-run sim:sd08g 2>/dev/null |
		sed -n 's/^# \([0-9]*\) reads .*, \([0-9]*\) writes .*/\1 \2/p')
	_a=$($FB "$@" --json sim:sd08g 2>/dev/null | python3 -c '
import json, sys
io = json.load(sys.stdin)["io"]
print(io["reads"], io["writes"])')
}
for t in --find-erase --sustained --iops -f "-O --ramp"; do
	# shellcheck disable=SC2086
	plan_vs_run $t
	if [ -n "$_p" ] && [ -n "$_a" ] && python3 -c '
import sys
p, a = (list(map(int, x.split())) for x in sys.argv[1:])
sys.exit(not all(y <= x for x, y in zip(p, a)))' "$_p" "$_a"; then
		pass "$t: did (reads writes) $_a, within its plan $_p"
	else
		fail "$t: did (reads writes) '$_a', its plan '$_p'"
	fi
done
plan_vs_run --find-erase
if [ -n "$_p" ] && [ "$_p" = "$_a" ]; then
	pass "--find-erase: its plan counts both passes ($_p)"
else
	fail "--find-erase: planned '$_p', did '$_a'"
fi

# After the random N=1 reference the survey plans again.  On rage it
# collapses (no random slot): what is left is the FAT step and the IOPS
# step, and the forecast owes nothing for the open-AU searches, which
# are over (it once counted a full run at the limit their proof had made
# as a probe: 5m for 84s).  Within 2x: the IOPS step's random places
# cost rage twice its capacity probes' time each, which the forecast
# goes by.
$FB --survey --json sim:rage >"$TMP/rage.json" 2>"$TMP/rage.err"
if python3 - "$TMP/rage.json" "$TMP/rage.err" <<'PY'
import json, re, sys
sys.path.insert(0, "bench")
from budget import duration
doc = json.load(open(sys.argv[1]))
m = re.search(r"^# plan: after step (\d+) \(the random reference run: "
              r"random slots or none\): the rest writes about \S+ in about "
              r"(\S+)$", open(sys.argv[2]).read(), re.M)
k = int(m.group(1))
rest = sum(s["device_ns"] for s in doc["steps"][k:]) / 1e9
sys.exit(0 if 1 / 2 < duration(m.group(2)) / rest < 2 else 1)
PY
then
	pass "replanned after the random reference: within 2x of the rest"
else
	fail "random reference replan: $(grep 'random reference' "$TMP/rage.err")"
fi
