#!/bin/sh
# -O --ramp: the open-AU count by a ramp of streams (doc/ramp.md).
# Fails on a build without --ramp: every run below needs it.
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh

# family_is FAMILY NAME WANT FILE: the FAMILY line of FILE says WANT
family_is() {
	_v=$(grep -o "$1: [^-]*" "$4" | head -n 1)
	case "$_v" in
	"$1: $3 ") pass "$2: $3" ;;
	*) fail "$2: '$_v', want '$1: $3'" ;;
	esac
}
verdict_is() { family_is open_au_linear "$@"; }

# The six profiles at their erase sizes give the sim's open count,
# exactly (N held, N+1 collapsed, drop and re-add confirmed it).
for pe in sd08g:4MiB:6 su04g:4MiB:2 evo32:16MiB:7 samsung16:8MiB:32 \
	  xporter:8MiB:8 rage:12MiB:12; do
	p=${pe%%:*} rest=${pe#*:}
	e=${rest%%:*} n=${rest#*:}
	$FB -O --ramp --erasesize=$e sim:$p >"$TMP/ramp.$p" 2>"$TMP/ramp.$p.err"
	verdict_is "ramp: $p live" "$n (medium)" "$TMP/ramp.$p.err"
	# the pasted table gives the live verdict
	$FB --analyze="$TMP/ramp.$p" >"$TMP/ramp.$p.an" 2>&1
	verdict_is "ramp: $p --analyze" "$n (medium)" "$TMP/ramp.$p.an"
done

# The rows a user pastes: one per step, the confirmation repeating N+1.
if [ "$(grep -c '^ramp 7 *linear coarse .* fine .* collapsed$' \
	"$TMP/ramp.sd08g")" -eq 2 ] &&
   grep -q '^ramp 6 *linear coarse .* held$' "$TMP/ramp.sd08g"; then
	pass "ramp: sd08g rows: 7 collapsed twice around 6 held"
else
	fail "ramp: sd08g rows: $(tail -n 3 "$TMP/ramp.sd08g")"
fi

# The chunks each step writes, as the header names them: the fine one
# AU/16 but at most half the coarse one (from 8 MiB AUs on, AU/16 was as
# large as the coarse chunk or larger and only doubled each step).
for ac in 1:256KiB:64KiB 2:512KiB:128KiB 4:512KiB:256KiB 6:512KiB:256KiB \
	  8:512KiB:256KiB 16:512KiB:256KiB; do
	au=${ac%%:*} rest=${ac#*:}
	c=${rest%%:*} f=${rest#*:}
	$FB -O --ramp --open-au-nr=1 --erasesize=$((au << 20)) \
		"sim:size=8589934592,au=$((au << 20)),page=16384,open=4" \
		>"$TMP/ramp.chunk" 2>/dev/null
	expect_grep "ramp: ${au}MiB AUs: coarse $c, fine $f" \
		"^ramp of ${au}MiB AUs, coarse $c and fine $f writes, linear order$" \
		"$TMP/ramp.chunk"
done

# At the cap without a collapse: a bound, said live and read back.
$FB -O --ramp --open-au-nr=4 sim:sd08g >"$TMP/ramp.cap" 2>"$TMP/ramp.cap.err"
expect_grep "ramp: cap message" \
	'the ramp reached the cap without a collapse: at least 4' \
	"$TMP/ramp.cap.err"
verdict_is "ramp: cap live" "at least 4 (medium)" "$TMP/ramp.cap.err"
$FB --analyze="$TMP/ramp.cap" >"$TMP/ramp.cap.an" 2>&1
verdict_is "ramp: cap --analyze" "at least 4 (medium)" "$TMP/ramp.cap.an"

# In order, every AU a stream moves on from was written to its end: the
# coarse part after a fine one would leave its tail unwritten, which a
# card copies or folds when it closes the AU (a third of the time of a
# ramp on 1 MiB AUs)
$FB -v -O --ramp --erasesize=1MiB --open-au-nr=8 \
	sim:sd08g,au=1M,size=1G,open=10 >"$TMP/ramp.tail" 2>&1 0<>/dev/null
if python3 - "$TMP/ramp.tail" <<'PY'
import sys
au, spacing, first = 1 << 20, 12, None
at = {}         # stream: [its AU, the end of its last write there]
moved = 0
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 3 or f[0] != "write":
        continue
    off, size = int(f[1]), int(f[2])
    n = off // au
    first = n if first is None else first
    s = (n - first) // spacing
    if s in at and at[s][0] != n:
        assert at[s][1] == (at[s][0] + 1) * au, (s, at[s], off)
        moved += 1
    end = max(off + size, at[s][1]) if s in at and at[s][0] == n \
        else off + size
    at[s] = [n, end]
assert moved >= 8, moved
PY
then
	pass "ramp: in order, the AUs left behind are written to their end"
else
	fail "ramp: an AU left behind with its tail unwritten"
fi

# Pasted rows read with the live rule: a collapse the re-add did not
# repeat was passed over; one with no drop after it is only a bound.
row() { # row N COARSE FINE: a ramp row as the live run prints it
	printf 'ramp %-3s linear coarse %-7s 8M/s     fine %-7s 8M/s\n' "$@"
}
{ row 1 10ms 10ms; row 2 10ms 11ms; row 3 40ms 40ms; row 2 10ms 10ms
  row 3 10ms 10ms; row 4 11ms 10ms; } >"$TMP/ramp.fluke"
$FB --analyze="$TMP/ramp.fluke" >"$TMP/ramp.fluke.an" 2>&1
verdict_is "ramp: a collapse not repeated is passed over" \
	"at least 4 (medium)" "$TMP/ramp.fluke.an"
{ row 1 10ms 10ms; row 2 10ms 11ms; row 3 40ms 40ms; } >"$TMP/ramp.cut"
$FB --analyze="$TMP/ramp.cut" >"$TMP/ramp.cut.an" 2>&1
verdict_is "ramp: a collapse not confirmed is a bound" \
	"at least 2 (low)" "$TMP/ramp.cut.an"
{ row 1 10ms 10ms; row 2 10ms 30ms; row 1 10ms 10ms
  row 2 10ms 30ms; } >"$TMP/ramp.fine"
$FB --analyze="$TMP/ramp.fine" >"$TMP/ramp.fine.an" 2>&1
verdict_is "ramp: the fine part alone collapsing counts" "1 (medium)" \
	"$TMP/ramp.fine.an"

# Between held and collapsed a step is unclear: a bound, never a count.
{ row 1 10ms 10ms; row 2 13.5ms 10ms; row 1 10ms 10ms
  row 2 13.5ms 10ms; } >"$TMP/ramp.unclear"
$FB --analyze="$TMP/ramp.unclear" >"$TMP/ramp.unclear.an" 2>&1
verdict_is "ramp: unclear steps leave a bound" "at least 1 (low)" \
	"$TMP/ramp.unclear.an"

# A random ramp counts the random slots, low (the -O --random runs
# decide): samsung16 keeps 8 of its 32 open AUs for random writes, and
# --analyze of the table gives the live verdict.
$FB -O --ramp --random --erasesize=8MiB --open-au-nr=12 sim:samsung16 \
	>"$TMP/ramp.rnd" 2>"$TMP/ramp.rnd.err"
expect_grep "ramp: random first step is linear" '^ramp 1 *linear' \
	"$TMP/ramp.rnd"
expect_grep "ramp: random count of samsung16, low, naming the -O runs" \
	'open_au_random: 8 (low) -- random ramp: holds at 8 streams: .*collapses at 9 streams: .*confirm with -O --random --open-au-nr=8 and 9' \
	"$TMP/ramp.rnd.err"
$FB --analyze="$TMP/ramp.rnd" >"$TMP/ramp.rnd.an" 2>&1
expect_grep "ramp: --analyze of a random ramp: the live count" \
	'open_au_random: 8 (low) -- random ramp: holds at 8' "$TMP/ramp.rnd.an"
# xporter's random writes cost twice the programming, in every open AU:
# one random stream is 1.5 times as slow as a linear one, and the count
# is judged against the random stream.
$FB -O --ramp --random --erasesize=4MiB --open-au-nr=12 sim:xporter \
	>/dev/null 2>"$TMP/ramp.xp.err"
expect_grep "ramp: random count against dear random writes" \
	'open_au_random: 8 (low)' "$TMP/ramp.xp.err"
# A card with no random slot: the first random stream collapses.
$FB -O --ramp --random --erasesize=4MiB --open-au-nr=4 sim:su04g \
	>/dev/null 2>"$TMP/ramp.su.err"
expect_grep "ramp: no random slot: inconclusive, naming N=1" \
	'open_au_random: unknown (inconclusive) -- random ramp: one random stream is more than 3 times as slow as a linear one.*--open-au-nr=1' \
	"$TMP/ramp.su.err"
# One or two random slots on 1 MiB AUs: each stream writes its AU over
# and over, and its first write into it stops short of the end, so that
# the second takes the slot unjudged (a first write at the very end left
# the AU whole, the next one started it over, and the judged third paid
# for the slot: the ramp read 1 as at least 2, and 2 as 1)
for rs in "1:1 (low)" "2:at least 2 (low)"; do
	$FB -O --ramp --random --erasesize=1MiB --open-au-nr=4 \
		"sim:sd08g,au=1M,size=1G,random=${rs%%:*}" \
		>/dev/null 2>"$TMP/ramp.r${rs%%:*}.err"
	expect_grep "ramp: ${rs%%:*} random slots on 1MiB AUs" \
		"open_au_random: ${rs#*:} --" "$TMP/ramp.r${rs%%:*}.err"
done

# From 12 streams on a random step judges 3 rounds, not 5: per stream,
# steps 12 and 13 write at most 3/4 of what steps 10 and 11 do (the
# --dry-run plan counts every step to the cap as written), and the
# count past 12 is still found.
KR="sim:sd08g,size=16G,open=16,random=14"
for n in 9 11 13; do
	$FB -O --ramp --random --erasesize=4MiB --open-au-nr=$n --dry-run \
		--json "$KR" >"$TMP/ramp.plan$n" 2>/dev/null
done
if python3 - "$TMP/ramp.plan9" "$TMP/ramp.plan11" "$TMP/ramp.plan13" \
	>"$TMP/ramp.plan" <<'PY'
import json, sys
b = [json.load(open(f))["plan"]["io"]["bytes_written"] for f in sys.argv[1:]]
narrow, wide = (b[1] - b[0]) / (10 + 11), (b[2] - b[1]) / (12 + 13)
print("per stream: steps 10-11 %.0f, steps 12-13 %.0f" % (narrow, wide))
sys.exit(0 if wide <= 0.75 * narrow else 1)
PY
then
	pass "ramp: random steps of 12 streams and more judge fewer rounds"
else
	fail "ramp: random steps past 12 write as much per stream as" \
		"before: $(cat "$TMP/ramp.plan")"
fi
$FB -O --ramp --random --erasesize=4MiB --open-au-nr=16 "$KR" \
	>/dev/null 2>"$TMP/ramp.r14.err"
expect_grep "ramp: 14 random slots counted with 3 rounds past 12" \
	'open_au_random: 14 (low) -- random ramp: holds at 14 streams' \
	"$TMP/ramp.r14.err"

# A random stream writes its one AU over and over: with two, as in
# order, each move to the other AU needed a random slot for it too, and
# from half the card's random slots on the card merged the full AU each
# stream left (on this card, keeping 10 for random writes, the random
# ramp to 9 took three times the linear one's device time per byte).
KM="sim:size=17179869184,au=4194304,page=16384,open=10,random=10,fat=0"
KM="$KM,noise=0,seed=283286,merge=50,level=25,small=131072"
$FB -O --ramp --erasesize=4MiB --open-au-nr=9 --json "$KM" \
	>"$TMP/ramp.km.lin" 2>/dev/null
$FB -O --ramp --random --erasesize=4MiB --open-au-nr=9 --json "$KM" \
	>"$TMP/ramp.km.rnd" 2>/dev/null
if python3 - "$TMP/ramp.km.lin" "$TMP/ramp.km.rnd" >"$TMP/ramp.km" <<'PY'
import json, sys
d = [json.load(open(f)) for f in sys.argv[1:]]
lin, rnd = (x["io"]["device_ns"] / x["io"]["bytes_written"] for x in d)
v = d[1]["analysis"]["open_au_random"]
print("device ns per byte: linear %.1f, random %.1f; random count %s%s" % (
    lin, rnd, "at least " if v["at_least"] else "", v["value"]))
sys.exit(0 if rnd <= 1.5 * lin and v["value"] == 9 and v["at_least"] else 1)
PY
then
	pass "ramp: random streams keep to one AU: held to 9 without merges"
else
	fail "ramp: the random ramp pays for moving AUs: $(cat "$TMP/ramp.km")"
fi

# JSON: the rows, additive fields.
$FB -O --ramp --json --open-au-nr=3 sim:sd08g >"$TMP/ramp.json" 2>/dev/null
if python3 - "$TMP/ramp.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]["tables"][0] if "tests" in d else d["tables"][0]
r = t["rows"][0]
assert t["kind"] == "open_au_ramp", t["kind"]
assert r["streams"] == 1 and r["coarse_ns"] > 0 and r["fine_bps"] > 0
assert r["random"] is False
PY
then pass "ramp: JSON rows"; else fail "ramp: JSON rows"; fi

# Bad combinations: one line naming the option, exit 2, nothing written.
IMG=$TMP/ramp.img
rm -f "$IMG"
dd if=/dev/urandom of="$IMG" bs=1M count=40 2>/dev/null
SUM=$(sum_of "$IMG")
while IFS='|' read -r bad want; do
	expect_status "ramp: refused: $bad" 2 $FB $bad "$IMG"
	if [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	   grep -q -e "^flashbench: $want" "$TMP/err"; then
		pass "ramp: refused: $bad: one line naming the option"
	else
		fail "ramp: refused: $bad: $(cat "$TMP/err")"
	fi
done <<EOT
--ramp|--ramp: a way of running -O (--open-au); give -O
--ramp -a|--ramp: a way of running -O
-O --ramp --open-au-nr=2-4|--open-au-nr=2-4: --ramp takes one number
-O --ramp --count=2|--count=2: --ramp judges the median
-O --ramp --plot=$TMP/r.svg|--plot=$TMP/r.svg: does not draw the ramp
-O --ramp --erasesize=256KiB|--erasesize=256KiB: the ramp needs AUs of at least 512KiB
-O --ramp --erasesize=1MiB --blocksize=512KiB|--blocksize=512KiB: the ramp's fine writes are two blocks, 1MiB
-O --ramp --open-au-nr=99|--open-au-nr=99: a ramp to 99 streams needs
EOT
unchanged "ramp: refused runs" "$IMG" "$SUM"

# On a file, end to end: it writes only inside the ranges it announced.
cp "$IMG" "$TMP/ramp.orig"
$FB -O --ramp --erasesize=512KiB --open-au-nr=3 "$IMG" \
	>"$TMP/ramp.file" 2>"$TMP/ramp.file.err"
st=$?
# (a file's times are the machine's: which step it ends at is not ours)
if [ $st -eq 0 ] && grep -q '^ramp 1 *linear coarse' "$TMP/ramp.file" &&
   grep -q 'open_au_linear: ' "$TMP/ramp.file.err"; then
	pass "ramp: file: runs end to end, rows and verdict"
else
	fail "ramp: file: exit $st: $(head -c 300 "$TMP/ramp.file.err")"
fi
if python3 - "$TMP/ramp.orig" "$IMG" "$TMP/ramp.file.err" <<'PY'
import re, sys
a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
line = [l for l in open(sys.argv[3]) if "will overwrite" in l][0]
ranges = [tuple(map(int, m)) for m in re.findall(r" (\d+)-(\d+)", line)]
assert len(ranges) == 3, ranges
inside = bytearray(len(a))
for lo, hi in ranges:
    inside[lo:hi + 1] = b"\1" * (hi + 1 - lo)
changed = [i for i in range(0, len(a), 512) if a[i:i + 512] != b[i:i + 512]]
assert changed, "nothing written"
assert all(inside[i] for i in changed), "wrote outside %r" % (ranges,)
PY
then pass "ramp: file: writes only inside the announced ranges"
else fail "ramp: file: writes only inside the announced ranges"; fi

# --preserve: what the ramp may write is saved first and put back.
SUM=$(sum_of "$IMG")
rm -f "$TMP/ramp.pres"
$FB -O --ramp --erasesize=512KiB --open-au-nr=3 --preserve="$TMP/ramp.pres" \
	"$IMG" >/dev/null 2>"$TMP/ramp.pres.err"
expect_grep "ramp: --preserve saves the announced region" \
	'^flashbench: saved 3MiB to ' "$TMP/ramp.pres.err"
unchanged "ramp: --preserve puts it back" "$IMG" "$SUM"
rm -f "$IMG" "$TMP/ramp.orig" "$TMP/ramp.pres"

# Random cards with known counts (tests/accuracy.py's generator): no
# verdict wrong, not even at low confidence (seed 7's card 9, 512 KiB
# AUs, was "at least 64" while a collapse of 1.46 times counted as held).
if python3 bench/ramp_cost.py --fb "$FB" --no-profiles --cards 10 \
	--seed 7 >"$TMP/ramp.cards" 2>&1 &&
   grep -q '^verdicts: ' "$TMP/ramp.cards" &&
   ! grep -q '^verdicts: .*wrong' "$TMP/ramp.cards"; then
	pass "ramp: 10 random sim cards: no verdict wrong"
else
	fail "ramp: random sim cards: $(tail -n 3 "$TMP/ramp.cards")"
fi

# A random ramp's collapse that the -O --random runs show only thinned
# out (a card keeping 1 of 7 AUs for random writes, writes of 128 KiB
# and less buffered: N=2 at 85 % of the others) gives the count, in AUs
# an -a table confirms as the erase block; a run past it that holds
# clearly, no ramp, or no -a table leaves the bound.
CARD=sim:size=8588886016,au=1048576,page=16384,open=7,random=1,fat=2
CARD=$CARD,fatstart=2,noise=0,seed=220375,merge=50,level=0,small=131072
{
	echo "# flashbench -a $CARD"
	$FB -a "$CARD" 2>/dev/null
	echo "# flashbench -O --ramp --random --erasesize=1MiB $CARD"
	$FB -O --ramp --random --erasesize=1MiB "$CARD" 2>/dev/null
} >"$TMP/thin.ramp"
for n in 1 2 3; do
	echo "# flashbench -O --random --erasesize=1MiB --open-au-nr=$n $CARD"
	$FB -O --random --erasesize=1MiB --open-au-nr=$n "$CARD" 2>/dev/null
done >"$TMP/thin.runs"
cat "$TMP/thin.ramp" "$TMP/thin.runs" >"$TMP/thin.all"
$FB --analyze="$TMP/thin.all" >"$TMP/thin.an" 2>&1
family_is open_au_random "ramp: thinned-out random collapse" "1 (medium)" \
	"$TMP/thin.an"
# no_count NAME FILE PATTERN: FILE, made as PATTERN shows, gives no 1
no_count() {
	if grep -q "$3" "$2" &&
	   ! $FB --analyze="$2" 2>&1 | grep -q 'open_au_random: 1 (medium)'
	then
		pass "ramp: thinned-out random collapse: $1"
	else
		fail "ramp: thinned-out random collapse: $1: 1 (medium), or no '$3'"
	fi
}
sed -n '/^# flashbench -a /,/^# flashbench -O --ramp/p' "$TMP/thin.ramp" |
	sed '$d' | cat - "$TMP/thin.runs" >"$TMP/thin.noramp"
no_count "no count without the ramp" "$TMP/thin.noramp" '^# flashbench -O'
sed '/^# flashbench -a /,/^# flashbench -O --ramp/{/^# flashbench -O/!d}' \
	"$TMP/thin.all" >"$TMP/thin.noa"
no_count "no count without -a" "$TMP/thin.noa" '^# flashbench -O --random'
# N=2 clearly held at 128 KiB (96 % of the others): the ramp was wrong
awk '/open-au-nr=2 /{two = 1} /open-au-nr=3 /{two = 0}
     two && /^128KiB/ {$2 = "7.4M/s"} {print}' "$TMP/thin.all" \
	>"$TMP/thin.clear"
no_count "an -O run past it holding clearly wins" "$TMP/thin.clear" \
	'^128KiB 7.4M/s'
