#!/bin/sh
# flashbench-erase DEVICE START LENGTH: the classic package's command,
# with its arguments and its "erasing START to END on DEVICE" line; zeroes
# exactly the range (a hole in a file, BLKDISCARD on a device), refuses a
# bad range before any I/O.
. tests/lib.sh

FE=${FE:-./flashbench-erase}
F=$TMP/erase-cmd.img
head -c $((8 << 20)) /dev/urandom > "$F"
cp "$F" "$TMP/erase-cmd.orig"

expect_status "flashbench-erase FILE 1M 0x100000" 0 $FE "$F" 1M 0x100000
expect_grep "flashbench-erase: the classic line" \
	"^erasing 1048576 to 2097152 on $F\$" "$TMP/out"
if cmp -s -n $((1 << 20)) "$F" "$TMP/erase-cmd.orig" &&
   [ "$(tail -c +$((2 << 20 | 1)) "$F" | cksum)" = \
     "$(tail -c +$((2 << 20 | 1)) "$TMP/erase-cmd.orig" | cksum)" ] &&
   [ "$(dd if="$F" bs=1M skip=1 count=1 2>/dev/null | tr -d '\0' | wc -c)" \
     -eq 0 ]; then
	pass "flashbench-erase: zeroes exactly the range"
else
	fail "flashbench-erase: bytes outside 1-2 MiB changed or range not zero"
fi

cp "$TMP/erase-cmd.orig" "$F"
for args in "" "$F 0" "$F 0 0" "$F 1000 4096" "$F 0 9M" "$F 8M 512" \
	    "$F 1x 512" "$F -1 512" "$TMP/no-such-file 0 512"; do
	# shellcheck disable=SC2086
	expect_status "flashbench-erase $args: refused" 2 $FE $args
	[ "$(wc -l < "$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] &&
		pass "flashbench-erase $args: one line on stderr" ||
		fail "flashbench-erase $args: $(cat "$TMP/err" "$TMP/out")"
done
cmp -s "$F" "$TMP/erase-cmd.orig" &&
	pass "flashbench-erase: refused ranges leave the file as it was" ||
	fail "flashbench-erase: a refused range changed the file"

# names: an escape sequence is never echoed raw, on stderr or stdout; a
# name too long for the kernel keeps the reason on the line
E=$TMP/$(printf 'erase\033[31mcmd')
cp "$TMP/erase-cmd.orig" "$E"
expect_status "flashbench-erase: a name with ESC, refused range" 2 \
	$FE "$E" 0 9M
expect_grep "flashbench-erase: ESC shown as \\x1b in a message" \
	'erase\\x1b\[31mcmd' "$TMP/err"
expect_status "flashbench-erase: a name with ESC" 0 $FE "$E" 0 512
expect_grep "flashbench-erase: ESC shown as \\x1b on stdout" \
	'^erasing 0 to 512 on .*erase\\x1b\[31mcmd$' "$TMP/out"
if grep -q "$(printf '\033')" "$TMP/out" "$TMP/err"; then
	fail "flashbench-erase: the escape character was echoed raw"
else
	pass "flashbench-erase: no raw escape character"
fi
rm -f "$E"
long=/tmp$(printf '/%0200d' $(seq 21))
expect_status "flashbench-erase: a name longer than the kernel takes" 2 \
	$FE "$long" 0 512
expect_grep "flashbench-erase: a long name keeps the reason" \
	"longer than [0-9]* bytes, the longest name the kernel takes$" \
	"$TMP/err"

# the classic program on the same loop device prints the same line
if ! is_root || [ ! -x /usr/bin/flashbench-erase ]; then
	skip "flashbench-erase against the classic (needs root and the" \
	     "flashbench package)"
	rm -f "$F" "$TMP/erase-cmd.orig"
	exit 0
fi
L=$(make_loop "$F")
if [ -z "$L" ]; then
	skip "flashbench-erase against the classic (no loop device)"
	rm -f "$F" "$TMP/erase-cmd.orig"
	exit 0
fi
/usr/bin/flashbench-erase "$L" 4194304 1048576 0<>/dev/null \
	>"$TMP/erase-classic" 2>&1
$FE "$L" 4194304 1048576 >"$TMP/erase-ours" 2>&1
cmp -s "$TMP/erase-classic" "$TMP/erase-ours" &&
	pass "flashbench-erase: the classic's output on $L" ||
	fail "flashbench-erase: classic '$(cat "$TMP/erase-classic")'," \
	     "ours '$(cat "$TMP/erase-ours")'"
losetup -d "$L"
rm -f "$F" "$TMP/erase-cmd.orig" "$TMP/erase-classic" "$TMP/erase-ours"
