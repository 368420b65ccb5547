#!/bin/sh
# flashbench-erase on a mounted device: the hint in its refusal is true.
# The kernel holds a mounted device, so --force cannot get past it and
# the message must not suggest it.
. tests/lib.sh

FE=${FE:-./flashbench-erase}
D=$TMP/erase-force
M=
cleanup() {
	[ -n "$M" ] && umount "$M" 2>/dev/null
	detach_loops
	rm -rf "$D"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

can_mount "flashbench-erase on a mounted device" || exit 0
rm -rf "$D"
mkdir -p "$D/mnt"
truncate -s 32M "$D/disk.img"
new_loop L "$D/disk.img"
if [ -z "$L" ]; then
	skip "flashbench-erase on a mounted device (no loop device)"
	exit 0
fi
mkfs.ext4 -q -F "$L" && mount "$L" "$D/mnt" && M=$D/mnt || {
	fail "flashbench-erase on a mounted device: mkfs.ext4 and mount"
	exit 0
}
expect_status "flashbench-erase on a mounted device: refused" 2 \
	$FE "$L" 0 1048576
if grep -q -e "use --force" "$TMP/err"; then
	expect_status "flashbench-erase: the suggested --force works" 0 \
		$FE --force "$L" 0 1048576
else
	expect_grep "flashbench-erase: says --force cannot help" \
		"is mounted on .*--force cannot override that" "$TMP/err"
fi
