#!/bin/sh
# Where results may go: never onto a block device (-o or --plot onto a
# disk would overwrite its data), never onto the report --analyze reads
# (also through standard input).  Each is one line on stderr, exit 2,
# before any I/O.
. tests/lib.sh

D=$TMP/outputs
LOOP=
cleanup() {
	detach_loops
	rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
rm -rf "$D"
mkdir -p "$D"

# refused NAME PATTERN: the last run failed as a usage error, in one line
refused() {
	if [ "$(wc -l < "$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ]; then
		expect_grep "$1: says why" "$2" "$TMP/err"
	else
		fail "$1: want one line on stderr, nothing on stdout: $(head -c 300 "$TMP/err")"
	fi
}

if ! is_root; then
	skip "outputs: block device (need root for losetup)"
else
	head -c 1048576 /dev/urandom > "$D/disk.img"
	new_loop LOOP "$D/disk.img"
fi
if [ -n "$LOOP" ]; then
	SUM=$(sum_of "$LOOP")
	expect_status "outputs: -o onto a block device" 2 \
		$FB -a -o "$LOOP" sim:sd08g
	refused "outputs: -o onto a block device" "block device"
	unchanged "outputs: -o onto a block device" "$LOOP" "$SUM"
	expect_status "outputs: --plot onto a block device" 2 \
		$FB -a --plot="$LOOP" sim:sd08g
	refused "outputs: --plot onto a block device" "block device"
	unchanged "outputs: --plot onto a block device" "$LOOP" "$SUM"
elif is_root; then
	skip "outputs: block device (no loop device)"
fi

SEED=$(ls tests/seeds/*.txt | head -n 1)
cp "$SEED" "$D/rep.txt"
SUM=$(sum_of "$D/rep.txt")
expect_status "outputs: -o is the --analyze file" 2 \
	$FB --analyze="$D/rep.txt" -o "$D/rep.txt"
refused "outputs: -o is the --analyze file" "analyze"
unchanged "outputs: -o is the --analyze file" "$D/rep.txt" "$SUM"
"$FB" --analyze=- -o "$D/rep.txt" < "$D/rep.txt" >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 2 ]; then
	pass "outputs: -o is the --analyze=- input: exit 2"
else
	fail "outputs: -o is the --analyze=- input: not refused"
fi
refused "outputs: -o is the --analyze=- input" "standard input"
unchanged "outputs: -o is the --analyze=- input" "$D/rep.txt" "$SUM"
"$FB" --analyze=- -o "$D/new.txt" < "$SEED" >"$TMP/out" 2>"$TMP/err"
if [ $? -eq 0 ] && [ -s "$D/new.txt" ]; then
	pass "outputs: --analyze=- into another file works"
else
	fail "outputs: --analyze=- into another file: $(head -c 300 "$TMP/err")"
fi
