#!/bin/sh
# Every --json document names the tool, its version, the command line as
# typed and a UTC timestamp, and rounds numbers to what was measured.
. tests/lib.sh

D=$TMP/json-meta
mkdir -p "$D"

# meta NAME ARGS...: run flashbench ARGS... and check its document
meta() {
	_name=$1
	shift
	$FB "$@" > "$D/doc" 2> "$D/err"
	_st=$?
	if [ $_st -ne 0 ]; then
		fail "json $_name: exit $_st: $(head -c 300 "$D/err")"
		return
	fi
	if _why=$(python3 tests/json_meta.py "$D/doc" "$FB" "$@"); then
		pass "json $_name: metadata and rounding"
	else
		fail "json $_name: $_why"
	fi
}

meta align -a --json --blocksize=1024 sim:
meta open-au --json -O sim: --open-au-nr=1-3
meta find-fat -f --json --fat-nr=2 sim:
meta scatter -s --json sim:
meta interval --json -i sim:
$FB -a --blocksize=1024 sim: > "$D/report.txt" 2>/dev/null
meta analyze --json --analyze="$D/report.txt"
rm -rf "$D"

# a minimum full-speed write the rows bound but cannot pin (seed 002: 32KiB
# and up at full speed, 16KiB within the scatter of the edge): the bound
# in the text and as "at_most" in the JSON
SEED=tests/seeds/002_b87f7c75a8a4b11f.txt
expect_status "min write bound: --analyze runs" 0 $FB --analyze="$SEED"
expect_grep "min write bound: text says at most" \
	'^# min_full_speed_write: at most 32KiB (medium) -- ' "$TMP/out"
expect_status "min write bound: --analyze --json runs" 0 \
	$FB --json --analyze="$SEED"
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["reports"][0]["sections"][0]["analysis"]["min_full_speed_write"]
assert v["value"] == 32768 and v["at_most"] and not v["at_least"], v
' "$TMP/out"; then
	pass "min write bound: JSON value 32768 with at_most"
else
	fail "min write bound: JSON $(head -c 300 "$TMP/out")"
fi

# A failed run's document says why, in the words of its stderr line; a
# run that worked has no "error" member.
expect_status "failed run: exit 1" 1 $FB -O --json sim:fail=32M
_line=$(grep ' Input/output error$' "$TMP/err" | sed 's/^flashbench: //')
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_status"] == 1 and d.get("error") == sys.argv[2], d.get("error")
' "$TMP/out" "$_line"; then
	pass "failed run: JSON error is the stderr line"
else
	fail "failed run: JSON error: $(tail -c 200 "$TMP/out") vs $_line"
fi
expect_status "run that worked: exit 0" 0 $FB -s --json sim:
if python3 -c '
import json, sys
assert "error" not in json.load(open(sys.argv[1]))
' "$TMP/out"; then
	pass "run that worked: no JSON error"
else
	fail "run that worked: JSON error $(tail -c 200 "$TMP/out")"
fi

# -f writes at the start of each AU: no "offset" parameter it ignores
expect_status "find-fat: runs" 0 $FB -f --json --fat-nr=2 sim:
if python3 -c '
import json, sys
assert "offset" not in json.load(open(sys.argv[1]))["parameters"]
' "$TMP/out"; then
	pass "find-fat: no offset parameter in JSON"
else
	fail "find-fat: offset in JSON parameters"
fi
