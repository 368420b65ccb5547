#!/bin/sh
# The sim's rmerge=P: writes into a random-capable AU run at P percent of
# the in-order rate, in any order; linear runs and cards without the key
# are unchanged.
. tests/lib.sh

CARD=sim:sd08g,noise=0,random=2
OPTS="-O --erasesize=4194304 --open-au-nr=1"

# rows NAME SPEC [ARGS]: the -O rows ("size rate") of SPEC into $TMP/NAME
rows() {
	_n=$1 _s=$2
	shift 2
	if ! $FB $OPTS "$@" "$_s" > "$TMP/rm_$_n" 2> "$TMP/err"; then
		fail "$_n: exit: $(head -c 300 "$TMP/err")"
		return 1
	fi
}

rows lin "$CARD" && rows lin50 "$CARD,rmerge=50" &&
if cmp -s "$TMP/rm_lin" "$TMP/rm_lin50"; then
	pass "rmerge=50: linear rows unchanged"
else
	fail "rmerge=50: linear rows differ: $(tr '\n' ' ' < "$TMP/rm_lin50")"
fi

rows rnd "$CARD" --random && rows rnd0 "$CARD,rmerge=0" --random &&
if cmp -s "$TMP/rm_rnd" "$TMP/rm_rnd0"; then
	pass "rmerge=0: random rows as without the key"
else
	fail "rmerge=0: random rows differ: $(tr '\n' ' ' < "$TMP/rm_rnd0")"
fi

# Random N=1 (within random=2), sizes from an eighth of the AU down (the
# larger ones are written mostly in order before the AU turns random):
# each at 50 % of the linear row of its size, within 10 %.
rows rnd50 "$CARD,rmerge=50" --random &&
if paste "$TMP/rm_lin" "$TMP/rm_rnd50" | awk '
	function bps(r) {
		if (sub(/M\/s/, "", r)) return r * 1048576
		if (sub(/K\/s/, "", r)) return r * 1024
		return -1
	}
	$1 ~ /KiB/ && $1 + 0 <= 512 { f = bps($4) / bps($2); n++
		if (f < 0.45 || f > 0.55) bad++ }
	END { exit !(n >= 5 && !bad) }'; then
	pass "rmerge=50: random rows flat at half the linear rate"
else
	fail "rmerge=50: $(paste "$TMP/rm_lin" "$TMP/rm_rnd50" | tr '\n\t' '| ')"
fi

$FB --help-sim > "$TMP/help" 2>&1
expect_grep "help-sim lists rmerge" '^  rmerge  *writes into a random' \
	"$TMP/help"

# Bad values: exit 2, one line naming the key, nothing on stdout.
for v in 101 -5 x; do
	$FB -O "sim:rmerge=$v" > "$TMP/out" 2> "$TMP/err"
	st=$?
	if [ $st -eq 2 ] && [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
	   grep -q "rmerge=$v" "$TMP/err" && [ ! -s "$TMP/out" ]; then
		pass "rmerge=$v: exit 2, one line naming it"
	else
		fail "rmerge=$v: exit $st: $(head -c 300 "$TMP/err")"
	fi
done

# A random run flat at rmerge=30 % of linear from 512KiB down is merged
# writes, not N=1 collapsing: no "no random slot" at medium or high; a
# card with no random slot still collapses, halving with the size.
for p in 30 40; do
	$FB --survey "sim:sd08g,noise=0,random=2,rmerge=$p" > "$TMP/sv" 2>&1
	l=$(grep "^# open_au_random:" "$TMP/sv")
	case $l in
	"# open_au_random: 0 (low)"*"not clearly a collapse"*|\
	"# open_au_random: "[1-9]*|*"(inconclusive)"*)
		pass "rmerge=$p: flat random rate not read as a collapse" ;;
	*)	fail "rmerge=$p: ${l:-no open_au_random line}" ;;
	esac
done
$FB --survey "sim:sd08g,noise=0,random=0" > "$TMP/sv" 2>&1
if grep -q "^# open_au_random: 0 (medium)" "$TMP/sv"; then
	pass "random=0: N=1 still collapses (medium)"
else
	fail "random=0: $(grep '^# open_au_random:' "$TMP/sv")"
fi
