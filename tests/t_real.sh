#!/bin/sh
# The real I/O path: regular files and, as root, loop devices with direct
# I/O.  Read-only tests leave the device byte-identical; destructive tests
# change nothing outside the range they announce.
. tests/lib.sh

F=$TMP/real.img
head -c $((128 << 20)) /dev/urandom > "$F"
sum0=$(sha256sum < "$F")

# read-only tests on a regular file
expect_status "file: -a runs" 0 $FB -a "$F" --blocksize=1024 --count=2
expect_grep "file: -a prints the classic table" \
	"^align 33554432	pre .*	on .*	post .*	diff " "$TMP/out"
expect_status "file: -s runs" 0 $FB -s "$F" --scatter-order=6 --count=2
expect_grep "file: -s prints offset and time" '^[0-9.]*	[0-9.]*$' "$TMP/out"
expect_status "file: -i runs" 0 $FB -i "$F" --interval-order=6 --count=2
expect_grep "file: -i prints the classic lines" \
	'^512 bytes: min [0-9.]*[nµm]*s avg [0-9.]*[nµm]*s max [0-9.]*[nµm]*s: [0-9.e+]* MB/s$' \
	"$TMP/out"
expect_grep "file: -i prints the fit" '^\(inf\|[0-9][0-9.e+]*\) MB/s, -\?[0-9.]*[nµm]*s access time$' \
	"$TMP/out"
# no_geometry NAME DEV: a device with no erase block or page (memory):
# -a must name none at medium or high confidence, however often, at
# whatever block size and count (a step between noise and negative
# values, or the first rows of a run warming up, are none).  A file on
# disk is no such device: its extents are its erase blocks (ext4's 8 MiB
# extents read as 8 MiB units, as they should).
no_geometry() {
	_bad=
	for _bs in 1k 4k 256k; do
		for _c in 1 2 2 8; do
			$FB -a "$2" --blocksize=$_bs --count=$_c \
				>/dev/null 2>"$TMP/err"
			_v=$(grep -E '(erase|page)_size: .*\((medium|high)\)' \
				"$TMP/err" | head -n 1)
			[ -n "$_v" ] && _bad="--blocksize=$_bs --count=$_c: $_v"
		done
	done
	if [ -z "$_bad" ]; then
		pass "$1: -a names no erase block or page with confidence"
	else
		fail "$1: $_bad"
	fi
}
# before the destructive tests: their writeback would be noise of its own
sync
M=
if [ -d /dev/shm ] && M=$(mktemp -p /dev/shm fb-real.XXXXXX) &&
	head -c $((64 << 20)) /dev/urandom > "$M" &&
	$FB -a "$M" --blocksize=4k --count=1 >/dev/null 2>&1; then
	no_geometry "file in memory" "$M"
	if ! is_root; then
		skip "loop device in memory (need root for losetup)"
	elif new_loop LM "$M" && [ -n "$LM" ]; then
		no_geometry "loop device in memory" "$LM"
		detach_loop "$LM"
	else
		skip "loop device in memory (losetup failed)"
	fi
else
	skip "file and loop device in memory (no /dev/shm, or no direct I/O)"
fi
rm -f "$M"

if [ "$(sha256sum < "$F")" = "$sum0" ]; then
	pass "file: -a, -s, -i leave it byte-identical"
else
	fail "file: read-only tests changed the file"
fi

# destructive tests: confined to the announced ranges

# fresh data, so a write of the same pattern as before still shows
refresh() {
	head -c $((128 << 20)) /dev/urandom |
		dd of="$F" conv=notrunc bs=1M iflag=fullblock 2>/dev/null
}

confined() {
	_name=$1
	shift
	refresh
	cp "$F" "$TMP/before.img"
	"$@" >"$TMP/out" 2>"$TMP/err"
	_st=$?
	if [ $_st -ne 0 ]; then
		fail "$_name: exit $_st: $(head -c 300 "$TMP/err")"
		return
	fi
	if _why=$(python3 tests/confined.py "$TMP/before.img" "$F" \
		"$TMP/err"); then
		pass "$_name: writes only inside the announced range"
	else
		fail "$_name: $_why"
	fi
	rm -f "$TMP/before.img"
}

confined "file: -O" $FB -O "$F" --blocksize=256k --open-au-nr=2
confined "file: -O --random sweep" $FB -O "$F" --blocksize=512k \
	--erasesize=1M --open-au-nr=1-3 --random
confined "file: -f" $FB -f "$F" --blocksize=1M --fat-nr=3
confined "file: --erase" $FB --erase "$F" --blocksize=1M --count=2
confined "file: --discard" $FB --discard=8M:1M "$F"
confined "file: -O --offset" $FB -O "$F" --offset=100M --erasesize=1M \
	--blocksize=512k --open-au-nr=1

size0=$(stat -c %s "$F")
expect_status "file: a test past the end is refused" 2 \
	$FB -O "$F" --offset=127M --open-au-nr=1
if [ "$(stat -c %s "$F")" = "$size0" ]; then
	pass "file: never extended"
else
	fail "file: size changed from $size0 to $(stat -c %s "$F")"
fi

# loop devices (root only)
if ! is_root; then
	skip "loop device tests (need root for losetup)"
	rm -f "$F"
	exit 0
fi
L=$(make_loop "$F")
if [ -z "$L" ]; then
	skip "loop device tests (losetup --direct-io=on failed: no loop support)"
	rm -f "$F"
	exit 0
fi
trap 'losetup -d "$L" 2>/dev/null; rm -f "$F" "$TMP/before.img"' EXIT
sum1=$(sha256sum < "$L")
expect_status "loop: -a runs" 0 $FB -a "$L" --blocksize=1024 --count=2
expect_grep "loop: -a table" "^align 33554432	" "$TMP/out"
expect_status "loop: -s runs" 0 $FB -s "$L" --scatter-order=6 --count=2
if [ "$(sha256sum < "$L")" = "$sum1" ]; then
	pass "loop: -a and -s leave it byte-identical"
else
	fail "loop: read-only tests changed the device"
fi
confined "loop: -O" $FB -O "$L" --blocksize=256k --open-au-nr=2
confined "loop: -f" $FB -f "$L" --blocksize=1M --fat-nr=2
# loop devices may not support discard; 3 is the documented status then
refresh
cp "$F" "$TMP/before.img"
$FB --erase "$L" --blocksize=1M --count=2 >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st -eq 0 ] && python3 tests/confined.py "$TMP/before.img" "$F" \
	"$TMP/err" >/dev/null; then
	pass "loop: --erase confined"
elif [ $st -eq 3 ] && grep -q "discard is not supported" "$TMP/err"; then
	pass "loop: --erase says discard is not supported (exit 3)"
else
	fail "loop: --erase: exit $st: $(head -c 300 "$TMP/err")"
fi
