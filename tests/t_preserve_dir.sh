#!/bin/sh
# --preserve where no file can be made (a kernel file system, a read-only
# mount, a missing directory): refused before the announcement and before
# any I/O, in one line naming --preserve and the path, exit 2.
. tests/lib.sh

D=$TMP/preserve_dir
RO=$D/ro
trap 'mountpoint -q "$RO" && umount "$RO"; rm -rf "$D"' EXIT
trap 'exit 1' INT TERM

rm -rf "$D"
mkdir -p "$D"
head -c 16777216 /dev/zero | tr '\0' 'x' > "$D/img"
touch -d @1000000000 "$D/img"
W="-O --offset=8M --erasesize=1M --blocksize=256k --open-au-nr=1"

# refused NAME PATH DEVICE [OPTIONS...]: one line naming --preserve=PATH,
# exit 2, nothing announced
refused() {
	_n=$1 _p=$2 _dev=$3
	shift 3
	expect_status "$_n: exit 2" 2 $FB "$@" --preserve="$_p" "$_dev"
	if [ "$(wc -l < "$TMP/err")" -eq 1 ] &&
		grep -q -e "^flashbench: --preserve=$_p: " "$TMP/err"; then
		pass "$_n: one line naming --preserve and the path"
	else
		fail "$_n: stderr: $(head -c 300 "$TMP/err")"
	fi
	if [ -s "$TMP/out" ]; then
		fail "$_n: ran: $(head -c 300 "$TMP/out")"
	else
		pass "$_n: nothing run"
	fi
}

# on_image NAME PATH: refused on the image, which keeps content and mtime
on_image() {
	_sum=$(sum_of "$D/img")
	refused "$1 (file)" "$2" "$D/img" $W
	unchanged "$1 (file)" "$D/img" "$_sum"
	if [ "$(stat -c %Y "$D/img")" = 1000000000 ]; then
		pass "$1 (file): mtime unchanged"
	else
		fail "$1 (file): mtime changed"
	fi
	refused "$1 (sim)" "$2" sim: $W
}

on_image "/proc" /proc/fb-preserve-test.fbp
on_image "/sys" /sys/fb-preserve-test.fbp
on_image "missing directory" "$D/none/x.fbp"
refused "survey, /proc" /proc/fb-preserve-test.fbp sim: --survey --yes

if is_root && mkdir -p "$RO" &&
	mount -t tmpfs -o ro,size=1m fb-preserve-test "$RO" 2>/dev/null; then
	on_image "read-only mount" "$RO/x.fbp"
else
	skip "read-only mount (need root and a tmpfs mount)"
fi
