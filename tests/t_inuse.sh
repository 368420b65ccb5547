#!/bin/sh
# In use under another name: a write test refuses an image file or device
# whose storage is mounted through an alias (a loop device on the image, a
# second loop device on it, a loop device stacked on the target, a
# partition of one of those) and names what is mounted; -o never writes
# to the device under test through another name, nor over a report that
# --analyze is about to read.
. tests/lib.sh

S=$TMP/inuse
rm -rf "$S"
mkdir -p "$S"
M1=$(pwd)/$S/m1
M2=$(pwd)/$S/m2
LOOPS=
cleanup() {
	umount "$M1" 2>/dev/null
	umount "$M2" 2>/dev/null
	detach_loops
	rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# refused NAME FILE-TO-WATCH CMD...: exit 2, and FILE-TO-WATCH unchanged
refused() {
	_name=$1 _file=$2
	shift 2
	_sum=$(sum_of "$_file")
	expect_status "$_name: refused" 2 "$@"
	unchanged "$_name: $_file" "$_file" "$_sum"
}

# --- regular files: no root needed
F=$S/file.img
head -c $((8 << 20)) /dev/urandom > "$F"
ln -s file.img "$S/link.img"
refused "-o through a symlink to the device" "$F" \
	$FB -a --count=1 "$F" -o "$S/link.img"
expect_grep "-o through a symlink: says why" \
	"^flashbench: --out=$S/link.img: that is the device under test$" \
	"$TMP/err"
ln "$F" "$S/hard.img"
refused "-o through a hard link to the device" "$F" \
	$FB -a --count=1 "$F" -o "$S/hard.img"
R=$S/report.txt
$FB -a sim: > "$R" 2>/dev/null
refused "--analyze=F -o F" "$R" $FB --analyze="$R" -o "$R"
expect_grep "--analyze=F -o F: says why" \
	"^flashbench: --out=$R: that is the report --analyze=$R reads$" \
	"$TMP/err"
ln "$R" "$S/report2.txt"
refused "--analyze=F -o a link to F" "$R" \
	$FB --analyze="$R" -o "$S/report2.txt"

# --- loop devices
can_mount "loop device alias tests" || exit 0
mkdir -p "$M1" "$M2"

W="-O --erasesize=1M --blocksize=256k --open-au-nr=2"

# an image, mounted through loop device A; B is a second loop device on it
I1=$(pwd)/$S/one.img
head -c $((32 << 20)) /dev/zero > "$I1"
new_loop A "$I1"
if [ -z "$A" ]; then
	skip "loop device alias tests (losetup failed: no loop support)"
	exit 0
fi
new_loop B "$I1"
mkfs.ext4 -q -F "$A" && mount "$A" "$M1" || {
	fail "alias: mkfs.ext4 and mount"
	exit 0
}
fill "$M1"
expect_status "image of a mounted loop device: -O refused" 2 $FB $W "$I1"
expect_grep "image of a mounted loop device: names the mount" \
	"^flashbench: $I1: in use: $A (on $I1) is mounted on $M1 (use --force to override)$" \
	"$TMP/err"
expect_status "image of a mounted loop device: --discard refused" 2 \
	$FB --discard=16M:1M "$I1"
expect_status "second loop device on the image: -O refused" 2 $FB $W "$B"
expect_grep "second loop device on the image: names the mount" \
	"^flashbench: $B: in use: $A (on $I1) is mounted on $M1 " "$TMP/err"
expect_status "second loop device on the image: -f refused" 2 \
	$FB -f --erasesize=1M "$B"
intact "alias" "$A" "$M1"

# a loop device C stacked on D, mounted: D and its image are in use
I2=$(pwd)/$S/two.img
head -c $((32 << 20)) /dev/zero > "$I2"
new_loop D "$I2"
new_loop C "$D"
mkfs.ext4 -q -F "$C" && mount "$C" "$M2" || {
	fail "stacked: mkfs.ext4 and mount"
	exit 0
}
fill "$M2"
expect_status "loop device stacked on the target: -O refused" 2 $FB $W "$D"
expect_grep "loop device stacked on the target: names it" \
	"^flashbench: $D: in use: $C (on $D) is mounted on $M2 " "$TMP/err"
expect_status "image under a stacked loop device: -O refused" 2 \
	$FB $W "$I2"
expect_grep "image under a stacked loop device: names it" \
	"^flashbench: $I2: in use: $C (on $D) is mounted on $M2 " "$TMP/err"
intact "stacked" "$C" "$M2"

# -o onto the device under test through another name (all unmounted now)
refused "-o the image behind the device" "$I1" \
	$FB -a --count=1 "$B" -o "$I1"
expect_grep "-o the image behind the device: says why" \
	"^flashbench: --out=$I1: that is the image file behind the device under test$" \
	"$TMP/err"
refused "-o a loop device on the image" "$I1" $FB -a --count=1 "$I1" -o "$A"
expect_grep "-o a loop device on the image: names it" \
	"^flashbench: --out=$A: that is $A (on $I1), which shares storage with the device under test$" \
	"$TMP/err"
refused "-o a second loop device on the image" "$I1" \
	$FB -a --count=1 "$A" -o "$B"
refused "-o a loop device stacked on the device" "$I2" \
	$FB -a --count=1 "$D" -o "$C"
refused "-O -o the image" "$I1" $FB $W "$A" -o "$I1"
# --plot is written like the report
refused "--plot onto the image behind the device" "$I1" \
	$FB -a --count=1 "$B" --plot="$I1"
expect_grep "--plot onto the image behind the device: says why" \
	"^flashbench: --plot=$I1: that is the image file behind the device under test$" \
	"$TMP/err"
refused "--plot onto a loop device stacked on the device" "$I2" \
	$FB -a --count=1 "$D" --plot="$C"

# partitions: a second partitioned loop device on one image
I3=$(pwd)/$S/parts.img
head -c $((48 << 20)) /dev/zero > "$I3"
printf 'label: dos\nstart=2048, size=65536, type=83\nstart=67584, type=83\n' |
	sfdisk -q "$I3" >/dev/null 2>&1
new_loop P "$I3" -P
new_loop Q "$I3" -P
for l in $P $Q; do
	# the kernel may not scan partitions at attach time; partx asks again
	# (synchronously); udev may still be making the nodes
	[ -b "${l}p1" ] || partx -a "$l" 2>/dev/null
done
command -v udevadm >/dev/null 2>&1 && udevadm settle 2>/dev/null
if [ -b "${P}p2" ] && [ -b "${Q}p1" ] && mkfs.ext4 -q -F "${Q}p1" &&
	mount "${Q}p1" "$M1"; then
	fill "$M1"
	expect_status "partition of an alias mounted: the same partition refused" 2 \
		$FB --discard=1M:1M "${P}p1"
	expect_grep "partition of an alias mounted: names it" \
		"^flashbench: ${P}p1: in use: ${Q}p1 (on $I3) is mounted on $M1 " \
		"$TMP/err"
	expect_status "partition of an alias mounted: its disk refused" 2 \
		$FB --discard=1M:1M "$P"
	expect_status "partition of an alias mounted: the image refused" 2 \
		$FB --discard=1M:1M "$I3"
	expect_status "partition of an alias mounted: the other partition runs" 0 \
		$FB --discard=0:1M "${P}p2"
	refused "-o a partition of the device" "$I3" \
		$FB -a --count=1 "$P" -o "${P}p2"
	refused "-o the disk of the partition under test" "$I3" \
		$FB -a --count=1 "${P}p2" -o "$P"
	refused "-o the same partition of an alias" "$I3" \
		$FB -a --count=1 "${P}p2" -o "${Q}p2"
	intact "partition" "${Q}p1" "$M1"
else
	skip "partition alias tests (no partition devices for $P and $Q)"
fi

# a holder (device-mapper) on a loop device: the image is in use
if command -v dmsetup >/dev/null 2>&1 &&
	dmsetup create "fbtest-inuse-$$" --table "0 8192 linear $B 0" \
		>/dev/null 2>&1; then
	H=fbtest-inuse-$$
	expect_status "holder on an alias: the image refused" 2 \
		$FB --discard=1M:1M "$I1"
	expect_grep "holder on an alias: names it" \
		"in use: $B (on $I1) is used by dm-[0-9]* ($H)" "$TMP/err"
	refused "-o a holder of an alias" "$I1" \
		$FB -a --count=1 "$A" -o "/dev/mapper/$H"
	dmsetup remove "$H"
else
	skip "holder tests (device-mapper not available here)"
fi
