#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The bad-input table (DESIGN.md section 3): every rejected command line
# exits with status 2, prints exactly one line on stderr naming the option
# and the value, prints nothing on stdout (no rows), and leaves the device
# byte-identical.  Run from the top directory (tests/run.sh does).
. tests/lib.sh

DEV=$TMP/badinput-64m.img	# 64 MiB, filled with a pattern
SMALL=$TMP/badinput-4k.img	# 4 KiB
RO=$TMP/badinput-ro.img		# for the unprivileged cases
NOPE=$TMP/badinput-no-such-device
LOOP=

cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -f "$DEV" "$SMALL" "$RO" "$TMP/bad.out" "$TMP/bad.err" \
	      "$TMP/pattern"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# 64 KiB of numbered lines, doubled up to 64 MiB
awk 'BEGIN { for (i = 0; i < 2048; i++)
		printf "flashbench-badinput-%011d\n", i }' > "$TMP/pattern"
cp "$TMP/pattern" "$DEV"
for i in 1 2 3 4 5 6 7 8 9 10; do
	cat "$DEV" "$DEV" > "$TMP/pattern"
	mv "$TMP/pattern" "$DEV"
done
head -c 4096 "$DEV" > "$SMALL"
if [ "$(wc -c < "$DEV")" -ne 67108864 ]; then
	fail "badinput: cannot make the 64 MiB test file"
	exit 1
fi
sums() { cksum "$DEV" "$SMALL" | awk '{ printf "%s %s;", $1, $2 }'; }
SUM=$(sums)

# bad WANT ARGS...: flashbench ARGS must be refused with exit status 2,
# one line on stderr containing WANT, nothing on stdout, and no change to
# the test files.  FB_AS (e.g. setpriv ...) runs it as another user.
ncase=0
bad() {
	_want=$1
	shift
	ncase=$((ncase + 1))
	_name="badinput: flashbench $*"
	$FB_AS "$FB" "$@" > "$TMP/bad.out" 2> "$TMP/bad.err"
	_rc=$?
	_why=
	[ "$_rc" -eq 2 ] || _why="exit status $_rc, want 2;"
	_lines=$(wc -l < "$TMP/bad.err")
	if [ "$_lines" -ne 1 ] || [ "$(head -n 1 "$TMP/bad.err" | wc -c)" \
	     -ne "$(wc -c < "$TMP/bad.err")" ]; then
		_why="$_why stderr is not one line;"
	fi
	grep -q -F -e "$_want" "$TMP/bad.err" ||
		_why="$_why stderr does not name '$_want';"
	[ -s "$TMP/bad.out" ] && _why="$_why output on stdout;"
	[ "$(sums)" = "$SUM" ] || _why="$_why THE TEST FILE CHANGED;"
	if [ -z "$_why" ]; then
		pass "$_name"
	else
		fail "$_name: $_why stderr: $(head -c 300 "$TMP/bad.err")"
	fi
}
FB_AS=

# numbers: overflow, negative, zero, junk, empty
bad --erasesize=99999999999999999999	-a --erasesize=99999999999999999999 "$DEV"
bad --blocksize=99999999999T	-a --blocksize=99999999999T "$DEV"
bad --count=99999999999		-a --count=99999999999 "$DEV"
bad --count=-1			-a --count=-1 "$DEV"
bad --blocksize=-16k		-a --blocksize=-16k "$DEV"
bad --count=0			-a --count=0 "$DEV"
bad --blocksize=0		-a --blocksize=0 "$DEV"
bad --erasesize=0		-O --erasesize=0 "$DEV"
bad --open-au-nr=0		-O --open-au-nr=0 "$DEV"
bad --fat-nr=0			-f --fat-nr=0 "$DEV"
bad --interval-order=0		-i --interval-order=0 "$DEV"
bad --erasesize=4X		-a --erasesize=4X "$DEV"
bad --blocksize=16kb7		-a --blocksize=16kb7 "$DEV"
bad --count=1e3			-a --count=1e3 "$DEV"
bad "--blocksize= 16k"		-a "--blocksize= 16k" "$DEV"
bad --blocksize=:		-a --blocksize= "$DEV"
bad --offset=:			-O --offset= "$DEV"
bad --offset=junk		-O --offset=junk "$DEV"
bad --scatter-order=31		-s --scatter-order=31 "$DEV"

# sizes against the sector and each other
bad --blocksize=1000		-a --blocksize=1000 "$DEV"
bad --blocksize=512		-a --blocksize=512 "$DEV"
bad --erasesize=1000		-O --erasesize=1000 --offset=0 "$DEV"
bad --offset=513		-O --offset=513 "$DEV"
bad --blocksize=8388608		-O --offset=0 --erasesize=4194304 \
				--blocksize=8388608 "$DEV"

# tests that do not fit on the device
bad --open-au-nr=2		-O --open-au-nr=2 "$DEV"
bad --open-au-nr=5		-O --open-au-nr=5 --offset=0 "$DEV"
bad --fat-nr=17			-f --fat-nr=17 "$DEV"
bad --offset=67108864		-O --offset=67108864 "$DEV"
bad --offset=99999999999	-O --offset=99999999999 "$DEV"
bad --count=100			--erase --count=100 "$DEV"
bad --blocksize=16384		-a --blocksize=16384 "$SMALL"
bad "give a smaller --scatter-order"	-s "$SMALL"
bad "give a smaller --interval-order"	-i "$SMALL"

# ranges and discards
bad --open-au-nr=5-3		-O --open-au-nr=5-3 "$DEV"
bad --open-au-nr=3-		-O --open-au-nr=3- "$DEV"
bad --open-au-nr=0-3		-O --open-au-nr=0-3 "$DEV"
bad --open-au-nr=1-100		-O --open-au-nr=1-100 "$DEV"
bad --discard=junk		--discard=junk "$DEV"
bad --discard=0:0		--discard=0:0 "$DEV"
bad --discard=0:4X		--discard=0:4X "$DEV"
bad --discard=1:512		--discard=1:512 "$DEV"
bad --discard=0:134217728	--discard=0:134217728 "$DEV"
bad --discard=67108864:512	--discard=67108864:512 "$DEV"

# the command line itself
bad "$TMP: "			-a "$TMP"
bad "/dev/null: "		-a /dev/null
bad "$NOPE: "			-a "$NOPE"
bad "no device"			-a
bad "$DEV $SMALL"		-a "$DEV" "$SMALL"
bad "no test"			"$DEV"
# modes exclude each other; their options are refused, not ignored
SEED=tests/seeds/002_b87f7c75a8a4b11f.txt
bad "--survey: runs its own tests; it does not go with --info" \
				--info --survey "$DEV"
bad "--restore=$TMP/p: puts saved data back; it does not go with --analyze=FILE" \
				--analyze="$SEED" --restore="$TMP/p"
bad "--preserve=$TMP/p: nothing is written with --info" \
				--info --preserve="$TMP/p" "$DEV"
bad "--preserve=$TMP/p: nothing is written with --analyze=FILE" \
				--analyze="$SEED" --preserve="$TMP/p"
bad "--count=3: nothing is measured with --info" --info --count=3 "$DEV"
bad "--count=3: --discard discards its range once" \
				--discard=0:1M --count=3 "$DEV"

# several tests: all checked before the first one reads anything
bad --open-au-nr=100		-a -O --open-au-nr=100 "$DEV"
bad --offset=0x8000000		-a -O --offset=0x8000000 "$DEV"
bad --bogus			--bogus -a "$DEV"
bad -Z				-Z -a "$DEV"
bad --align=foo			--align=foo "$DEV"
bad --count			-a "$DEV" --count
bad "--out=$TMP/no-such-dir/x"	-a "--out=$TMP/no-such-dir/x" "$DEV"
bad "--out=$DEV"		-a "--out=$DEV" "$DEV"
bad "--offset=5G"		-O --offset=5G "$DEV"

# simulated cards: spec errors, and a test that does not fit
bad au=4X			-a sim:au=4X
bad nosuchprofile		-a sim:nosuchprofile
bad --fat-nr=20			-f --fat-nr=20 --erasesize=4194304 sim:size=64M
# AU sizes whose regions overflow 64 bits (13 * 9932862193535912448 is
# 512 modulo 2^64)
bad --erasesize=9932862193535912448 -O --offset=0 --erasesize=9932862193535912448 sim:
# (an erase size past the device is refused first: these wrap past 2^64
# on the largest card there is, with erase sizes of 2^62)
HUGE=sim:size=9223372036854775296
bad --fat-nr=4			-f --fat-nr=4 --erasesize=4611686018427387904 $HUGE
bad --count=4			--erase --offset=0 --count=4 --erasesize=4611686018427387904 $HUGE
bad --scatter-order=10		-s --scatter-order=10 --blocksize=18014398509481984 sim:

# a device the user may not open, and one that is read-only
if ! is_root; then
	skip "badinput: unprivileged open (needs root to switch users)"
	skip "badinput: read-only loop device (needs root)"
	echo "# badinput: $ncase cases"
	exit 0
fi
cp "$SMALL" "$RO"
chmod 600 "$RO"
if command -v setpriv > /dev/null 2>&1; then
	FB_AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
elif command -v su > /dev/null 2>&1; then
	FB_AS=nobody_sh
	nobody_sh() {
		_cmd=
		for _a; do
			_cmd="$_cmd '$(printf '%s' "$_a" | sed "s/'/'\\\\''/g")'"
		done
		su nobody -s /bin/sh -c "$_cmd"
	}
fi
if [ -n "$FB_AS" ] && $FB_AS "$FB" --version > /dev/null 2>&1; then
	bad "$RO: "		-a "$RO"
	chmod 644 "$RO"
	bad "$RO: "		-O --offset=0 --erasesize=512 --blocksize=512 \
				--open-au-nr=1 "$RO"
	bad "$RO: "		--discard=0:512 "$RO"
	FB_AS=
else
	FB_AS=
	skip "badinput: unprivileged open (cannot run $FB as uid 65534:" \
	     "no setpriv/su, or the build directory is not reachable)"
fi

LOOP=$(losetup -r -f --show "$DEV" 2>/dev/null)
if [ -n "$LOOP" ] && [ -b "$LOOP" ]; then
	bad "$LOOP: "		-O --open-au-nr=1 --offset=0 "$LOOP"
	bad "$LOOP: "		--discard=0:4194304 "$LOOP"
	bad "$LOOP: "		-f --fat-nr=1 "$LOOP"
else
	LOOP=
	skip "badinput: read-only loop device (losetup -r failed: no loop" \
	     "devices in this environment?)"
fi
echo "# badinput: $ncase cases"
