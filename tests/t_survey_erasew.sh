#!/bin/sh
# The survey's fallback where the reads settle no erase size: the
# --find-erase step, announced with its own plan, then the write tests
# with its size "(from writes)"; --analyze of the output gives the same
# verdicts; a --max-write below it stops with exit 3 naming it; without
# consent, or where writes settle nothing either, exit 1 with the line
# saying why; a card whose reads settle the size runs no find-erase.
. tests/lib.sh

S=$TMP/survey_erasew

# verdicts NAME FILE: the name: value (confidence) of each verdict line
verdicts() { grep -E "^# [a-z_]+: " "$1" | sed 's/ --.*//' | sort; }

# sim:rage,xcost=0: a 12MiB AU that -a cannot see (no read cost at AU
# boundaries), the issue's 3x2^n card
$FB --survey sim:rage,xcost=0 > "$S.txt" 2> "$S.err"
st=$?
[ $st -eq 0 ] && pass "survey erasew: completes on a flat-read card" ||
	fail "survey erasew: exit $st: $(tail -c 300 "$S.err")"
expect_grep "survey erasew: the step names its classic command" \
	'^# step 8 (erase size from writes): flashbench --find-erase --offset=33554432 sim:rage,xcost=0$' \
	"$S.txt"
expect_grep "survey erasew: its plan comes before it" \
	'^# plan: the reads gave no erase size sure enough: the erase size from writes (--find-erase) first, 202MiB in about' \
	"$S.txt"
expect_grep "survey erasew: the write tests' plan says where the size came from" \
	'^# plan: erase size 12MiB (from writes); open-AU search' "$S.txt"
expect_grep "survey erasew: the right erase size, from writes" \
	'^# erase_size: 12MiB (\(medium\|high\)) -- writes at 12MiB boundaries.*(from writes)' \
	"$S.txt"
expect_grep "survey erasew: then the open-AU search with it" \
	'^# open_au_linear: 12 (\(medium\|high\))' "$S.txt"
$FB --analyze="$S.txt" > "$S.back" 2>&1
verdicts "$S.txt" | grep -v '^# \(claims\|identity\|plan\|stalls\|summary\|survey\):' > "$S.v1"
verdicts "$S.back" > "$S.v2"
cmp -s "$S.v1" "$S.v2" && [ -s "$S.v1" ] &&
	pass "survey erasew: --analyze of the output, the same verdicts" ||
	fail "survey erasew: readback differs: $(diff "$S.v1" "$S.v2" | head -c 400)"

# reads that say a wrong size at low (16MiB) give way to sure writes
$FB --survey --max-write=250M sim:sd08g,xcost=0 > "$S.sd" 2> /dev/null
expect_grep "survey erasew: a low size from reads gives way to writes" \
	'^# erase_size: 4MiB (\(medium\|high\)) -- writes at 4MiB' "$S.sd"

# a budget below the step: exit 3, the stop line names it and its cost
expect_status "survey erasew: --max-write below find-erase: exit 3" 3 \
	$FB --survey --max-write=50M sim:rage,xcost=0
expect_grep "survey erasew: the stop line names the step and its cost" \
	'survey stopped: --max-write=50MiB reached: 228KiB written, the next step (the erase size from writes, --find-erase) writes 202MiB' \
	"$TMP/err"

# --preserve saved the capacity probes, the survey's first write, before
# find-erase's ranges were known: the survey stops before find-erase,
# says how to run it, and puts the probes' blocks back
rm -f "$S.keep"
expect_status "survey erasew: --preserve: exit 1 before find-erase" 1 \
	$FB --survey --preserve="$S.keep" sim:rage,xcost=0
expect_grep "survey erasew: --preserve: the stop line says what to run" \
	'survey stopped: no erase size sure enough from the reads (see erase_size); --preserve saved only the capacity probes: run --find-erase --preserve=FILE' \
	"$TMP/err"
expect_grep "survey erasew: --preserve: put back" '^flashbench: restored 228KiB' \
	"$TMP/err"
if grep -q 'find-erase writes\|step 8 (erase size' "$TMP/out"; then
	fail "survey erasew: --preserve: find-erase ran unsaved"
else
	pass "survey erasew: --preserve: find-erase did not run"
fi
rm -f "$S.keep"

# a card whose reads settle it: no find-erase, and no such plan
$FB --survey --max-write=1 sim:sd08g > "$S.norm" 2>&1
if grep -q 'find-erase' "$S.norm"; then
	fail "survey erasew: find-erase on a card whose reads settle the size"
else
	pass "survey erasew: no find-erase where the reads settle the size"
fi

# sim:evo32,xcost=0: reads low, find-erase inconclusive: neither
expect_status "survey erasew: neither reads nor writes: exit 1" 1 \
	$FB --survey sim:evo32,xcost=0
expect_grep "survey erasew: the stop line says neither settled it" \
	'survey stopped: no erase size sure enough from the reads or from writes' \
	"$TMP/err"

# a card too small for find-erase: the note says why, then the old line
expect_status "survey erasew: too small for find-erase: exit 1" 1 \
	$FB --survey sim:sd08g,size=20M
expect_grep "survey erasew: too small: the skip named" \
	'survey: skipping erase size from writes: .* is too small for the write tests' \
	"$TMP/err"
expect_grep "survey erasew: too small: the stop line" \
	'survey stopped: no erase size sure enough to run the write tests with' \
	"$TMP/err"

# consent is asked only on a real device: a sparse file, whose reads
# show no erase size unless the machine's load makes one up (then the
# normal plan comes first: skipped, not failed).  Yes to the capacity
# check, the first write; no to find-erase.
IMG=$TMP/flat.img
rm -f "$IMG"
truncate -s 300M "$IMG"
if ! command -v script > /dev/null; then
	skip "survey erasew: no script(1) for a terminal"
else
	printf 'yes\nno\n' | script -qec "$FB --survey $IMG > $S.tty.txt; \
		echo status=\$?" /dev/null > "$S.tty" 2>&1
	if ! grep -q '^# plan: the reads gave no erase size sure enough' \
		"$S.tty.txt"; then
		skip "survey erasew: the file's reads gave an erase size here"
	elif grep -q 'status=1' "$S.tty" &&
	     grep -q 'survey stopped: not confirmed; only the capacity probes were written' \
		"$S.tty"; then
		pass "survey erasew: not confirmed: exit 1, after its plan"
	else
		fail "survey erasew: not confirmed: $(tail -c 300 "$S.tty")"
	fi
fi
rm -f "$IMG"
