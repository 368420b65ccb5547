#!/bin/sh
# --capacity: on fake sim cards (fake=SIZE:wrap and :zero, random sizes)
# the bound holds the real size and the card is never called as claimed;
# honest sim cards, a file and a loop device are as claimed; the probes
# are the only blocks written, and are put back after a normal end,
# SIGTERM, ^C, SIGHUP and (with --restore) SIGKILL; bad values exit 2
# with one line.
. tests/lib.sh

D=$TMP/capacity
G=$D/gate
LOOP=
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
rm -rf "$D"
mkdir -p "$D"
ABS=$(pwd)

# honest NAME DEV: exit 0, "as claimed" on stdout
honest() {
	expect_status "$1: exit 0" 0 $FB -C "$2"
	expect_grep "$1: as claimed" "^capacity: as claimed, .* (medium) -- all" \
		"$TMP/out"
}

honest "sim" sim:
honest "sim su04g" sim:su04g
honest "sim 2T" sim:size=2T

# Fake cards of random real sizes (a fixed seed: the same cards each
# run), and two just short of their claim: the JSON's bound holds the
# real size, the verdict is "at most", exit 4.  One python for all of
# them: its start is slow on a busy machine.
FB="$FB" python3 - <<'EOF'
import json, os, random, subprocess
r = random.Random(26)
cards = []
for i in range(24):
    claimed = r.choice([2, 4, 8, 16, 32, 64, 128, 256]) << 30
    cards.append((claimed, r.randrange(16 << 20, claimed, 1 << 20),
                  "wrap" if i % 2 else "zero"))
cards += [(8 << 30, (8 << 30) - 512, "zero"),
          (8 << 30, (8 << 30) - (1 << 20), "wrap")]
for claimed, real, mode in cards:
    spec = "sim:size=%d,fake=%d:%s" % (claimed, real, mode)
    p = subprocess.run([os.environ["FB"], "-C", "--json", spec],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    c = json.loads(p.stdout)["capacity"]
    if p.returncode != 4 or c["as_claimed"]:
        print("FAIL: %s: called as claimed (exit %d)" % (spec, p.returncode))
    elif not (c["at_least"] or 0) <= real <= c["at_most"]:
        print("FAIL: %s: bound %s..%d misses it" % (spec, c["at_least"],
              c["at_most"]))
    elif not c["verdict"].startswith("capacity: at most ") or \
            "(high)" not in c["verdict"]:
        print("FAIL: %s: verdict %s" % (spec, c["verdict"]))
    else:
        print("PASS: %s: %s..%d, exit 4" % (spec, c["at_least"],
              c["at_most"]))
EOF

expect_status "text verdict: exit 4" 4 $FB -C sim:size=64G,fake=8G
expect_grep "text verdict: the bound" \
	"^capacity: at most 8GiB of 64GiB claimed (high) -- " "$TMP/out"

# bad values: one line naming the key or option, exit 2, nothing run
bad() {
	expect_status "$1: exit 2" 2 $FB -C "$2"
	if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q -e "$3" "$TMP/err" &&
		[ ! -s "$TMP/out" ]; then
		pass "$1: one line"
	else
		fail "$1: $(head -c 300 "$TMP/err")"
	fi
}
bad "fake not a size" sim:fake=lots "fake: lots: not a size"
bad "fake mode" sim:size=8G,fake=4G:maybe "fake: maybe: expected wrap or zero"
bad "fake not less" sim:size=8G,fake=8G "fake: not less than size"
bad "fake not a sector" sim:size=8G,fake=1000 "fake: not a multiple of 512"
bad "--plot" "--plot=$D/x.svg" "^flashbench: --plot=$D/x.svg: --capacity gives a verdict"
bad "--capacity=1" --capacity=1 "^flashbench: --capacity=1: unknown option, or a value it does not take"

# a file: written only where announced, put back, its file removed
head -c $((16 << 20)) /dev/urandom >"$D/img"
SUM=$(sum_of "$D/img")
(cd "$D" && $ABS/$FB -C img) >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 0 ] && grep -q "^capacity: as claimed" "$TMP/out"; then
	pass "file: as claimed"
else
	fail "file: $(head -c 300 "$TMP/err")"
fi
unchanged "file: put back" "$D/img" "$SUM"
if [ -e "$D/flashbench-capacity-img.fbp" ]; then
	fail "file: the default preserve file is left"
else
	pass "file: the default preserve file is gone"
fi
expect_grep "file: saved by default" \
	"^flashbench: saved .* to flashbench-capacity-img.fbp" "$TMP/err"

# outside NAME COPY: COPY differs from the image only where announced
outside() {
	python3 - "$D/orig" "$2" "$E" <<'EOF' | sed "s/^/$1: /;s/^\(.*\): \(PASS\|FAIL\): /\2: \1: /"
import re, sys
a = open(sys.argv[1], "rb").read()
b = open(sys.argv[2], "rb").read()
line = [l for l in open(sys.argv[3]) if " will overwrite " in l][0]
ranges = [tuple(map(int, r.split("-"))) for r in
          re.findall(r" (\d+-\d+)", line.split(":", 2)[2])]
inside = bytearray(len(a))
for lo, hi in ranges:
    inside[lo:hi + 1] = b"\1" * (hi + 1 - lo)
bad = [i for i in range(0, len(a), 512) if not inside[i] and
       a[i:i + 512] != b[i:i + 512]]
changed = sum(a[lo:hi + 1] != b[lo:hi + 1] for lo, hi in ranges)
if bad:
    print("FAIL: written outside the announced blocks at %d" % bad[0])
elif changed != len(ranges):
    print("FAIL: %d of %d announced ranges written" % (changed, len(ranges)))
else:
    print("PASS: written only in the %d announced ranges" % len(ranges))
EOF
}

# held DEV: the run held once its probes are written (start_held)
O=$TMP/cap.out
E=$TMP/cap.err
held() {
	cp "$D/img" "$D/orig"
	start_held "$O" "$E" $FBH -C "$@"
	announced "$E" "capacity: .* probes written"
}

held --preserve="$D/keep.fbp" "$D/img" &&
	cp "$D/img" "$D/copy" && outside "file, held" "$D/copy"
kill -TERM "$_pid"
release
wait "$_pid" 2>/dev/null
st=$?
if [ "$st" -eq 143 ]; then pass "SIGTERM: exit 143"; else
	fail "SIGTERM: exit $st: $(head -c 300 "$E")"; fi
unchanged "SIGTERM: put back" "$D/img" "$SUM"

# ^C and a hangup (the terminal closed) put the probes back as well
for sig in INT:130 HUP:129; do
	held --preserve="$D/${sig%:*}.fbp" "$D/img"
	kill -"${sig%:*}" "$_pid"
	release
	wait "$_pid" 2>/dev/null
	st=$?
	if [ "$st" -eq "${sig#*:}" ]; then pass "SIG${sig%:*}: exit $st"
	else fail "SIG${sig%:*}: exit $st: $(head -c 300 "$E")"; fi
	unchanged "SIG${sig%:*}: put back" "$D/img" "$SUM"
done

held --preserve="$D/kill.fbp" "$D/img"
kill -KILL "$_pid"
release
wait "$_pid" 2>/dev/null
if [ "$(sum_of "$D/img")" != "$SUM" ]; then
	pass "SIGKILL: probes left on the image"
else
	fail "SIGKILL: nothing written before the kill"
fi
expect_status "SIGKILL: --restore" 0 $FB --restore="$D/kill.fbp" "$D/img"
unchanged "SIGKILL: --restore put back" "$D/img" "$SUM"

if can_mount "loop device"; then
	LOOP=$(make_loop "$D/img")
	if [ -n "$LOOP" ]; then
		held --preserve="$D/loop.fbp" "$LOOP" &&
			cp "$D/img" "$D/copy" && outside "loop" "$D/copy"
		release
		wait "$_pid"
		st=$?
		if [ "$st" -eq 0 ] && grep -q "^capacity: as claimed" "$O"; then
			pass "loop: as claimed"
		else
			fail "loop: exit $st: $(head -c 300 "$E")"
		fi
		unchanged "loop: put back" "$D/img" "$SUM"
	else
		fail "loop: losetup failed"
	fi
fi
