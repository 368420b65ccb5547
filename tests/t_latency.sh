#!/bin/sh
# Write latency: every write test's JSON rows carry the percentiles, the
# slowest write and the stalls of their writes (also those of passes a
# pause made the test throw away); on the sim with stall=N:DURATION the
# count and the slowest match what was injected, on random seeds; with
# nothing injected there is none; one summary line on stderr leaves the
# stdout table alone; bad --stall and stall= values are usage errors.
. tests/lib.sh

D=$TMP/latency
rm -rf "$D"
mkdir -p "$D"
CHECK="python3 tests/latency_check.py"

# check NAME JSON WHAT...: latency_check.py's verdict as a PASS/FAIL line
check() {
	_n=$1
	shift
	if _why=$($CHECK "$@" 2>&1); then
		pass "$_n"
	else
		fail "$_n: $_why"
	fi
}

# Three random seeds each run (printed, to replay a failure); the period
# and the seed's phase vary with them.
SEEDS=$(awk 'BEGIN { srand(); for (i = 0; i < 3; i++)
	printf "%d ", 1 + int(rand() * 1000000) }')
for seed in $SEEDS; do
	every=$(( 20 + seed % 60 ))
	spec=sim:sd08g,seed=$seed,stall=$every:10s
	if ! $FB -O --json --stall=5s "$spec" >"$D/o.json" 2>"$D/o.err"; then
		fail "-O on $spec: $(head -c 300 "$D/o.err")"
		continue
	fi
	check "-O seed=$seed stall=$every:10s: stalls and slowest as injected" \
		"$D/o.json" stalls "$every" "$seed" 10000000
	check "-O seed=$seed: percentiles monotone" "$D/o.json" monotone
	want=$(python3 -c "import json; d = json.load(open('$D/o.json'))
w = d['io']['writes']
print(sum(1 for k in range(1, w + 1) if k % $every == $seed % $every))")
	expect_grep "-O seed=$seed: stderr names the worst write and $want stalls" \
		"worst write 1[0-2][.0-9]*s at [0-9.]*[KM]iB; $want writes over 5s" \
		"$D/o.err"
	$FB -f --json --stall=5s --erasesize=1M "$spec" >"$D/f.json" \
		2>"$D/f.err"
	check "-f seed=$seed: stalls and slowest as injected" \
		"$D/f.json" stalls "$every" "$seed" 10000000
done

# Nothing injected, no pauses: no stall, the slowest an ordinary write.
$FB -O --json --stall=5s sim:sd08g,noise=0 >"$D/n.json" 2>"$D/n.err"
check "no stall key: no stall" "$D/n.json" stalls 0 1 0
expect_grep "no stall key: stderr says 0 writes over 5s" \
	"; 0 writes over 5s$" "$D/n.err"

# Every write test's rows have every field and count every write.
for t in "-O" "-O --open-au-nr=1-3" "-O --random" "-f"; do
	$FB $t --json --erasesize=1M sim:sd08g >"$D/p.json" 2>"$D/p.err"
	check "$t: every measured row has latency, all writes counted" \
		"$D/p.json" present
	check "$t: percentiles monotone" "$D/p.json" monotone
done

# Read tests write nothing: no latency, no summary line.
$FB -a --json sim:sd08g >"$D/a.json" 2>"$D/a.err"
if grep -q '"latency"' "$D/a.json" || grep -q 'worst write' "$D/a.err"; then
	fail "-a: latency or a summary line from a read test"
else
	pass "-a: no latency, no summary line"
fi

# The stdout table is as before: the summary goes to stderr only.
$FB -O sim:sd08g,stall=9:300ms >"$D/t.out" 2>"$D/t.err"
if grep -q 'worst write' "$D/t.out"; then
	fail "-O: the summary line got into the stdout table"
else
	expect_grep "-O: the summary line is on stderr" \
		"^flashbench: worst write .* writes over 100ms$" "$D/t.err"
fi

# --plot: after the rate chart, the latency scatter and CDF, with log
# latency axes and the threshold marked, as SVG a renderer draws.
if command -v rsvg-convert >/dev/null 2>&1; then
	$FB -O --stall=300ms --plot="$D/l.svg" sim:sd08g,stall=200:400ms \
		>/dev/null 2>&1
	if rsvg-convert "$D/l.svg" -o "$D/l.png" &&
		python3 tests/svg_check.py "$D/l.svg" "$D/l.png" >/dev/null; then
		pass "--plot: the latency charts render"
	else
		fail "--plot: the latency charts do not render"
	fi
	expect_grep "--plot: a latency scatter" "latency of each write" "$D/l.svg"
	expect_grep "--plot: a latency CDF" "share of writes at most" "$D/l.svg"
	expect_grep "--plot: log latency axes" "write latency (log)" "$D/l.svg"
	expect_grep "--plot: the threshold marked" ">stall 300ms<" "$D/l.svg"
else
	skip "--plot latency charts (rsvg-convert not installed)"
fi

expect_status "--stall=0: usage error" 2 $FB -O --stall=0 sim:
expect_grep "--stall=0: names option and value" "^flashbench: --stall=0: " \
	"$TMP/err"
expect_status "--stall=5x: usage error" 2 $FB -O --stall=5x sim:
expect_grep "--stall=5x: names option and value" "^flashbench: --stall=5x: " \
	"$TMP/err"
expect_status "stall=7: usage error" 2 $FB -O sim:sd08g,stall=7
expect_grep "stall=7: names the key" "stall: expected N:DURATION" "$TMP/err"
expect_status "stall=7:0s: usage error" 2 $FB -O sim:sd08g,stall=7:0s

# --stall where nothing is written: refused, not taken and ignored
for args in "-a sim:" "-s sim:" "--info sim:" "--analyze=tests/real/001-sandisk-cf-32gb.txt"; do
	expect_status "--stall with $args: usage error" 2 \
		$FB --stall=50ms $args
	if [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	   grep -q "^flashbench: --stall=50ms: " "$TMP/err"; then
		pass "--stall with $args: one line naming the option"
	else
		fail "--stall with $args: $(head -c 300 "$TMP/err")"
	fi
done
expect_status "--stall with -O -a: taken (-O writes)" 0 \
	$FB --stall=50ms -a -O --open-au-nr=1 sim:
