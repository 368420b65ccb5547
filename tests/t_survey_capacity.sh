#!/bin/sh
# The survey's capacity check: its first write step, announced in the
# plan.  A fake card (sim fake=SIZE:wrap and :zero) ends the survey right
# after it with exit 4 and nothing else written; an honest card and a
# file go on with the verdict in the summary, which --analyze reads back.
# With --preserve a file is put back after a normal end, SIGTERM and
# (with --restore) SIGKILL at the check; a --max-write below its probes
# stops before it with exit 3.
. tests/lib.sh

D=$TMP/survey_capacity
G=$D/gate
cleanup() { rm -rf "$D"; }
trap cleanup EXIT
trap 'exit 1' INT TERM
rm -rf "$D"
mkdir -p "$D"

# verdicts FILE: the verdict lines (key: value (confidence)) of a report
verdicts() {
	sed -n 's/^# \([a-z_]*: .* ([a-z]*)\) -- .*/\1/p' "$1" |
		grep -v '^advice'
}

# readback NAME FILE [KEY]: --analyze of the survey's text gives its
# verdicts (those of KEY only: a file's timing is noise, and its
# low-confidence alignment verdicts may fall either side of a printed
# figure's rounding)
readback() {
	$FB --analyze="$2" > "$2.back" 2>&1
	verdicts "$2" | grep "^${3:-}" > "$2.live"
	verdicts "$2.back" | grep "^${3:-}" > "$2.offline"
	if grep -q '^capacity: ' "$2.live" && cmp -s "$2.live" "$2.offline"
	then
		pass "$1: --analyze reads the verdicts back, capacity too"
	else
		fail "$1: readback differs: $(diff "$2.live" "$2.offline" |
			head -n 4)"
	fi
}

# Fake cards: the capacity verdict, exit 4, no write test after it (no
# -O or -f step, nothing written but the probes), no advice
fake() {
	S=$D/$1
	$FB --survey "$2" > "$S.txt" 2> "$S.err"
	st=$?
	[ $st -eq 4 ] && pass "fake $1: exit 4" ||
		fail "fake $1: exit $st: $(tail -n 2 "$S.err")"
	expect_grep "fake $1: the check is the first write step" \
		"^# step 3 (capacity check): flashbench --capacity $2\$" "$S.txt"
	expect_grep "fake $1: its verdict in the summary" \
		"^# capacity: at most $3 of 8GiB claimed (high) -- " "$S.txt"
	expect_grep "fake $1: the summary says why the geometry is missing" \
		'^# stopped: the card is fake: .*its geometry was not measured' \
		"$S.txt"
	expect_grep "fake $1: the write tests not done" \
		'^# not done: open-AU limit, linear; open-AU limit, random; FAT area, linear; FAT area, random; random 4KiB IOPS$' \
		"$S.txt"
	if grep -q '^# step .*: flashbench -[Of] ' "$S.txt"; then
		fail "fake $1: a write test ran"
	else
		pass "fake $1: no write test ran"
	fi
	probes=$(sed -n 's/^# plan: first the capacity check: .* (\(.*\)) from 0 .*/\1/p' \
		"$S.txt")
	if [ -n "$probes" ] &&
		grep -q "^# survey: 3 steps, .* read, $probes written, " "$S.txt"
	then
		pass "fake $1: only the probes written ($probes)"
	else
		fail "fake $1: probes '$probes': $(grep '^# survey:' "$S.txt")"
	fi
	if grep -q '^# advice' "$S.txt"; then
		fail "fake $1: advice for a size the card does not have"
	else
		pass "fake $1: no advice"
	fi
	readback "fake $1" "$S.txt"
}
fake wrap sim:size=8G,fake=1G:wrap 1GiB
fake zero sim:size=8G,fake=3G:zero 3GiB

$FB --survey --json sim:size=8G,fake=3G:zero > "$D/fake.json" 2> /dev/null
if python3 - "$D/fake.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["capacity"]
steps = [s["what"] for s in d["steps"]]
ok = (d["exit_status"] == 4 and not c["as_claimed"] and
      c["at_most"] == 3 << 30 and steps[-1] == "capacity check" and
      all(s.startswith("alignment") for s in steps[:-1]) and
      d["io"]["bytes_written"] == c["probes"] * c["block"] and
      d["stopped"].startswith("the card is fake"))
sys.exit(0 if ok else 1)
EOF
then
	pass "fake, JSON: the capacity object, exit_status 4, only the probes"
else
	fail "fake, JSON: $(head -c 300 "$D/fake.json")"
fi

# An honest card: the check right before the first write test, the plan
# announcing it, the survey going on to exit 0 with the line
S=$D/honest
$FB --survey sim:sd08g,size=176M > "$S.txt" 2> "$S.err"
st=$?
[ $st -eq 0 ] && pass "honest: exit 0" ||
	fail "honest: exit $st: $(tail -n 2 "$S.err")"
if awk '/^# plan: first the capacity check: [0-9]* probes of 4KiB/ { p = 1 }
	/^# step / && !/alignment/ && !p { exit 1 }
	/^# step 3 \(capacity check\)/ { c = 1; next }
	/^# step / && c == 1 { c = /: flashbench -O / ? 2 : 3 }
	END { exit !(p && c == 2) }' "$S.txt"; then
	pass "honest: plan, then the check, then the first write test"
else
	fail "honest: order: $(grep '^# step\|^# plan' "$S.txt" | head -c 400)"
fi
expect_grep "honest: the plan's regions name the probes" \
	'^# plan: writes only within .*: the capacity probes, the FAT area' \
	"$S.txt"
expect_grep "honest: the verdict in the summary" \
	'^# capacity: as claimed, 176MiB (medium) -- all ' "$S.txt"
expect_grep "honest: the survey went on" '^# fat_aus: ' "$S.txt"
readback "honest" "$S.txt"
$FB --survey --json sim:sd08g,size=176M > "$S.json" 2> /dev/null
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["capacity"]["as_claimed"] and d["exit_status"] == 0 and
         d["steps"][2]["what"] == "capacity check" else 1)' "$S.json"; then
	pass "honest, JSON: the capacity object"
else
	fail "honest, JSON: no capacity object, or not step 3"
fi

# A budget below the probes: stopped before the check, exit 3
S=$D/budget
$FB --survey --max-write=64K sim:sd08g > "$S.txt" 2> "$S.err"
st=$?
[ $st -eq 3 ] && pass "--max-write=64K: exit 3" ||
	fail "--max-write=64K: exit $st: $(tail -n 2 "$S.err")"
expect_grep "--max-write=64K: stopped before the check" \
	'^# stopped: --max-write=64KiB reached: 0B written, the next step writes ' \
	"$S.txt"
expect_grep "--max-write=64K: the check not done" \
	'^# not done: capacity check; ' "$S.txt"
if grep -q '^# capacity: \|^# step 3 ' "$S.txt"; then
	fail "--max-write=64K: the check ran"
else
	pass "--max-write=64K: the check did not run"
fi

# A file: its reads show no erase size, so the probes are all the survey
# writes; --preserve puts them back
F=$D/img
head -c $((32 << 20)) /dev/urandom > "$F"
SUM=$(sum_of "$F")
S=$D/file
$FB --survey --yes --preserve="$D/keep.fbp" "$F" > "$S.txt" 2> "$S.err"
case $? in
0) pass "file: exit 0" ;;
1) expect_grep "file: exit 1, as its reads show no erase size" \
	'^# stopped: no erase size sure enough' "$S.txt" ;;
*) fail "file: $(tail -n 2 "$S.err")" ;;
esac
expect_grep "file: the verdict in the summary" \
	'^# capacity: as claimed, 32MiB (medium) -- all ' "$S.txt"
unchanged "file, --preserve: put back" "$F" "$SUM"
readback "file" "$S.txt" capacity:

# held ARGS: a survey of the file held once the probes are written.  The
# gate holds it after each alignment row too: one byte lets each row
# seen through, none more, so it holds at the check
O=$D/held.out
E=$D/held.err
held() {
	start_held "$O" "$E" $FBH --survey --yes "$@" "$F"
	_rows=0 _i=0
	until grep -q 'capacity: .* probes written' "$E"; do
		_n=$(grep -c '^align ' "$O")
		if [ "$_n" -gt "$_rows" ]; then
			printf x >&9
			_rows=$((_rows + 1)) _i=0
		fi
		if ! running || [ $_i -ge 3000 ]; then
			fail "held at the check: $(tail -n 2 "$E")"
			return 1
		fi
		sleep 0.02
		_i=$((_i + 1))
	done
}

# killed SIGNAL: the held survey, signalled and let go; its exit status
killed() {
	kill -"$1" "$_pid"
	release
	wait "$_pid" 2>/dev/null
}

held --preserve="$D/term.fbp"
killed TERM
case $? in
143) pass "SIGTERM at the check: exit 143" ;;
*) fail "SIGTERM at the check: $(head -c 300 "$E")" ;;
esac
unchanged "SIGTERM at the check: put back" "$F" "$SUM"

held --preserve="$D/kill.fbp"
killed KILL
if [ "$(sum_of "$F")" != "$SUM" ]; then
	pass "SIGKILL at the check: probes left on the file"
else
	fail "SIGKILL at the check: nothing written before the kill"
fi
expect_status "SIGKILL at the check: --restore" 0 \
	$FB --restore="$D/kill.fbp" "$F"
unchanged "SIGKILL at the check: --restore put back" "$F" "$SUM"
