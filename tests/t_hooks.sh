#!/bin/sh
# The environment hooks exist only in the test build ($FBH): the
# installed flashbench neither holds at a FLASHBENCH_TEST_GATE FIFO nor
# reads a FLASHBENCH_SYSFS tree; and a FIFO in a sysfs tree, which the
# test build may be pointed at, cannot hang --info.
. tests/lib.sh
T=$TMP/hooks
rm -rf "$T"
mkdir -p "$T"

# Bounds a run that would hang on a hook; a working run ends long before.
GUARD=60

python3 tests/sysfs_tree.py "$T" tests/seeds/002_*.txt > "$T/trees" ||
	fail "sysfs trees from the seeds"
TREE=$T/002-0

# A gate FIFO held open for writing, never written: the test build would
# hold at the first row until the gate closes.
G=$T/gate
mkfifo "$G"
exec 9<>"$G"
FLASHBENCH_TEST_GATE=$G timeout $GUARD $FB -a sim:sd08g --count=1 \
	--blocksize=1M --erasesize=4M > "$T/out" 2> "$T/err" 9>&-
st=$?
exec 9>&-
if [ $st -eq 0 ] && grep -q '^align' "$T/out"; then
	pass "FLASHBENCH_TEST_GATE: ignored by the installed binary"
else
	fail "FLASHBENCH_TEST_GATE: exit $st (124: held)," \
		"$(head -c 300 "$T/err")"
fi

# A card the tree holds and this machine does not: the installed binary
# must not describe it from the tree (the test build does, below).
if [ -e /dev/mmcblk0 ]; then
	skip "FLASHBENCH_SYSFS: ignored (this machine has a /dev/mmcblk0)"
else
	FLASHBENCH_SYSFS=$TREE timeout $GUARD $FB --info /dev/mmcblk0 \
		> "$T/out" 2>&1
	st=$?
	if [ $st -eq 2 ] && ! grep -q '^manfid:' "$T/out"; then
		pass "FLASHBENCH_SYSFS: ignored by the installed binary"
	else
		fail "FLASHBENCH_SYSFS: exit $st, want 2 (no such device):" \
			"$(head -c 300 "$T/out")"
	fi
fi

# The test build does read the tree; with a FIFO for an attribute, it
# skips that one and describes the card from the rest.
F=$T/fifo
cp -r "$TREE" "$F"
rm -f "$F/block/mmcblk0/device/name"
mkfifo "$F/block/mmcblk0/device/name"
FLASHBENCH_SYSFS=$F timeout $GUARD $FBH --info /dev/mmcblk0 \
	> "$T/out" 2>&1
st=$?
if [ $st -eq 0 ] && grep -q '^manfid: 0x000003' "$T/out"; then
	pass "a FIFO in the sysfs tree: skipped, --info does not hang"
else
	fail "a FIFO in the sysfs tree: exit $st (124: hung)," \
		"$(head -c 300 "$T/out")"
fi
rm -rf "$T"
