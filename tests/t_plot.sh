#!/bin/sh
# --plot=FILE.svg: each test's chart is well-formed SVG that a real
# renderer (rsvg-convert) draws with ink and one colour per line; the
# erase and page steps of -a are marked; bad --plot paths are usage
# errors before any I/O.
. tests/lib.sh

D=$TMP/plot
rm -rf "$D"
mkdir -p "$D"

# check NAME WANT_PATHS WANT_CIRCLES WANT_MARKS TEST-ARGS...
check() {
	_n=$1 _p=$2 _c=$3 _m=$4
	shift 4
	if ! $FB "$@" --plot="$D/$_n.svg" sim: >"$D/$_n.out" 2>"$D/$_n.err"
	then
		fail "plot $_n: run failed: $(head -c 300 "$D/$_n.err")"
		return
	fi
	if ! rsvg-convert "$D/$_n.svg" -o "$D/$_n.png" 2>"$D/$_n.rsvg"; then
		fail "plot $_n: rsvg-convert refused it: $(head -c 300 "$D/$_n.rsvg")"
		return
	fi
	_got=$(python3 tests/svg_check.py "$D/$_n.svg" "$D/$_n.png") || {
		fail "plot $_n: not a valid SVG/PNG: $_got"
		return
	}
	set -- $(echo "$_got" | tr '=' ' ')
	# paths N circles N marks N ink F colours N
	if [ "$2" -eq "$_p" ] && [ "$4" -ge "$_c" ] && [ "$6" -eq "$_m" ] &&
		awk -v ink="$8" 'BEGIN { exit !(ink > 0.01) }' &&
		[ "${10}" -ge "$(( _p > 0 ? (_p < 10 ? _p : 10) : 1 ))" ]; then
		pass "plot $_n: renders ($_got)"
	else
		fail "plot $_n: $_got; want paths=$_p circles>=$_c marks=$_m, ink, a colour per line"
	fi
}

if ! command -v rsvg-convert >/dev/null 2>&1; then
	skip "plots (rsvg-convert not installed: apt-get install librsvg2-bin)"
	exit 0
fi

check align 1 0 2 -a --blocksize=1024
check open-au 1 0 0 -O
check sweep 5 0 0 -O --open-au-nr=1-5
check sweep-random 4 0 0 -O --random --open-au-nr=1-4
check find-fat 4 0 0 -f --fat-nr=4
check scatter 0 512 0 -s
check erase 2 0 0 --erase
check interval 1 0 0 -i

# the tables on stdout are the same with and without --plot
$FB -a --blocksize=1024 sim: > "$D/plain.out" 2>/dev/null
if cmp -s "$D/plain.out" "$D/align.out"; then
	pass "plot: stdout unchanged by --plot"
else
	fail "plot: --plot changed the tables on stdout"
fi
expect_grep "plot: the erase step is labelled" \
	'erase 4MiB ([a-z]*)' "$D/align.svg"

expect_status "plot: into a missing directory is a usage error" 2 \
	$FB -a --plot="$D/no/such/dir.svg" sim:
expect_grep "plot: the message names the option" \
	"^flashbench: --plot=$D/no/such/dir.svg: " "$TMP/err"
if [ -s "$TMP/out" ]; then
	fail "plot: a bad --plot still ran the test"
else
	pass "plot: a bad --plot runs nothing"
fi
F=$D/card.img
dd if=/dev/zero of="$F" bs=1M count=8 2>/dev/null
expect_status "plot: onto the device under test is refused" 2 \
	$FB -a --plot="$F" "$F"
expect_status "plot: --dry-run" 0 $FB -O --dry-run --plot="$D/dry.svg" sim:
if [ -e "$D/dry.svg" ]; then
	fail "plot: --dry-run wrote a plot"
else
	pass "plot: --dry-run writes no plot"
fi
rm -rf "$D"
