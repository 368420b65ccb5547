#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A sweep column stops at the first size below 1/8 of its own best (the
# threshold bench/prune.sh chose from the accuracy suites), no earlier.
. tests/lib.sh

"$FB" -O --json --open-au-nr=1-4 --blocksize=4K sim:open=2 > "$TMP/prune" \
	2>/dev/null
if msg=$(python3 - "$TMP/prune" 2>&1 <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["tables"][0]["rows"]
cols = len(rows[0]["rates_bps"])
stopped = 0
for c in range(cols):
    v = [r["rates_bps"][c] for r in rows]
    best, k = 0, None
    for i, x in enumerate(v):
        if x is None:
            break
        if k is None and x < best / 8:
            k = i
        best = max(best, x)
    if k is None:
        if None in v:
            sys.exit("column %d stopped while above 1/8 of its best" % c)
        continue
    if any(x is not None for x in v[k + 1:]) or None in v[:k + 1]:
        sys.exit("column %d: below 1/8 at row %d, rates %r" % (c, k, v))
    stopped += 1
if not stopped:
    sys.exit("no column fell below 1/8 of its best")
print("%d of %d columns stop right after falling below 1/8" % (stopped, cols))
PY
); then
	pass "prune: $msg"
else
	fail "prune: $msg"
fi
rm -f "$TMP/prune"

# A sweep's row runs its columns from the largest N down, each on the
# last N of its AUs (those the column before wrote last); a run of one N
# keeps the classic pattern, its N AUs in their order.
order() {
	"$FB" -O -v sim: "$@" 2>&1 >/dev/null |
		awk '$1 == "write" && $3 == "4MiB" { printf "%d ", $2 / 1048576 }'
}
got=$(order --open-au-nr=1-3)
if [ "$got" = "32 128 80 128 80 80 " ]; then
	pass "sweep order: largest N first, each N on the last N AUs"
else
	fail "sweep order: whole-AU writes to $got"
fi
got=$(order --open-au-nr=3)
if [ "$got" = "32 128 80 " ]; then
	pass "single N: the classic order"
else
	fail "single N: whole-AU writes to $got"
fi

# Each column's first round over its AUs is a warm-up, not timed: it
# pays for the AUs the column before (a larger N, past the limit) left
# open.  Without noise, the limit's column of a random sweep writes
# like N=1 at every size (it read half that at 2MiB, 512KiB, 256KiB).
"$FB" -O --json --random --open-au-nr=1-5 sim:evo32,open=6,random=3,noise=0 \
	> "$TMP/warm" 2>/dev/null
if msg=$(python3 - "$TMP/warm" 2>&1 <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["tables"][0]["rows"]
for r in rows:
    one, lim = r["rates_bps"][0], r["rates_bps"][2]
    if abs(lim - one) > 0.05 * one:
        sys.exit("%d bytes: N=3 at %.3g, N=1 at %.3g" % (r["size"], lim, one))
print("N=3 within 5%% of N=1 at all %d sizes" % len(rows))
PY
); then
	pass "sweep warm-up: $msg"
else
	fail "sweep warm-up: $msg"
fi
rm -f "$TMP/warm"
