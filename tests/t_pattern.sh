#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the write tests write: the same bytes on every run, and nothing a
# compressing or deduplicating controller could shrink or skip (no two
# 8-byte words alike in one write, incompressible).
. tests/lib.sh

F=$TMP/pattern.img
KIB=1024
# written N: what -O writes on a fresh image, its first 64KiB in pattern.N
# (not on stdout: a failed run must not leave its message as the data)
written() {
	head -c $((1 << 20)) /dev/zero > "$F"
	"$FB" -O --erasesize=64K --blocksize=64K --open-au-nr=1 --offset=0 \
		"$F" > /dev/null 2>&1 || {
		fail "pattern: -O on $F: exit $?"
		return 1
	}
	head -c $((64 * KIB)) "$F" > "$TMP/pattern.$1"
}
if ! written 1 || ! written 2; then
	rm -f "$F" "$TMP/pattern.1" "$TMP/pattern.2"
	exit 0
fi
cmp -s "$TMP/pattern.1" "$TMP/pattern.2" &&
	pass "pattern: the same data on every run" ||
	fail "pattern: two runs wrote different data"
dup=$(od -An -v -tx8 -w8 "$TMP/pattern.1" | sort | uniq -d | wc -l)
[ "$dup" -eq 0 ] && pass "pattern: no 8-byte word repeats in 64KiB" ||
	fail "pattern: $dup repeated words"
z=$(gzip -9 -c "$TMP/pattern.1" | wc -c)
[ "$z" -gt $((64 * KIB)) ] && pass "pattern: incompressible ($z bytes gzipped)" ||
	fail "pattern: gzip makes 64KiB into $z bytes"
rm -f "$F" "$TMP/pattern.1" "$TMP/pattern.2"
