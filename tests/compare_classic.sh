#!/bin/sh
# Not part of make check (the classic's 512-byte writes take minutes);
# CI runs it after installing the flashbench package.
# The classic command lines from the seed reports, run with the classic
# binary (Debian package flashbench, version 62) and with this tool on
# the same loop device (root) or regular file, must print the same
# layout: the same rows in the same order, the same fields, the same
# padding and separators (tests/layout.py; measured values differ).
#
# Intended differences, not compared here (doc/tests.md, "Layouts"):
# - a value never gets cut to 7 characters ("-12097n", "1.417G/"): a
#   wider one widens its field; negative times keep their unit;
# - -a: places that do not fit are taken again rather than wrapped modulo
#   the device size (the classic read past the end and off the boundary);
# - -s prints on stdout without -o (the classic printed only to -o FILE,
#   and failed with "internal error" below --scatter-order=9);
# - -i: the classic's default order printed "-nan MB/s, -922337 access
#   time" and no rows, this one 12 rows and the fit; "overhead" is an
#   integer of ns; a fit whose time falls with size is held flat ("inf
#   MB/s" and the mean time) where the classic printed a negative rate;
# - sizes take suffixes ("--erasesize=4M": the classic's atoi made it 4);
# - seed lines needing more than this 512 MiB device run with the erase
#   size scaled down (64 MiB -> 1 MiB) or fewer open AUs, and
#   --count=1000 as --count=100;
# - the default --offset of the write tests is 16MiB or 8 erase sizes,
#   whichever is larger (the classic: 16MiB rounded up to the erase size),
#   so -O with 64 MiB AUs on this device takes --offset=64M.
. tests/lib.sh

CLASSIC=${CLASSIC:-/usr/bin/flashbench}
if [ ! -x "$CLASSIC" ]; then
	skip "classic comparison (no $CLASSIC: install the flashbench package)"
	exit 0
fi
IMG=$TMP/compare.img
rm -f "$IMG"
truncate -s 512M "$IMG"
DEV=$IMG L=
if is_root && L=$(make_loop "$IMG") && [ -n "$L" ]; then
	DEV=$L
else
	skip "classic comparison on a loop device (needs root); on a file"
fi
cleanup() { [ -n "$L" ] && losetup -d "$L"; rm -f "$IMG"; }
trap cleanup EXIT

# same NAME ARGS...: both tools, same layout (ARGS: @ stands for DEV);
# a pass shows the first row's layout (tests/layout.py: V a value, <N> a
# field of N characters, _ one space, '\t' a tab)
same() {
	_name=$1
	shift
	_args=$(echo "$*" | sed "s|@|$DEV|g")
	# shellcheck disable=SC2086
	"$CLASSIC" $_args 0<>/dev/null >"$TMP/cl.out" 2>"$TMP/cl.err"
	# shellcheck disable=SC2086
	$FB $_args >"$TMP/fb.out" 2>"$TMP/fb.err"
	_st=$?
	python3 tests/layout.py "$TMP/cl.out" >"$TMP/cl.lay"
	python3 tests/layout.py "$TMP/fb.out" >"$TMP/fb.lay"
	if [ $_st -ne 0 ]; then
		fail "classic layout: $_name: exit $_st: $(head -c 200 "$TMP/fb.err")"
	elif [ ! -s "$TMP/cl.lay" ]; then
		fail "classic layout: $_name: the classic printed nothing"
	elif cmp -s "$TMP/cl.lay" "$TMP/fb.lay"; then
		pass "classic layout: $_name: $(wc -l < "$TMP/fb.out") rows" \
			"alike, the first: $(head -n 1 "$TMP/fb.lay")"
	else
		fail "classic layout: $_name: $(diff "$TMP/cl.lay" "$TMP/fb.lay" |
			head -n 4 | tr '\n' '|')"
	fi
}

same "-a --blocksize=1024" -a @ --blocksize=1024
same "-a -b 1024 before the device" -a -b 1024 @
same "-a --blocksize 1024 (space)" -a @ --blocksize 1024
same "-a --blocksize=\$[3*1024]" -a @ --blocksize=3072
same "-a --count=100 --blocksize=1024" -a @ --count=100 --blocksize=1024
same "-a --blocksize=10240 --count=1000 (as 100)" -a --blocksize=10240 @ \
	--count=100
same "-O --open-au-nr=1" -O --open-au-nr=1 @
same "-O --open-au-nr=10" -O --open-au-nr=10 @
same "--open-au, options after the device" @ --open-au --blocksize=16384 \
	--erasesize=4194304 --open-au-nr=2
same "--open-au --random --open-au-nr=1" @ --open-au --blocksize=16384 \
	--erasesize=4194304 --random --open-au-nr=1
same "--offset=\$[32*1024*1024] --blocksize=512" --open-au --open-au-nr=1 \
	--erasesize=4194304 --blocksize=512 @ --offset=33554432
same "--erasesize=\$[2*512*1024] --open-au-nr=3 --random" --open-au \
	--erasesize=1048576 --blocksize=8192 @ --open-au-nr=3 --random
same "--open-au-nr=5 --blocksize=512 --erasesize=\$[1024*1024]" --open-au \
	--open-au-nr=5 @ --blocksize=512 --erasesize=1048576
same "-O --erasesize=\$[10240*1024] (2.5MiB, 1.25MiB rows)" --open-au \
	--open-au-nr=1 @ --blocksize=40960 --erasesize=10485760
same "--erasesize=\$[3*4096*1024] --blocksize=\$[3*8192] (12MiB, 1.5MiB rows)" \
	@ --open-au --blocksize=24576 --erasesize=12582912 --open-au-nr=1
same "--erasesize=\$[8*1024*1024] --blocksize=\$[4*1024*1024]: two rows" \
	--erasesize=8388608 --open-au --open-au-nr=1 @ --blocksize=4194304
same "--erasesize=\$[8*1024*1024] --random --open-au-nr=1" @ --open-au \
	--blocksize=16384 --erasesize=8388608 --random --open-au-nr=1
same "-O --erasesize=\$[64*1024*1024] --random (--offset: small device)" \
	-O --erasesize=67108864 @ --open-au-nr=1 --random --offset=67108864
same "-f --erasesize=\$[4*1024*1024]" @ -f --erasesize=4194304
same "--findfat --random --erasesize=524288" --findfat --random \
	--erasesize=524288 @
same "--findfat --fat-nr=10 (64 MiB AUs as 1 MiB)" --findfat --fat-nr=10 \
	--erasesize=1048576 --blocksize=65536 @
same "--findfat --fat-nr=4 --blocksize=\$[4*1024] --random" \
	--erasesize=8388608 --findfat --fat-nr=4 @ --blocksize=4096 --random
same "-i --interval-order=5" -i --interval-order=5 @
same "-O -a -f: the classic's order" -O -a -f --erasesize=1048576 \
	--blocksize=262144 --open-au-nr=1 --count=1 @

# -s: the classic writes only to -o FILE; both sorted, same offsets
"$CLASSIC" -s -o "$TMP/cl.out" "$DEV" 0<>/dev/null >/dev/null 2>&1
$FB -s -o "$TMP/fb.out" "$DEV" 2>/dev/null
python3 tests/layout.py "$TMP/cl.out" >"$TMP/cl.lay"
python3 tests/layout.py "$TMP/fb.out" >"$TMP/fb.lay"
if [ -s "$TMP/cl.lay" ] && cmp -s "$TMP/cl.lay" "$TMP/fb.lay" &&
   [ "$(cut -f1 "$TMP/cl.out")" = "$(cut -f1 "$TMP/fb.out")" ]; then
	pass "classic layout: -s -o FILE: the same offsets in the same" \
		"order, the first row: $(head -n 1 "$TMP/fb.lay")"
else
	fail "classic layout: -s -o FILE: $(diff "$TMP/cl.out" "$TMP/fb.out" |
		head -n 4 | tr '\n' '|')"
fi
rm -f "$TMP/cl.out" "$TMP/fb.out" "$TMP/cl.lay" "$TMP/fb.lay" \
	"$TMP/cl.err" "$TMP/fb.err"
