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
