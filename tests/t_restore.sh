#!/bin/sh
# --restore writes the card's data back only from a file it can trust,
# checked whole, onto the device it was saved from: a FIFO, a symbolic
# link, a directory, a file another user could have written, a crafted
# range table, or another device attached under the same name are all
# refused before the first write.  The backup is created 0600 and never
# through a symbolic link; -o and --plot follow none in a world-writable
# directory.
. tests/lib.sh

S=$TMP/restore
rm -rf "$S"
mkdir -p "$S"
LOOPS=
APPEND=
cleanup() {
	[ -n "$APPEND" ] && chattr -a "$APPEND" 2>/dev/null
	for l in $LOOPS; do
		# only if it is still ours: it is re-attached by name below
		case "$(losetup -nO BACK-FILE "$l" 2>/dev/null)" in
		"$(pwd)/$S"/*) losetup -d "$l" ;;
		esac
	done
	rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The one write of this test: 1 MiB at 8 MiB.
W="-O --offset=8M --erasesize=1M --blocksize=256k --open-au-nr=1"

# keep_file KEEP FILE: a complete preserve file of the image FILE, kept
# because every write of the run fails: a 4 MiB file size limit refuses
# writes past 4 MiB (those of the test and of the restore after it)
keep_file() {
	rm -f "$1"
	(trap '' XFSZ; ulimit -f 8192; exec $FB $W --preserve="$1" "$2") \
		>/dev/null 2>"$TMP/err"
	if [ -f "$1" ] && grep -q "^flashbench: saved " "$TMP/err"; then
		return 0
	fi
	fail "preserve file of $2 kept: $(head -c 300 "$TMP/err")"
	return 1
}

# scribble FILE: new bytes where the test writes, so a restore shows
scribble() {
	head -c $((1 << 20)) /dev/urandom |
		dd of="$1" bs=1M seek=8 conv=notrunc oflag=direct 2>/dev/null
}

# crafted NAME KEEP DEV OP: a range table rewritten by OP is refused
# before the first write
crafted() {
	python3 tests/fbp_edit.py "$2" "$S/crafted.fbp" "$4"
	scribble "$3"
	_sum=$(sum_of "$3")
	expect_status "$1: refused" 1 $FB --restore="$S/crafted.fbp" "$3"
	expect_grep "$1: says why, nothing written" \
		"corrupt range table: range 1 .*; nothing written$" "$TMP/err"
	unchanged "$1: the device" "$3" "$_sum"
}

# --- regular files: no root needed
F=$S/card.img
head -c $((16 << 20)) /dev/urandom > "$F"
K=$S/keep.fbp
if (umask 0; keep_file "$K" "$F"); then
	if [ "$(stat -c %a "$K")" = 600 ]; then
		pass "preserve file: mode 0600 whatever the umask"
	else
		fail "preserve file: mode $(stat -c %a "$K"), want 600"
	fi

	# another image under the same name
	mv "$F" "$S/card.orig"
	head -c $((16 << 20)) /dev/urandom > "$F"
	osum=$(sum_of "$F")
	expect_status "file: --restore onto another file of that name refused" 2 \
		$FB --restore="$K" "$F"
	expect_grep "file: says the fingerprint differs" \
		"^flashbench: --restore=$K: not the device it was saved from: the [0-9]* blocks sampled outside the saved ranges have changed; nothing written (use --force if $F is that device)$" \
		"$TMP/err"
	unchanged "file: the other file" "$F" "$osum"
	expect_status "file: --force restores onto it" 0 \
		$FB --restore="$K" --force "$F"
	expect_grep "file: --force: verified" "checksums verified" "$TMP/err"
	mv "$S/card.orig" "$F"
	scribble "$F"
	# options that cannot apply are refused, not ignored: --dry-run
	# wrote, --info ended 0 having put nothing back
	_sum=$(sum_of "$F")
	expect_status "file: --restore --dry-run refused" 2 \
		$FB --restore="$K" --dry-run "$F"
	expect_grep "file: --restore --dry-run says why" \
		"^flashbench: --restore=$K: writes to the device; it does not go with --dry-run$" \
		"$TMP/err"
	unchanged "file: --restore --dry-run: the file" "$F" "$_sum"
	expect_status "file: --restore with --info refused" 2 \
		$FB --info --restore="$K" "$F"
	expect_grep "file: --restore with --info says why" \
		"^flashbench: --restore=$K: puts saved data back; it does not go with --info$" \
		"$TMP/err"
	expect_status "file: --restore onto the right file" 0 \
		$FB --restore="$K" "$F"

	python3 tests/fbp_edit.py "$K" "$S/old.fbp" v1
	expect_status "file: a version 1 file is refused" 2 \
		$FB --restore="$S/old.fbp" "$F"
	expect_grep "file: a version 1 file: says why" \
		"made by an older flashbench, which did not record which device it was; nothing written (use --force" \
		"$TMP/err"
	expect_status "file: a version 1 file with --force" 0 \
		$FB --restore="$S/old.fbp" --force "$F"

	crafted "file: misaligned range" "$K" "$F" misalign
	crafted "file: overlapping ranges" "$K" "$F" overlap

	chmod o+w "$K"
	expect_status "file: --restore from a world-writable file refused" 2 \
		$FB --restore="$K" "$F"
	expect_grep "file: world-writable: says why" \
		"^flashbench: --restore=$K: writable by others (mode 0602)" \
		"$TMP/err"
	chmod o-w,g+w "$K"
	expect_status "file: --restore from a group-writable file refused" 2 \
		$FB --restore="$K" "$F"
	chmod g-w "$K"
	if is_root && chown nobody "$K" 2>/dev/null; then
		expect_status "file: --restore from another user's file refused" 2 \
			$FB --restore="$K" "$F"
		expect_grep "file: another user's file: says why" \
			"owned by user [0-9]*, not by you or root" "$TMP/err"
		chown 0 "$K"
	else
		skip "another user's preserve file (needs root for chown)"
	fi
	ln -s keep.fbp "$S/link.fbp"
	expect_status "file: --restore through a symbolic link refused" 2 \
		$FB --restore="$S/link.fbp" "$F"
	expect_grep "file: symbolic link: says why" "a symbolic link" \
		"$TMP/err"
fi

mkfifo "$S/fifo"
# a hang would be the bug: KILL, as the old code blocked TERM
expect_status "file: --restore from a FIFO refused at once" 2 \
	timeout -s KILL 60 $FB --restore="$S/fifo" "$F"
expect_grep "file: FIFO: says why" "^flashbench: --restore=$S/fifo: a FIFO$" \
	"$TMP/err"
expect_status "file: --restore from a directory refused" 2 \
	$FB --restore="$S" "$F"
expect_grep "file: directory: says why" "^flashbench: --restore=$S: a directory$" \
	"$TMP/err"

# a world-writable directory: no symbolic link followed
D=$S/shared
mkdir "$D"
chmod 1777 "$D"
echo "precious" > "$S/victim"
ln -s ../victim "$D/out"
expect_status "-o: a symbolic link in a world-writable directory refused" 2 \
	$FB -a --count=1 "$F" -o "$D/out"
expect_grep "-o: symbolic link: says why" \
	"^flashbench: --out=$D/out: a symbolic link in a world-writable directory; not followed" \
	"$TMP/err"
expect_grep "-o: the file it points to unchanged" "^precious$" "$S/victim"
ln -s ../victim "$D/plot.svg"
expect_status "--plot: a symbolic link in a world-writable directory refused" 2 \
	$FB -a --count=1 "$F" --plot="$D/plot.svg"
expect_grep "--plot: symbolic link: says why" \
	"^flashbench: --plot=$D/plot.svg: a symbolic link in a world-writable directory; not followed" \
	"$TMP/err"
expect_grep "--plot: the file it points to unchanged" "^precious$" "$S/victim"
ln -s ../gone "$D/keep"
expect_status "--preserve: a symbolic link in a world-writable directory refused" 2 \
	$FB $W --preserve="$D/keep" "$F"
if [ -e "$S/gone" ]; then
	fail "--preserve: created the file the symbolic link points to"
else
	pass "--preserve: nothing created through the symbolic link"
fi
ln -s victim "$S/mine"
expect_status "-o: a symbolic link elsewhere is followed" 0 \
	$FB -a --count=1 "$F" -o "$S/mine"
expect_grep "-o: the report went where it points" "^align" "$S/victim"
if is_root && : > "$D/theirs" && chown nobody "$D/theirs" 2>/dev/null; then
	echo "theirs" > "$D/theirs"
	expect_status "-o: another user's file in a world-writable directory refused" 2 \
		$FB -a --count=1 "$F" -o "$D/theirs"
	expect_grep "-o: another user's file unchanged" "^theirs$" "$D/theirs"
else
	skip "-o onto another user's file (needs root for chown)"
fi

# --- loop devices
if ! is_root; then
	skip "loop device restore tests (need root for losetup)"
	exit 0
fi
if ! command -v chattr >/dev/null 2>&1 || ! mkdir "$S/append" ||
	! chattr +a "$S/append" 2>/dev/null; then
	skip "loop device restore tests (no chattr +a on $S)"
	exit 0
fi
APPEND=$S/append

# keep_dev KEEP DEV: a preserve file of DEV, kept: an append-only
# directory lets the run create it but not remove it
keep_dev() {
	rm -f "$1"
	$FB $W --preserve="$APPEND/k" "$2" >/dev/null 2>"$TMP/err"
	chattr -a "$APPEND"
	mv "$APPEND/k" "$1" 2>/dev/null
	chattr +a "$APPEND"
	if [ -f "$1" ] && grep -q "cannot remove it" "$TMP/err"; then
		return 0
	fi
	fail "preserve file of $2 kept: $(head -c 300 "$TMP/err")"
	return 1
}

I1=$(pwd)/$S/one.img
I2=$(pwd)/$S/two.img
head -c $((16 << 20)) /dev/urandom > "$I1"
head -c $((16 << 20)) /dev/urandom > "$I2"
L=$(losetup --direct-io=on -f --show "$I1" 2>/dev/null) || L=
if [ -z "$L" ]; then
	skip "loop device restore tests (losetup failed: no loop support)"
	exit 0
fi
LOOPS=$L
if keep_dev "$S/loop.fbp" "$L"; then
	expect_grep "loop: the identity is recorded" \
		"loop device on $I1 (device" "$S/loop.fbp"
	crafted "loop: misaligned range" "$S/loop.fbp" "$L" misalign
	# another image attached under the same name
	losetup -d "$L"
	if losetup --direct-io=on "$L" "$I2" 2>/dev/null; then
		osum=$(sum_of "$I2")
		expect_status "loop: --restore onto another image under that name refused" 2 \
			$FB --restore="$S/loop.fbp" "$L"
		expect_grep "loop: names both images" \
			"not the device it was saved from: saved from loop device on $I1 (device .*, this is loop device on $I2 (device .*; nothing written" \
			"$TMP/err"
		unchanged "loop: the other image" "$I2" "$osum"
		losetup -d "$L"
		if losetup --direct-io=on "$L" "$I1" 2>/dev/null; then
			expect_status "loop: --restore onto the image re-attached" 0 \
				$FB --restore="$S/loop.fbp" "$L"
			expect_grep "loop: verified" "checksums verified" \
				"$TMP/err"
		else
			skip "loop: re-attaching $I1 ($L was taken meanwhile)"
		fi
	else
		skip "loop: attaching another image as $L (taken meanwhile)"
	fi
fi
