#!/bin/sh
# A run stopped early: the verdicts of its rows so far claim no more than
# those rows tell.
. tests/lib.sh

S=$TMP/partial
mkdir -p "$S"
G=$S/gate
trap 'rm -rf "$S"' EXIT
trap 'exit 1' INT TERM

# -O stopped by ^C after its first row (4MiB: larger than half the AU, no
# size where running out of open AUs would show): every N "held", which
# is no count, not "at least" the largest N.
start_held "$S/out" "$S/err" $FBH -O sim:
if announced "$S/out" '^[0-9.]*[KM]iB'; then
	kill -INT $_pid 2>/dev/null
	release
	wait $_pid
	expect_grep "-O stopped after one row: open-AU count unknown" \
		"open_au_linear: unknown (inconclusive) -- .*no size where" \
		"$S/err"
	if grep -q "open_au_linear: at least" "$S/err"; then
		fail "-O stopped after one row: claims a bound:" \
			"$(grep open_au "$S/err")"
	else
		pass "-O stopped after one row: no bound claimed"
	fi
else
	kill -KILL $_pid 2>/dev/null
	release
fi
