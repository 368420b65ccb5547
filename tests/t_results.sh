#!/bin/sh
# Results that cannot be written are lost, never an exit 0: a failed
# write, flush or close of stdout or --out ends with a message naming
# where and why, and exit status 1; a write test stops at the first row
# that does not get out (and --preserve puts the data back).
. tests/lib.sh

if [ ! -w /dev/full ]; then
	skip "results: lost results (no /dev/full here)"
	exit 0
fi

# lost NAME WHERE CMD...: CMD with its results going nowhere (the reason
# is the libc's strerror wording, which differs between glibc and musl)
lost() {
	_what=$1 _where=$2
	shift 2
	expect_status "$_what: exit 1" 1 "$@"
	expect_grep "$_what: says where and why" \
		"^flashbench: writing the results to $_where: [^ ]" \
		"$TMP/err"
}

lost "results: -O > /dev/full" stdout sh -c "$FB -O sim: > /dev/full"
lost "results: -O -o /dev/full" "--out=/dev/full" $FB -O sim: -o /dev/full
lost "results: -a --json > /dev/full" stdout \
	sh -c "$FB -a --json sim: > /dev/full"
lost "results: --dry-run > /dev/full" stdout \
	sh -c "$FB --dry-run -O sim: > /dev/full"
lost "results: --analyze=FILE > /dev/full" stdout \
	sh -c "$FB --analyze=tests/seeds/002_b87f7c75a8a4b11f.txt > /dev/full"
lost "results: --help > /dev/full" stdout sh -c "$FB --help > /dev/full"
$FB -O sim: -o /dev/full 2>"$TMP/err" >/dev/null
expect_grep "results: a write test stops at the first lost row" \
	"; stopped after 1 rows$" "$TMP/err"

# --preserve: the data goes back although the results could not be kept
F=$TMP/results.img
P=$TMP/results.fbp
head -c $((64 << 20)) /dev/urandom > "$F"
sum=$(sha256sum < "$F")
rm -f "$P"
lost "results: -O --preserve > /dev/full" stdout sh -c "$FB -O \
	--erasesize=1M --blocksize=256k --preserve=$P $F > /dev/full"
expect_grep "results: --preserve: restored and verified" \
	"^flashbench: restored .*checksums verified; $P kept$" "$TMP/err"
if [ "$(sha256sum < "$F")" = "$sum" ]; then
	pass "results: --preserve: byte-identical afterwards"
else
	fail "results: --preserve: contents changed"
fi
rm -f "$F" "$P"

# --dry-run --json: the plan as a JSON document, the same ranges as the
# text plan
$FB --dry-run -O sim: > "$TMP/plan.txt" 2>"$TMP/err"
if $FB --dry-run --json -O sim: > "$TMP/plan.json" 2>"$TMP/err" &&
	python3 -c '
import json, re, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
want = [(int(a), int(b)) for a, b in
        re.findall(r"^# writes bytes (\d+)-(\d+)$", text, re.M)]
got = [(r["offset"], r["offset"] + r["length"] - 1)
       for r in doc["plan"]["ranges"]]
sys.exit(0 if doc["dry_run"] is True and want and got == want and
         doc["plan"]["io"]["writes"] > 0 else 1)
' "$TMP/plan.json" "$TMP/plan.txt" 2>/dev/null; then
	pass "results: --dry-run --json gives the plan as JSON"
else
	fail "results: --dry-run --json: $(head -c 300 "$TMP/plan.json")"
fi
rm -f "$TMP/plan.txt" "$TMP/plan.json"

# --survey: results that cannot be written stop it with that reason (it
# said "read 0 bytes at offset 0"), and a reader gone (| head) is a stop
# as after SIGPIPE: exit 141
expect_status "results: --survey > /dev/full: exit 1" 1 \
	sh -c "$FB --survey --yes sim: > /dev/full"
expect_grep "results: --survey > /dev/full: says where and why" \
	"^flashbench: survey stopped: writing the results to stdout: [^ ]" \
	"$TMP/err"
expect_status "results: --survey -o /dev/full: exit 1" 1 \
	$FB --survey --yes -o /dev/full sim:
expect_grep "results: --survey -o /dev/full: says where and why" \
	"^flashbench: survey stopped: writing the results to --out=/dev/full: [^ ]" \
	"$TMP/err"
if grep -q "offset" "$TMP/err"; then
	fail "results: --survey -o /dev/full: blames the device"
else
	pass "results: --survey -o /dev/full: does not blame the device"
fi
# the pipe's reader is gone before the survey starts: no race with it
expect_status "results: --survey, reader gone: exit 141" 141 python3 -c '
import os, signal, sys
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$FB" --survey --yes sim:
expect_grep "results: --survey, reader gone: names SIGPIPE" \
	"^flashbench: survey stopped: interrupted by SIGPIPE$" "$TMP/err"
