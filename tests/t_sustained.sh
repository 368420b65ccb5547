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

# --analyze reads the table back to the same verdicts: with a cliff and
# --idle, and without a cliff.
# readback NAME ARGS...: the live verdicts against those read back
readback() {
	_n=$1
	shift
	$FB --sustained "$@" > "$S/table" 2> "$S/live"
	sed -n 's/^flashbench: \(write_cache\|sustained_write\|cache_recovery\): /\1: /p' \
		"$S/live" > "$S/want"
	$FB --analyze="$S/table" > "$S/back" 2>&1
	sed -n 's/^# \(write_cache\|sustained_write\|cache_recovery\): /\1: /p' \
		"$S/back" > "$S/got"
	if [ -s "$S/want" ] && cmp -s "$S/want" "$S/got"; then
		pass "$_n: --analyze=FILE reads back $(wc -l < "$S/got") verdicts"
	else
		fail "$_n: read back: $(head -c 300 "$S/got") want $(head -c 300 "$S/want")"
	fi
}
readback "read-back, cliff and idle" --idle=60s --max-write=3G \
	sim:cache=256M:2M:2M
readback "read-back, no cliff" --max-write=1G sim:
expect_status "live --analyze: runs" 0 $FB --sustained --analyze \
	--max-write=1G sim:cache=256M:2M
expect_grep "live --analyze: verdicts as '# ' lines" \
	'^# write_cache: 25[0-9]MiB' "$TMP/out"

# JSON: an additive "sustained" object with the same verdicts.
expect_status "json: runs" 0 $FB --sustained --json --idle=1m \
	--max-write=3G sim:noise=0,cache=256M:2M:8M
if python3 - "$TMP/out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["sustained"]
c, w, r = s["write_cache"], s["sustained_write"], s["cache_recovery"]
assert abs(c["value"] - (256 << 20)) <= 64 << 20 and not c["none_within"]
assert c["confidence"] == "high" and abs(w["value"] / (2 << 20) - 1) < .15
assert r["value"] == "yes" and r["bytes"] > 200 << 20
PY
then
	pass "json: the sustained object"
else
	fail "json: $(head -c 300 "$TMP/out")"
fi

# Random cards, known caches: never a confident wrong (sustained_check.py).
python3 tests/sustained_check.py "$FB" 24 > "$S/random" 2>&1
grep -q '^FAIL' "$S/random" && grep '^FAIL' "$S/random" | head -5
if grep -q '^PASS: .* cards told' "$S/random" && ! grep -q '^FAIL' "$S/random"
then
	pass "random sim cards: $(tail -n 1 "$S/random" | sed 's/^PASS: //')"
else
	fail "random sim cards: $(tail -n 1 "$S/random")"
fi

# outside DEV COPY: DEV and COPY agree before 16MiB and from 80MiB on
outside() {
	cmp -s -n $((16 << 20)) "$1" "$2" &&
		cmp -s -i $((80 << 20)) "$1" "$2"
}

# region NAME DEV: a run from 16MiB of 64MiB writes only there, announced
region() {
	cp "$F" "$S/before.img"
	expect_status "$1: runs" 0 $FB --sustained --offset=16M \
		--max-write=64M "$2"
	expect_grep "$1: announces the region" \
		"^flashbench: sustained will overwrite 64MiB of $2 in 1 range: 16777216-83886079$" \
		"$TMP/err"
	expect_grep "$1: a row per 8MiB window" '^write 16MiB  ' "$TMP/out"
	expect_grep "$1: a write_cache verdict" '^flashbench: write_cache: ' \
		"$TMP/err"
	outside "$2" "$S/before.img" &&
		pass "$1: nothing written outside the region" ||
		fail "$1: bytes outside 16MiB-80MiB changed"
}

# a 98MiB image of random bytes: the file, then the loop device's
F=$S/card.img
head -c $((98 << 20)) /dev/urandom > "$F"
region "file" "$F"

cp "$F" "$S/before.img"
expect_status "file: --preserve runs" 0 $FB --sustained --offset=16M \
	--max-write=32M --preserve="$S/keep.fbp" "$F"
cmp -s "$F" "$S/before.img" && pass "file: --preserve: put back" ||
	fail "file: --preserve: the image differs"

if is_root; then
	new_loop L "$F"
	if [ -n "$L" ]; then
		region "loop" "$L"
	else
		skip "loop: --sustained (losetup failed)"
	fi
else
	skip "loop: --sustained (need root for losetup)"
fi

# Bad values: exit 2, one line naming the option or key, no I/O.
_all=$(sum_of "$F")
bad() {
	_what=$1
	shift
	expect_status "$_what: exit 2" 2 $FB "$@"
	if [ "$(wc -l < "$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] &&
	   grep -q -e "$_what" "$TMP/err"; then
		pass "$_what: one line naming it"
	else
		fail "$_what: $(head -c 300 "$TMP/err")"
	fi
}
bad "--idle=x" --sustained --idle=x "$F"
bad "--idle=0" --sustained --idle=0 "$F"
bad "--idle=5s" -O --idle=5s "$F"
bad "--max-write=4M" --sustained --max-write=4M "$F"
bad "--preserve=$S/p.fbp" --sustained --preserve="$S/p.fbp" "$F"
bad "--max-time" --sustained -O --max-time=30s "$F"
for v in 1G:1M:0 1G:1M:x 0:0:1M 1G:1M:2M:3M; do
	bad "cache" --sustained "sim:cache=$v"
done
unchanged "bad values: the image" "$F" "$_all"
