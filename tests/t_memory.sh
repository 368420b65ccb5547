#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Memory stays bounded whatever the sizes asked: a transfer longer than
# DEV_CHUNK_MAX (16 MiB) goes in pieces from one buffer of that size, so
# --erasesize=1G no longer keeps a 1 GiB buffer resident (the pattern
# written fills every page of it).  Peak RSS is /usr/bin/time's.
. tests/lib.sh

# The buffer (16 MiB, locked when root) and the program's own few MiB;
# well under the 64 MiB of a single erase block of these runs.
BOUND=49152

peak "memory: -f --erasesize=1G on sim" $BOUND \
	"$FB" -f --erasesize=1G --count=1 sim:size=64G
expect_grep "memory: -f --erasesize=1G prints its 1GiB row" \
	"^1GiB" "$TMP/peak.out"
peak "memory: --ramp --erasesize=512M on sim" $BOUND \
	"$FB" -O --ramp --erasesize=512M sim:size=64G,au=512M,open=3
peak "memory: -i of 256MiB reads on sim" $BOUND \
	"$FB" -i --interval-order=20 --count=1 sim:

# A sparse file: the real backend writes each piece where it belongs.
# With the default offset (8 erase sizes) -O writes [512M, 576M) once;
# every piece comes from the same buffer, so each 16 MiB holds the
# same nonzero bytes, up to the last one.
F=$TMP/memory.img
trap 'rm -f "$F"' EXIT
rm -f "$F"
truncate -s 1G "$F"
peak "memory: -O --erasesize=64M on a file" $BOUND \
	"$FB" -O --erasesize=64M --blocksize=64M --count=1 --open-au-nr=1 "$F"
MIB=1048576
piece() { dd if="$F" bs=$MIB skip="$1" count=16 2>/dev/null | cksum; }
first=$(piece 512)
zero=$(head -c $((16 * MIB)) /dev/zero | cksum)
if [ "$first" != "$zero" ] && [ "$(piece 528)" = "$first" ] &&
	[ "$(piece 560)" = "$first" ]; then
	pass "memory: every 16MiB piece of the file was written"
else
	fail "memory: pieces at 512M, 528M, 560M:" \
		"$first / $(piece 528) / $(piece 560)"
fi
[ "$(piece 576)" = "$zero" ] && [ "$(piece 496)" = "$zero" ] &&
	pass "memory: nothing written outside [512M, 576M)" ||
	fail "memory: bytes written outside [512M, 576M)"
rm -f "$F" "$TMP/peak.out" "$TMP/peak.err" "$TMP/peak.rss"

# A scatter keeps a row per position: past 2^20 (60 MB) it is refused
# before anything is read, not left to take 60 GB at 2^30.
expect_status "memory: --scatter-order=21: exit 2" 2 \
	"$FB" -s --scatter-order=21 --blocksize=512 --count=1 sim:size=1T
expect_grep "memory: --scatter-order=21: says the limit" \
	"^flashbench: --scatter-order=21: too large (at most 20)$" "$TMP/err"
