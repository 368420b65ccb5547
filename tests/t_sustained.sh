#!/bin/sh
# --sustained: the write cache's size and the rate past it on sim cards
# with known caches, a bound without one, --idle's recovery, the budgets
# (bytes counted by the sim), a file run that writes only its announced
# region, and bad values (exit 2, one line).
. tests/lib.sh

S=$TMP/sustained
mkdir -p "$S"
LOOPS=
cleanup() {
	detach_loops
	rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# verdict NAME KEY: the verdict line of KEY in $TMP/err, led by KEY:
verdict() { sed -n "s/^flashbench: $1: //p" "$TMP/err"; }

# A 512MiB cache at 2MiB/s on an 8MB/s card: the cliff at 512MiB (within
# a window, 64MiB), 2MiB/s (2.10M/s) past it within 15 %, both high.
expect_status "cache: runs" 0 $FB --sustained --max-write=2G \
	sim:noise=0,cache=512M:2M
c=$(verdict write_cache)
case $c in
5[01][0-9]MiB\ \(high\)*|4[5-9][0-9]MiB\ \(high\)*)
	pass "cache: 512MiB found (high): $c" ;;
*)	fail "cache: write_cache: $c" ;;
esac
r=$(verdict sustained_write)
if echo "$r" | awk '{ v = $1; sub(/M\/s/, "", v)
	exit !($2 == "(high)" && v >= 2.097 * 0.85 && v <= 2.097 * 1.15) }'
then
	pass "cache: the rate past it (high): $r"
else
	fail "cache: sustained_write: $r"
fi
expect_grep "cache: a row per window" '^write 32MiB  ' "$TMP/out"

# No cache: no cliff, a bound at low or medium confidence, never high.
expect_status "no cache: runs" 0 $FB --sustained --max-write=1G \
	sim:noise=0
expect_grep "no cache: a bound" \
	'^flashbench: write_cache: none within 1GiB written (low)' "$TMP/err"

# The budgets: the sim counts the bytes (JSON "io"); never over.
expect_status "--max-write: runs" 0 $FB --sustained --json \
	--max-write=300M sim:cache=128M:2M
b=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(d["io"]["bytes_written"])' "$TMP/out" 2>/dev/null)
if [ -n "$b" ] && [ "$b" -le $((300 << 20)) ] && [ "$b" -gt 0 ]; then
	pass "--max-write=300M: $b bytes written"
else
	fail "--max-write=300M: bytes_written '$b'"
fi
expect_status "--max-time: runs" 0 $FB --sustained --json --max-time=60s \
	sim:noise=0
t=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(d["io"]["device_ns"])' "$TMP/out" 2>/dev/null)
if [ -n "$t" ] && [ "$t" -le 60000000000 ] && [ "$t" -gt 30000000000 ]; then
	pass "--max-time=60s: $t ns of device time"
else
	fail "--max-time=60s: device ns '$t'"
fi

# --idle on the sim: its clock frees RECOVER bytes/s of the cache.
# recover NAME RECOVER WANT: 60s idle after a 256MiB cache
recover() {
	expect_status "idle $1: runs" 0 $FB --sustained --idle=60s \
		--max-write=3G "sim:noise=0,cache=256M:2M$2"
	v=$(verdict cache_recovery)
	case $v in
	"$3 ("*) pass "idle $1: $v" ;;
	*)	fail "idle $1: want $3: $v" ;;
	esac
}
recover full :10M yes
recover half :2M partly
recover none "" no
