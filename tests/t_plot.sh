#!/bin/sh
# --plot=FILE.svg: each test's chart is well-formed SVG that a real
# renderer (rsvg-convert) draws with ink, data inside the plot area and
# one colour per line; the erase and page steps of -a are marked; several
# tests in one run write a file each; bad --plot paths are usage errors
# before any I/O.
. tests/lib.sh

D=$TMP/plot
rm -rf "$D"
mkdir -p "$D"

# rendered NAME SVG WANT_PATHS WANT_CIRCLES WANT_MARKS [WANT_COLOURS]:
# rsvg-convert draws SVG with ink, data inside the plot area and a colour
# per line (per line of the busiest chart where a file has several: the
# palette starts over in each)
rendered() {
	_n=$1 _svg=$2 _p=$3 _c=$4 _m=$5
	_k=${6:-$(( _p > 0 ? (_p < 10 ? _p : 10) : 1 ))}
	if ! rsvg-convert "$_svg" -o "$_svg.png" 2>"$_svg.rsvg"; then
		fail "plot $_n: rsvg-convert refused it: $(head -c 300 "$_svg.rsvg")"
		return
	fi
	_got=$(python3 tests/svg_check.py "$_svg" "$_svg.png") || {
		fail "plot $_n: not a valid SVG/PNG: $_got"
		return
	}
	set -- $(echo "$_got" | tr '=' ' ')
	# paths N circles N marks N ink F colours N plotted N
	if [ "$2" -eq "$_p" ] && [ "$4" -ge "$_c" ] && [ "$6" -eq "$_m" ] &&
		awk -v ink="$8" 'BEGIN { exit !(ink > 0.01) }' &&
		[ "${10}" -ge "$_k" ] &&
		[ "${12}" -ge 1 ]; then
		pass "plot $_n: renders ($_got)"
	else
		fail "plot $_n: $_got; want paths=$_p circles>=$_c marks=$_m, ink, a colour per line, data plotted"
	fi
}

# check NAME WANT_PATHS WANT_CIRCLES WANT_MARKS WANT_COLOURS TEST-ARGS...
# (WANT_COLOURS "-": one per line)
check() {
	_n=$1 _p=$2 _c=$3 _m=$4 _k=$5
	shift 5
	if ! $FB "$@" --plot="$D/$_n.svg" sim: >"$D/$_n.out" 2>"$D/$_n.err"
	then
		fail "plot $_n: run failed: $(head -c 300 "$D/$_n.err")"
		return
	fi
	[ "$_k" = - ] && _k=
	rendered "$_n" "$D/$_n.svg" "$_p" "$_c" "$_m" $_k
}

if ! command -v rsvg-convert >/dev/null 2>&1; then
	skip "plots (rsvg-convert not installed: apt-get install librsvg2-bin)"
	exit 0
fi

# A write test's chart comes with its latency charts: a scatter (dots)
# and a CDF (a line per row that wrote), each with the stall threshold
# marked (off the scatter's range when every write is slower).
check align 1 0 2 - -a --blocksize=1024
check open-au 10 0 2 9 -O
check sweep 14 0 2 9 -O --open-au-nr=1-5
check sweep-random 10 0 2 7 -O --random --open-au-nr=1-4
check find-fat 13 0 2 9 -f --fat-nr=4
check scatter 0 512 0 - -s
check erase 2 0 0 - --erase
check interval 1 0 0 - -i
# one row: a line with one point shows as a dot
check one-row 2 1 1 - -O --blocksize=4M
check discard 2 1 0 - --discard=0:4M
# --sustained: the rate of each window against the offset, its writes'
# latencies against the offset, one CDF of every write
check sustained 2 14 1 - --sustained --max-write=256M

# several tests in one run: a file each, the test's name before the
# extension, each announced; the name as given is not written
$FB -a -s --blocksize=1024 --plot="$D/card.svg" sim: >"$D/multi.out" \
	2>"$D/multi.err"
rendered "-a -s: card-align.svg" "$D/card-align.svg" 1 0 2
rendered "-a -s: card-scatter.svg" "$D/card-scatter.svg" 0 512 0
expect_grep "plot -a -s: the align chart is announced" \
	"^flashbench: align: chart in $D/card-align.svg\$" "$D/multi.err"
expect_grep "plot -a -s: the scatter chart is announced" \
	"^flashbench: scatter: chart in $D/card-scatter.svg\$" "$D/multi.err"
if [ -e "$D/card.svg" ]; then
	fail "plot -a -s: wrote $D/card.svg as well"
else
	pass "plot -a -s: no file under the name as given"
fi
# no extension, a dot in a directory name
mkdir -p "$D/v1.2"
$FB -O -f --erasesize=1M --plot="$D/v1.2/run" sim: >/dev/null 2>&1
rendered "-O -f: v1.2/run-open-au" "$D/v1.2/run-open-au" 8 0 2 7
rendered "-O -f: v1.2/run-find-fat" "$D/v1.2/run-find-fat" 13 0 2 8
# a test that fails ends the run: the one after it leaves no file
$FB -s -a -i --count=1 --plot="$D/gone.svg" sim:vanish=600 \
	>/dev/null 2>&1
if [ -s "$D/gone-scatter.svg" ] && [ -s "$D/gone-align.svg" ] &&
	[ ! -e "$D/gone-interval.svg" ]; then
	pass "plot: a test that never ran leaves no file"
else
	fail "plot: after a failed test: $(ls "$D" | grep gone | tr '\n' ' ')"
fi
# a refused path among several: nothing is left behind, nothing runs
mkdir "$D/bad-align.svg"
expect_status "plot: one bad path of several is a usage error" 2 \
	$FB -a -s --plot="$D/bad.svg" sim:
expect_grep "plot: the message names the file" \
	"^flashbench: --plot=$D/bad.svg: $D/bad-align.svg: " "$TMP/err"
if [ -e "$D/bad-scatter.svg" ] || [ -s "$TMP/out" ]; then
	fail "plot: a bad path of several still ran or left a file"
else
	pass "plot: a bad path of several runs nothing, leaves nothing"
fi
# what draws no tables takes no --plot
for m in --info --survey --restore="$D/none" --analyze="$D/multi.out"; do
	expect_status "plot: refused with $m" 2 $FB $m --plot="$D/x.svg" sim:
	expect_grep "plot: the refusal names $m" "does not go with ${m%%=*}" \
		"$TMP/err"
done

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
