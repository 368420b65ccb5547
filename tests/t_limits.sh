#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bounded resources and sizes at the limits: planning memory does not grow
# with the number of I/Os, table rows take what they use, reports have a
# size limit, sizes near 2^64 get a clear error.  Memory is the peak RSS
# that /usr/bin/time reports.
. tests/lib.sh

# 9.4 million planned writes: 500 MB when the plan kept one record each
SWEEP="-O --erasesize=64M --blocksize=512 --open-au-nr=1-8 sim:size=16G"
peak "limits: plan of a 9.4M-write sweep stays small" 32768 \
	"$FB" --dry-run $SWEEP
expect_grep "limits: the plan names all 8 AUs" \
	"^# 0 reads (0B), 9437148 writes" "$TMP/peak.out"
[ "$(grep -c '^# writes bytes' "$TMP/peak.out")" -eq 8 ] &&
	pass "limits: 8 merged ranges" ||
	fail "limits: ranges: $(grep '^# writes' "$TMP/peak.out" | head -3)"
# -v prints every I/O as it is planned instead of holding them
peak "limits: verbose plan of 1.6M writes streams" 32768 \
	"$FB" --dry-run -v -O --erasesize=64M --blocksize=512 \
	--open-au-nr=1-3 sim:size=16G
[ "$(grep -c '^write	' "$TMP/peak.out")" -eq 1572858 ] &&
	pass "limits: verbose plan lists every write" ||
	fail "limits: verbose plan: $(grep -c '^write' "$TMP/peak.out") writes"

# a million rows of one value: 536 MB when every row held 64 columns
peak "limits: scatter of 2^20 rows stays small" 131072 \
	"$FB" -s --scatter-order=20 --blocksize=4096 --count=1 sim:
[ "$(wc -l < "$TMP/peak.out")" -eq 1048576 ] &&
	pass "limits: scatter prints 2^20 rows" ||
	fail "limits: scatter: $(wc -l < "$TMP/peak.out") rows"
rm -f "$TMP/peak.out" "$TMP/peak.err" "$TMP/peak.rss"

# 256 MiB reads: the buffer, locked whole, is one 16 MiB piece of them
if is_root; then
	peak "limits: the locked I/O buffer stays small" 131072 \
		"$FB" -i --interval-order=19 --count=1 sim:
else
	skip "limits: buffer locking (needs root: others cannot lock 64MiB)"
fi

# --analyze reads at most 64 MiB of a report: one line naming the file
one_line_error() {
	_name=$1 _want=$2
	if [ "$(wc -l < "$TMP/err")" -eq 1 ] && grep -q -F -e "$_want" "$TMP/err"
	then
		pass "$_name: one line naming it"
	else
		fail "$_name: stderr: $(head -c 300 "$TMP/err")"
	fi
}
BIG=$TMP/limits-big.txt
rm -f "$BIG"
truncate -s 65M "$BIG"
expect_status "limits: --analyze of a 65MiB file: exit 2" 2 \
	"$FB" --analyze="$BIG"
one_line_error "limits: --analyze of a 65MiB file" \
	"--analyze=$BIG: more than 64MiB, the limit for a report"
head -c $((65 << 20)) "$BIG" | "$FB" --analyze=- > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc -eq 2 ] && pass "limits: --analyze=- of 65MiB: exit 2" ||
	fail "limits: --analyze=- of 65MiB: exit $rc, want 2"
one_line_error "limits: --analyze=- of 65MiB" "--analyze=-: more than 64MiB"
rm -f "$BIG"

# sizes near 2^64: one line naming the key or option, exit 2, no I/O
for dev in sim:size=12582912T sim:size=18446744073709551104; do
	for t in -a -O --erase -i; do
		expect_status "limits: $t $dev: exit 2" 2 "$FB" $t "$dev"
		one_line_error "limits: $t $dev" "$dev: size: more than"
	done
done

# 8 erase sizes of 2^61 bytes wrapped past 2^64 to 0, so the default
# offset became 2^61 instead of past the end of the card (and the plan of
# 2^47 writes never ended): refused, naming where the tests start
expect_status "limits: -O --erasesize=2^61 on an 8EiB card: exit 2" 2 \
	timeout 60 "$FB" --dry-run -O --open-au-nr=1 \
	--erasesize=2305843009213693952 sim:size=9223372036854775296
one_line_error "limits: -O --erasesize=2^61 on an 8EiB card" \
	"(8 x 2.097e+06TiB), whichever is larger: past 2^64;"
