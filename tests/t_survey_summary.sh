#!/bin/sh
# The survey's summary names its worst write stalls and, where the card
# states a class, the claims against what it measured: "not measured"
# where the survey measured nothing to judge (IOPS never; the
# sequential rate when no write ran), never a guess.
. tests/lib.sh

S=$TMP/summary
$FB --survey sim:sd08g,class=A1:C10 >"$S.txt" 2>"$S.err"
expect_grep "summary: worst stalls, size and step" \
	'^# stalls: slowest write [0-9.]*[mµ]*s at [0-9]*[KM]iB in step [0-9]* (.*); worst p99.9 .* at .* in step [0-9]*' \
	"$S.txt"
expect_grep "summary: a stated speed class against the sequential rate" \
	'^# claims C10: [0-9.]* MB/s sequential write: sequential write below C10 (medium)$' \
	"$S.txt"

# a card fast enough for A1's sequential floor: its IOPS decide, unmeasured
$FB --survey --max-write=300M sim:samsung16,class=A1:C4 >"$S.txt" 2>"$S.err"
expect_grep "summary: IOPS not measured, never judged" \
	'^# claims A1: IOPS not measured, [0-9.]* MB/s sequential write: read not measured (inconclusive)$' \
	"$S.txt"
expect_grep "summary: a class met" \
	'^# claims C4: [0-9.]* MB/s sequential write: meets C4 (medium)$' \
	"$S.txt"

# nothing written: nothing to judge
$FB --survey --max-write=1M sim:sd08g,class=C4 >"$S.txt" 2>"$S.err"
expect_grep "summary, nothing written: stalls not measured" \
	'^# stalls: not measured' "$S.txt"
expect_grep "summary, nothing written: sequential rate not measured" \
	'^# claims C4: sequential write not measured: .*(inconclusive)$' \
	"$S.txt"

# no class stated (a USB reader hides the registers): no claims lines
$FB --survey --max-write=1M sim:evo32 >"$S.txt" 2>"$S.err"
if grep -q '^# claims [ACUV][0-9]' "$S.txt"; then
	fail "summary: class claims without a class stated"
else
	pass "summary: no class stated, no class claims"
fi

$FB --survey --json sim:sd08g,class=A1:C10 >"$S.json" 2>"$S.err"
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
st = d["stalls"]
assert st["max_us"] >= st["p999_us"] > 0 and st["max_step"] >= 1, st
assert st["max_size"] > 0 and st["over"] >= 0, st
assert d["sequential_write_bps"] > 0, d["sequential_write_bps"]
c = d["class_claims"]
assert len(c) == 2 and any(" write IOPS, " in x for x in c), c
assert d["iops"]["read"] > 0 and d["iops"]["write"] > 0, d["iops"]
' "$S.json"; then
	pass "summary --json: stalls, sequential_write_bps, iops, class_claims"
else
	fail "summary --json: $(head -c 300 "$S.json")"
fi
