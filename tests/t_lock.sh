#!/bin/sh
# The storage under test is locked, not its name: while a write run holds
# an image or a loop device, a second run through any other name of the
# same storage (the image file, another loop device over it) is refused
# before any I/O, also with --force, and the first one restores and
# verifies its data; read-only tests share the storage.  A loop device's
# image is known by device and inode, so a mounted image whose name was
# removed is still in use through its other link.
. tests/lib.sh

ERASE=${FB%/*}/flashbench-erase
S=$TMP/lock
MNT=$(pwd)/$S/mnt
LOOPS=
GONE=
cleanup() {
	release
	[ -n "${_pid:-}" ] && wait $_pid 2>/dev/null
	umount "$MNT" 2>/dev/null
	detach_gone
	detach_loops
	rm -rf "$S"
}

# detach_gone: the loop device on a removed name (GONE, "DEVICE:IMAGE"),
# which ours() cannot tell by name: only while still on IMAGE's inode
detach_gone() {
	[ -n "$GONE" ] || return 0
	_d=${GONE%%:*}
	if [ "$(losetup -nO BACK-INO "$_d" 2>/dev/null | tr -d ' ')" = \
	     "$(stat -c %i "${GONE#*:}")" ]; then
		losetup -d "$_d"
	fi
	detach_loop "$_d"
	GONE=
}

if ! is_root; then
	skip "storage locks (need root for losetup)"
	exit 0
fi
for t in losetup mkfs.ext4; do
	if ! command -v $t >/dev/null 2>&1; then
		skip "storage locks ($t not installed)"
		exit 0
	fi
done
rm -rf "$S"
mkdir -p "$MNT"
trap cleanup EXIT
trap 'exit 1' INT TERM

G=$S/gate
F=$S/card.img
head -c $((16 << 20)) /dev/urandom > "$F"
new_loop L1 "$F"
new_loop L2 "$F"
if [ -z "$L1" ] || [ -z "$L2" ]; then
	skip "storage locks (no free loop device)"
	exit 0
fi

# One write of 1 MiB at 8 MiB, a row at a time: the gate holds it there.
W="-O --offset=8M --erasesize=1M --blocksize=256k --open-au-nr=1"
ROW='^[0-9.]*[KM]iB'
HELD="in use by another flashbench run, which holds"

# hold PATTERN ARGS...: a run held by the gate after its first row,
# which matches PATTERN
hold() {
	_hp=$1
	shift
	start_held "$S/a.out" "$S/a.err" $FBH "$@"
	announced "$S/a.out" "$_hp"
}

# finished NAME: the held run, let go, restored and verified its data
finished() {
	release
	wait $_pid
	_st=$?
	_pid=
	if [ $_st -eq 0 ]; then
		pass "$1: the first run ends normally"
	else
		fail "$1: the first run: exit $_st: $(head -c 300 "$S/a.err")"
	fi
	expect_grep "$1: the first run restored and verified" \
		"^flashbench: restored .* checksums verified$" "$S/a.err"
}

# refused NAME SUM CMD...: CMD exits 2 naming the holder, writes nothing
refused() {
	_rn=$1 _rs=$2
	shift 2
	expect_status "$_rn: refused" 2 "$@"
	expect_grep "$_rn: says another flashbench run holds it" "$HELD" \
		"$TMP/err"
	if [ "$(wc -l < "$TMP/err")" -eq 1 ]; then
		pass "$_rn: one line"
	else
		fail "$_rn: $(wc -l < "$TMP/err") lines: $(head -c 300 "$TMP/err")"
	fi
	unchanged "$_rn: the image" "$F" "$_rs"
}

# race NAME FIRST SECOND: two --preserve write runs; the second refused
# while the first holds the storage, which it then gets back intact
race() {
	_sum=$(sum_of "$F")
	rm -f "$S/a.fbp" "$S/b.fbp"
	hold "$ROW" $W --preserve="$S/a.fbp" "$2" || { finished "$1"; return; }
	_held=$(sum_of "$F")
	refused "$1" "$_held" $FB $W --preserve="$S/b.fbp" "$3"
	if [ -e "$S/b.fbp" ]; then
		fail "$1: the second run saved a preserve file"
	else
		pass "$1: the second run saved nothing"
	fi
	refused "$1 --force" "$_held" $FB $W --force "$3"
	finished "$1"
	unchanged "$1: after the restore, the image" "$F" "$_sum"
}

race "loop device, then its image" "$L1" "$F"
race "image, then a loop device on it" "$F" "$L1"
race "two loop devices on one image" "$L1" "$L2"

sum=$(sum_of "$F")
hold "$ROW" $W --preserve="$S/a.fbp" "$F"
refused "flashbench-erase on a loop device" "$(sum_of "$F")" \
	"$ERASE" "$L2" 8M 1M
finished "erase beside a write run"

# read-only tests side by side; a write run not beside them
hold "^align" -a --blocksize=1M --erasesize=4M --count=1 "$L1"
expect_status "two read tests: the second runs" 0 \
	$FB -a --blocksize=1M --erasesize=4M --count=1 "$F"
refused "a write run beside a read test" "$sum" $FB $W "$L2"
release
wait $_pid
_pid=

# nothing mounts an alias while a write run holds the storage (the file
# system made through the alias, whose cache would hide it otherwise)
mkfs.ext4 -q -F "$L2"
sum=$(sum_of "$F")
hold "$ROW" $W --preserve="$S/a.fbp" "$L1"
if mount -t ext4 "$L2" "$MNT" 2>"$TMP/err"; then
	fail "mount of an alias: $L2 mounted while $L1 is written"
	umount "$MNT"
else
	expect_grep "mount of an alias: refused as busy while $L1 is written" \
		"busy" "$TMP/err"
fi
finished "mount of an alias"
unchanged "mount of an alias: the file system" "$F" "$sum"

# the mounted image's name removed: its other link is still in use
detach_loop "$L2"
detach_loop "$L1"
ln "$F" "$S/link.img"
new_loop L3 "$S/link.img"
if [ -n "$L3" ] && mount -t ext4 "$L3" "$MNT"; then
	GONE=$L3:$F
	rm "$S/link.img"
	expect_status "removed name: a write on the other link refused" 2 \
		$FB $W "$F"
	expect_grep "removed name: says it is mounted" \
		"in use: $L3 (on .*) is mounted on $MNT" "$TMP/err"
	umount "$MNT"
	detach_gone
else
	fail "removed name: cannot mount $S/link.img on a loop device"
fi
