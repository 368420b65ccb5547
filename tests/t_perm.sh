#!/bin/sh
# A device we may not open: the refusal says how to get at it (root, or
# access to the device), in one line, exit 2.
. tests/lib.sh

D=$TMP/perm
trap 'rm -rf "$D"' EXIT
trap 'exit 1' INT TERM

if ! is_root || ! command -v setpriv >/dev/null 2>&1 ||
	! id nobody >/dev/null 2>&1; then
	skip "permission hint (need root, setpriv and user nobody)"
	exit 0
fi
rm -rf "$D"
mkdir -p "$D"
head -c 4194304 /dev/zero > "$D/img"
as_nobody() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"
}

# hinted NAME ACCESS: the last run names ACCESS access to the image
hinted() {
	if [ "$(wc -l < "$TMP/err")" -eq 1 ]; then
		expect_grep "$1: says how" \
			"(run as root, or get $2 access to $D/img)$" "$TMP/err"
	else
		fail "$1: want one line: $(head -c 300 "$TMP/err")"
	fi
}

chmod 600 "$D/img"
expect_status "permission hint: read test, no access" 2 \
	as_nobody $FB -a "$D/img"
hinted "permission hint: read test, no access" read
expect_status "permission hint: write test, no access" 2 \
	as_nobody $FB -O "$D/img"
hinted "permission hint: write test, no access" write
chmod 644 "$D/img"
expect_status "permission hint: write test, read-only access" 2 \
	as_nobody $FB -O "$D/img"
hinted "permission hint: write test, read-only access" write
