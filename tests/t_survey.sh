#!/bin/sh
# --survey: the whole procedure in one command.  Verdicts against the
# ground truth of every profile and of randomized cards, the report read
# back by --analyze, the safety steps (--yes, in-use, a device the reads
# cannot size), budgets, ^C and the progress line.
. tests/lib.sh

S=$TMP/survey

# verdict lines "key: value (confidence)" of a text report
verdicts() {
	sed -n 's/^# \([a-z_]*: .* ([a-z]*)\) -- .*/\1/p' "$1" |
		grep -v '^advice'
}

# The alignment verdicts (erase, page) have their own accuracy suite;
# here the write tests the survey plans from them must not be wrong
# (tests/survey_check.py without --writes-only shows all of them)
if python3 tests/survey_check.py --cards 12 --seed 7 --writes-only \
	--fb "$FB" > "$TMP/survey_check"; then
	pass "survey: profiles and 12 random cards: open-AU, FAT right or abstaining"
else
	fail "survey: $(grep WRONG "$TMP/survey_check" | head -n 3)"
fi
sed 's/^/# /' "$TMP/survey_check" | tail -n 1

$FB --survey sim:sd08g > "$S.txt" 2> "$S.err"
st=$?
[ $st -eq 0 ] && pass "survey sim:sd08g: exit 0" ||
	fail "survey sim:sd08g: exit $st: $(tail -n 3 "$S.err")"
for v in "erase_size: 4MiB (high)" "page_size: 16KiB (high)" \
	"open_au_linear: 6 (high)" "open_au_random: 0 (medium)" \
	"fat_aus: 1 (high)"; do
	expect_grep "survey sim:sd08g: $v" "^# $v" "$S.txt"
done
expect_grep "survey: headings name the classic command" \
	'^# step 4 (open-AU limit, linear, full run at N=1): flashbench -O --erasesize=4194304 --blocksize=4096 --open-au-nr=1 --offset=25165824 sim:sd08g$' \
	"$S.txt"
expect_grep "survey: a probe's heading names the classic command too" \
	'^# step [0-9]* (open-AU limit, linear, probe N=[0-9]*): flashbench -O --erasesize=4194304 --blocksize=4096 --open-au-nr=[0-9]* --offset=25165824 sim:sd08g$' \
	"$S.txt"
expect_grep "survey: plan before the first write" \
	'^# plan: writes .* in .* (a card keeping 2 to 16 AUs open, none to all of them for random writes), at most ' "$S.txt"
expect_grep "survey: sfdisk advice" '^#     start=8192, size=' "$S.txt"
expect_grep "survey: mkfs.ext4 advice with its confidence" \
	'^# advice mkfs.ext4 (high, from erase_size and page_size)' "$S.txt"
expect_grep "survey: mkfs.f2fs advice" '^#     mkfs.f2fs -s 2$' "$S.txt"
expect_grep "survey: mkfs.vfat advice" '^#     mkfs.vfat -F 32 -s 32$' \
	"$S.txt"
expect_grep "survey: files at once" '^#     5 files written at once' \
	"$S.txt"
expect_grep "survey: a line per step on stderr off a terminal" \
	'^flashbench: survey step 4: open-AU limit, linear' "$S.err"
if grep -q "$(printf '\r')" "$S.txt" "$S.err"; then
	fail "survey: progress drawn without a terminal"
else
	pass "survey: no progress line drawing without a terminal"
fi

# the report reads back to the same verdicts
verdicts "$S.txt" > "$S.live"
$FB --analyze="$S.txt" > "$S.back" 2>&1
verdicts "$S.back" > "$S.offline"
if [ -s "$S.live" ] && cmp -s "$S.live" "$S.offline"; then
	pass "survey: --analyze reads the report back to the same verdicts"
else
	fail "survey: readback differs: $(diff "$S.live" "$S.offline" |
		head -n 4)"
fi

# Probes stop once they have held as deep as this card's collapses set
# in; on the Xporter they set in late (its AUs closed early copy a tenth
# of what they lack): a probe that stopped at the first sizes would pass
# for one that held.  Each probe past the limit 8 collapses, each up to
# it holds, and some stop short of the full run's rows
$FB --survey --json sim:xporter > "$S.json" 2>/dev/null
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["analysis"]["open_au_linear"]
assert (v["value"], v["confidence"]) == (8, "high"), v
probes = [(int(s["what"].split("N=")[1]), s["stopped_collapsing"],
           len(s["tables"][0]["rows"])) for s in d["steps"]
          if "linear, probe" in s["what"]]
full = max(len(s["tables"][0]["rows"]) for s in d["steps"])
assert probes and all((n > 8) == c for n, c, _ in probes), probes
assert min(r for _, _, r in probes) < full, (probes, full)
' "$S.json"; then
	pass "survey sim:xporter: linear limit 8 (high), probes deep enough"
else
	fail "survey sim:xporter: $(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["analysis"]["open_au_linear"])' "$S.json")"
fi

# The Xporter takes random writes in every open AU: after N=1 the random
# ramp, capped at the linear limit, holds to it, and a probe at it proves
# the count (random slots are open slots: no random run above it)
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
runs = [s["what"].split(", ", 2)[2] for s in d["steps"]
        if s["what"].startswith("open-AU limit, random")]
assert runs == ["full run at N=1", "ramp", "probe N=8"], runs
v = d["analysis"]["open_au_random"]
assert v["value"] == 8 and v["confidence"] != "low", v
' "$S.json"; then
	pass "survey sim:xporter: random ramp to the linear limit after N=1"
else
	fail "survey sim:xporter: random runs $(python3 -c '
import json, sys
print([s["what"] for s in json.load(open(sys.argv[1]))["steps"]
       if "random" in s["what"]])' "$S.json")"
fi

# 1 MiB AUs whose writes of 128KiB and less skip the slots (the sd08g's
# way): random order goes backwards before the AU is whole only from an
# eighth of it down, so no size shows the 2 random slots.  The random
# runs hold up to the linear limit, and the verdict is a bound that
# holds (random slots are open slots), not the linear count; no random
# run goes past that limit
card='sim:size=1034944512,au=1048576,page=8192,open=4,random=2,noise=0,seed=253148'
$FB --survey --json "$card" > "$S.small.json" 2>/dev/null
if python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
v = d["analysis"]["open_au_random"]
assert v["value"] is None or (v.get("at_most") and v["value"] >= 2), v
past = [s["what"] for s in d["steps"]
        if s["what"].startswith("open-AU limit, random, ")
        and int((re.search(r"N=(\d+)", s["what"]) or [0, 0])[1]) > 4]
assert not past, past
' "$S.small.json"; then
	pass "survey: 1MiB AUs, small writes skip the slots: random count a bound that holds"
else
	fail "survey: 1MiB AUs, small writes skip the slots: $(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["analysis"]["open_au_random"])' "$S.small.json")"
fi

# The same card with noise: the reference run at N=1 dips at 512KiB (a
# pause of the card), which would pass the runs past the limit, as slow
# there, for ones that held.  It runs again, and the linear count is
# found.  (A seed whose jitter makes that dip after the capacity check's
# I/O: the check moved the jitter of the runs after it.)
card='sim:size=1034944512,au=1048576,page=8192,open=4,random=2,noise=5,seed=18'
$FB --survey --json "$card" > "$S.dip.json" 2>/dev/null
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["analysis"]["open_au_linear"]
again = [s["what"] for s in d["steps"]
         if "linear, full run at N=1 again (a dip at " in s["what"]]
assert again and v["value"] == 4 and not v["at_least"], (again, v)
' "$S.dip.json"; then
	pass "survey: a reference run that dipped runs again; linear count 4"
else
	fail "survey: reference run with a dip: $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["analysis"]["open_au_linear"], [s["what"] for s in d["steps"]])' \
		"$S.dip.json")"
fi

# A card that never collapses (seed 003's smart controller): the linear
# search ends at "at least 64", and the random search, weighing that
# count's runs as spent on its proof, tries it right after N=1 (it used
# to step N up one by one: 33 random runs)
card='sim:size=34359738368,au=4194304,page=16384,open=64,random=64,noise=0,seed=5'
$FB --survey --json "$card" > "$S.smart.json" 2>/dev/null
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
runs = [s["what"] for s in d["steps"] if s["what"].startswith("open-AU limit, random")]
v = d["analysis"]["open_au_random"]
assert len(runs) <= 4 and v["value"] == 64 and v["at_least"], (runs, v)
' "$S.smart.json"; then
	pass "survey: a card that never collapses: random search tries the linear count after N=1"
else
	fail "survey: never-collapsing card: $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print([s["what"] for s in d["steps"]], d["analysis"]["open_au_random"])' \
		"$S.smart.json")"
fi

# Under the classic loop: -O at N=1, 2, ... up to the first that
# collapses, each a run of every size, in linear order only (the loop of
# both orders is bench/survey_cost.py's).  sd08g keeps 6 AUs open, few
# enough for the loop to be short, and the survey also finds the random
# count and the FAT area: less time and fewer bytes all the same.
io() {
	python3 -c 'import json, sys
d = json.load(sys.stdin)["io"]
print(d["device_ns"] // 1000000, d["bytes_written"] >> 20)'
}
lt=0 lb=0
for n in 1 2 3 4 5 6 7; do
	set -- $($FB -O --json --blocksize=4096 --open-au-nr=$n sim:sd08g \
		2>/dev/null | io)
	lt=$((lt + $1)) lb=$((lb + $2))
done
set -- $($FB --survey --json sim:sd08g 2>/dev/null | io)
if [ "$1" -lt "$lt" ] && [ "$2" -lt "$lb" ]; then
	pass "survey sim:sd08g: $(($1 / 1000)) s, $2 MiB; the classic loop $((lt / 1000)) s, $lb MiB"
else
	fail "survey sim:sd08g: $(($1 / 1000)) s, $2 MiB; the classic loop only $((lt / 1000)) s, $lb MiB"
fi

# JSON: one document with the steps, analysis, advice and io
$FB --survey --json sim:su04g > "$S.json" 2>/dev/null
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["steps"]
assert s and all("command" in x and x["tables"] and "device_ns" in x
                 for x in s)
assert d["analysis"]["open_au_linear"]["value"] == 2
assert any(a["key"] == "partition" for a in d["advice"])
assert d["io"]["bytes_written"] > 0 and d["io"]["device_ns"] > 0
assert d["undone"] == [] and d["exit_status"] == 0
' "$S.json"; then
	pass "survey --json: steps, analysis, advice, io"
else
	fail "survey --json: $(head -c 300 "$S.json")"
fi

# budgets: stop at a step boundary, say what is left
$FB --survey --json --max-write=100M sim:sd08g > "$S.json" 2>"$S.err"
st=$?
if [ $st -eq 3 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["io"]["bytes_written"] <= 100 << 20, d["io"]
assert d["exit_status"] == 3, d["exit_status"]
assert "max-write" in d["stopped"] and d["undone"], d["stopped"]
assert d["analysis"]["erase_size"]["value"] == 4 << 20
' "$S.json"; then
	pass "survey --max-write=100M: at most 100MiB, verdicts so far, undone"
else
	fail "survey --max-write: exit $st $(head -c 300 "$S.json")"
fi
$FB --survey --max-time=1m sim:sd08g > "$S.txt" 2>"$S.err"
st=$?
if [ $st -eq 3 ]; then
	pass "survey --max-time=1m: exit 3 (stopped by a budget)"
else
	fail "survey --max-time=1m: exit $st, want 3"
fi
expect_grep "survey --max-time=1m: says it stopped" \
	'^# stopped: --max-time=1m reached' "$S.txt"
expect_grep "survey --max-time=1m: says what is left" '^# not done: ' \
	"$S.txt"
expect_grep "survey --max-time=1m: summary" '^# erase_size: 4MiB' "$S.txt"

# a regular file: --yes needed off a terminal; with --preserve it is
# byte-identical afterwards, whether or not its timing showed an erase
# size (on a loaded machine noise may)
F=$TMP/survey.img
P=$TMP/survey.preserve
head -c $((64 << 20)) /dev/urandom > "$F"
sum=$(sha256sum < "$F")
expect_status "survey on a file without --yes (no terminal): exit 2" 2 \
	$FB --survey "$F"
[ -s "$TMP/out" ] && fail "survey without --yes: printed a report" ||
	pass "survey without --yes: nothing done"
rm -f "$P"
$FB --survey --yes --preserve="$P" "$F" > "$S.txt" 2>"$S.err"
st=$?
# 1: its timing showed no erase size, so nothing was written
if [ $st -eq 0 ] || { [ $st -eq 1 ] &&
	grep -q 'survey stopped: no erase size sure enough' "$S.err"; }; then
	pass "survey --yes --preserve on a file: exit $st"
else
	fail "survey --yes on a file: exit $st $(tail -n 2 "$S.err")"
fi
if [ "$(sha256sum < "$F")" = "$sum" ]; then
	pass "survey --preserve on a file: byte-identical afterwards"
else
	fail "survey --preserve on a file: the file changed"
fi
expect_grep "survey on a file: a summary" '^# survey: [0-9]* steps' "$S.txt"
rm -f "$F" "$P"

for bad in "--max-time=20x" "--max-time=0" "--max-write=1Q"; do
	expect_status "survey $bad: exit 2" 2 $FB --survey "$bad" sim:
done
expect_status "--max-write without --survey: exit 2" 2 \
	$FB -a --max-write=1G sim:
expect_status "--survey with -a: exit 2" 2 $FB --survey -a sim:

# ^C: a summary of what was reached and exit 130.  The test gate holds
# the survey after each row (and the capacity check once its probes are
# written); one byte lets one row more through, until the first row of
# the first write test, where the signal lands.  The
# bound (60 s without a new row) only keeps a broken run from hanging
# the suite: it is not on the whole survey, which a loaded machine may
# take long to bring to its third step.
G=$TMP/survey_gate
rm -f "$G"
mkfifo "$G"
exec 9<>"$G"
: > "$S.txt"
FLASHBENCH_TEST_GATE=$G $FBH --survey sim:sd08g > "$S.txt" 2> "$S.err" 9>&- &
pid=$!
last=0 i=0
while [ $i -lt 3000 ]; do
	cp "$S.txt" "$S.snap"
	awk '/^# step 4 /{ h = 1; next } h && /^[0-9]/{ f = 1 }
		END { exit !f }' "$S.snap" && break
	n=$(cat "$S.snap" "$S.err" | grep -c '^[0-9a]\|probes written')
	if [ "$n" -gt "$last" ]; then
		last=$n
		i=0
		printf x >&9
	fi
	sleep 0.02
	i=$((i + 1))
done
kill -INT $pid
exec 9>&-
wait $pid
st=$?
if [ $st -eq 130 ]; then
	pass "survey ^C: exit 130"
else
	fail "survey ^C: exit $st, want 130: $(tail -n 2 "$S.err")"
fi
expect_grep "survey ^C: verdicts so far" '^# erase_size: 4MiB (high)' \
	"$S.txt"
expect_grep "survey ^C: says it was interrupted" '^# stopped: interrupted' \
	"$S.txt"
expect_grep "survey ^C: partly done and not done" \
	'^# partly done: open-AU limit, linear' "$S.txt"
expect_grep "survey ^C: not done" '^# not done: open-AU limit, random' \
	"$S.txt"
rm -f "$G" "$S.snap"

# progress on a terminal: one line on stderr, redrawn, with an estimate
if command -v script > /dev/null; then
	script -qec "$FB --survey sim:su04g > $S.txt" /dev/null \
		> "$S.tty" 2>&1 < /dev/null
	if grep -q "$(printf '\r')" "$S.tty" &&
		grep -q 'survey step [0-9]*, open-AU limit.*%, about .* left' \
			"$S.tty"; then
		pass "survey on a terminal: a progress line with an estimate"
	else
		fail "survey on a terminal: no progress line: $(head -c 200 \
			"$S.tty")"
	fi
	if grep -q "$(printf '\r')" "$S.txt"; then
		fail "survey on a terminal: progress on stdout"
	else
		pass "survey on a terminal: nothing of it on stdout"
	fi
else
	skip "survey on a terminal: no script(1) to make one"
fi

# linear_low NAME JSON N WHY: open_au_linear is N, or low (or
# inconclusive) saying WHY
linear_low() {
	if python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["analysis"]["open_au_linear"]
ok = v["value"] == int(sys.argv[2]) or (
    v["confidence"] in ("low", "inconclusive") and sys.argv[3] in v["evidence"])
sys.exit(not ok)
' "$2" "$3" "$4"; then
		pass "$1"
	else
		fail "$1: open_au_linear $(python3 -c '
import json, sys
print(json.load(open(sys.argv[1]))["analysis"]["open_au_linear"])' "$2")"
	fi
}

# "At least N" from the largest N alone stands on that run holding: on a
# 1MiB-AU card keeping 7 that takes small writes into a buffer and copies
# a quarter of an AU it closes, N=64 never collapses but one size runs at
# 64% of the others: low, not medium.
D7=sim:size=1072693248,au=1048576,page=16384,open=7,random=2,fat=0
D7=$D7,fatstart=0,noise=0,seed=25380,merge=25,level=0,small=131072,rcost=100
$FB --survey --json "$D7" >"$TMP/d7.json" 2>/dev/null
linear_low "survey: a bound from a run not clearly held is low" \
	"$TMP/d7.json" 7 "not clearly held"

# A card copying a tenth of an AU it closes early collapses shallowly:
# stopped at half its time (1MiB AUs, keeping 6, buffering writes of
# 128KiB and less), the survey's last run, N=7, held at 79% of the
# others at 256KiB.  "At least 7" on that is low, not medium.
D6=sim:size=17179869184,au=1048576,page=16384,open=6,random=1,fat=0
D6=$D6,fatstart=0,noise=0,seed=659632,merge=10,level=0,small=131072,rcost=0
$FB --survey --json --max-time=32s "$D6" >"$TMP/d6.json" 2>/dev/null
linear_low "survey: a bound from a shallow hold (79%) is low" \
	"$TMP/d6.json" 6 "N=7 not clearly held"

# Below a collapse, a run that held is as sure as its last size: a
# budget that cut the probe at 9 (the card keeps 8) after its first slow
# row, at 56% of the others, leaves "between 9 and 11" low, not medium.
D8=sim:size=8551137280,au=1048576,page=16384,open=8,random=8,fat=2
D8=$D8,fatstart=1,noise=5,seed=162187,merge=100,level=0,small=16384,rcost=0
$FB --survey --json --max-time=50s "$D8" >"$TMP/d8.json" 2>/dev/null
linear_low "survey: a hold cut after its first slow row is low" \
	"$TMP/d8.json" 8 "N=9 not clearly held"

# A probe that fell behind at one size and kept up at the two after it
# paused, and stops as a probe that kept up throughout does (here the
# probe at 3 dips at 1MiB: it once went through all 11 sizes).
D3=sim:size=4293918720,au=2097152,page=8192,open=3,random=3,fat=0
D3=$D3,fatstart=0,noise=5,seed=881992,merge=50,level=0,small=16384,rcost=0
$FB --survey "$D3" >"$TMP/d3.txt" 2>/dev/null
rows=$(awk '/^# step [0-9]* \(open-AU limit, linear, probe N=3\)/ { on = 1;
	next } on && /^$/ { exit } on && !/^#/ { n++ } END { print n + 0 }' \
	"$TMP/d3.txt")
if [ "$rows" -gt 0 ] && [ "$rows" -lt 11 ] &&
   grep -q '^# open_au_linear: 3 (' "$TMP/d3.txt"; then
	pass "survey: a probe past a one-size dip stops ($rows sizes), 3"
else
	fail "survey: probe at 3 has $rows sizes; $(grep '^# open_au_linear' "$TMP/d3.txt")"
fi

# A 2^n row disturbed at 4KiB on a card with 8KiB pages leaves the rows
# from 4KiB up those from 8KiB up, and the one 3x2^n row at 12KiB, 9us
# high, decided: "4KiB (medium)".  The alignment steps alone (the write
# budget stops the survey after them) must not give a page they cannot
# tell from twice it at medium.
P8=sim:size=17179869184,au=8388608,page=8192,open=12,random=10,fat=1
P8=$P8,fatstart=2,noise=5,seed=578474,merge=100,level=0,small=16384,rcost=100
$FB --survey --json --max-write=1 "$P8" >"$TMP/p8.json" 2>/dev/null
page=$(python3 -c '
import json, sys
v = json.load(open(sys.argv[1]))["analysis"]["page_size"]
print(v["value"], v["confidence"])' "$TMP/p8.json")
case "$page" in
8192\ *|*\ low|*\ inconclusive)
	pass "survey: a page the 2^n rows cannot tell from twice it is not sure ($page)" ;;
*)
	fail "survey: page $page on a card with 8KiB pages" ;;
esac

# random_count FILE ERE WHAT: the survey's random count line matches ERE
random_count() {
	if grep -Eq "^# open_au_random: $2" "$1"; then
		pass "survey: $3"
	else
		fail "survey: $(grep '^# open_au_random' "$1")"
	fi
}

# A card with no random slot that copies a tenth of an AU per write out of
# order: its random reference falls below the linear rate with every
# smaller write (82 % at 128KiB, 58 % at 64KiB, 29 % at 16KiB) where one
# within its random slots stays flat.  The survey reads that as none,
# where it ran a random ramp and a probe at the linear limit for "fewer
# than 6".
R0=sim:size=4294967296,au=1048576,page=16384,open=5,random=0,fat=0
R0=$R0,fatstart=0,noise=5,seed=681099,merge=10,level=0,small=16384,rcost=100
$FB --survey "$R0" >"$TMP/r0.txt" 2>/dev/null
if grep -q '^# step [0-9]* (open-AU limit, random, ramp)' "$TMP/r0.txt"; then
	fail "survey: a random ramp on a card with no random slot"
else
	random_count "$TMP/r0.txt" '0 \(medium\) -- N=1 collapses: .* linear runs' \
		"random writes falling against the linear rate are no random slot"
fi

# The same fall seen only down to 32KiB may be pauses: the D8 card keeps
# 8 AUs open for random writes, and its random reference dips to 57 and
# 45 % of the linear rate at 64 and 32KiB, then writes 16KiB at full
# speed.  A fall that is only just seen goes on to the page, which
# settles it.
$FB --survey "$D8" >"$TMP/d8r.txt" 2>/dev/null
random_count "$TMP/d8r.txt" 'fewer than 9 \(' \
	"a random dip the page-sized writes make up for is no collapse"

# A card merging random writes at a flat 29 % of the linear rate within
# its 2 random slots (1MiB AUs, rmerge=29) falls there from the whole-AU
# rate at 128KiB, the largest size telling a random count, as a collapse
# does; its random reference stopped there and said "0 (medium)".  The
# next size shows the rate flat: not clearly a collapse.
RM=sim:size=4294967296,au=1048576,page=4096,open=2,random=2,fat=0
RM=$RM,fatstart=0,noise=5,seed=836017,merge=10,level=0,small=16384
RM=$RM,rcost=0,rmerge=29,rmw=62
$FB --survey "$RM" >"$TMP/rm.txt" 2>/dev/null
random_count "$TMP/rm.txt" '([^0]|0 \((low|inconclusive)\))' \
	"random writes merged at a flat cost are no sure collapse"

# The random ramp collapses at 3 streams on a card keeping 2 random slots
# of 24 that copies a tenth of an AU (12MiB AUs), and a probe at N=3
# holds below 85 % of N=1: a thinned collapse, which with the ramp's
# gives the count.  The probe at 2 that proves it comes next, not full
# runs at 18, 13, 9, 6 and 4 (5.4 against 8.9GiB written in all), nor
# the probe at 4 that settled it before.
T2=sim:size=4253024256,au=12582912,page=16384,open=24,random=2,fat=2
T2=$T2,fatstart=2,noise=5,seed=512533,merge=10,level=0,small=131072,rcost=0
$FB --survey "$T2" >"$TMP/t2.txt" 2>/dev/null
after=$(awk '/^# step [0-9]* \(open-AU limit, random, probe N=3\)/ { on = 1;
	next } on && /^# step [0-9]* \(open-AU limit, random/ {
	sub(/^# step [0-9]* \(open-AU limit, random, /, ""); sub(/\).*/, "");
	print; exit }' "$TMP/t2.txt")
big=$(grep -c '^# step [0-9]* (open-AU limit, random, full run at N=\([5-9]\|[1-9][0-9]\))' "$TMP/t2.txt")
if [ "$after" = "probe N=2" ] && [ "$big" -eq 0 ] &&
   grep -q '^# open_au_random: 2 (medium)' "$TMP/t2.txt"; then
	pass "survey: a random probe holding thinly where the ramp collapsed settles the count"
else
	fail "survey: after the random probe at 3: '$after', $big full runs above 4"
fi
