#!/bin/sh
# Names are bytes: a file name with an escape sequence or bytes that are
# not UTF-8 never reaches the terminal raw, and keeps JSON valid.
. tests/lib.sh

N=$TMP/names
mkdir -p "$N"
ESC=$(printf '\033')

# an escape sequence in a device name, echoed in an error
bad="$N/$(printf 'red\033[31mcard\001')"
expect_status "names: a missing device with ESC in its name" 2 $FB -a "$bad"
if grep -q "$ESC" "$TMP/err"; then
	fail "names: the escape character was echoed raw"
else
	pass "names: no raw escape character in the message"
fi
expect_grep "names: shown as \\\\x1b" 'red\\x1b\[31mcard\\x01' "$TMP/err"

# a file name that is not UTF-8: the JSON document stays valid
img="$N/$(printf 'card\377\376.img')"
head -c $((4 << 20)) /dev/zero > "$img"
if $FB -a --json --count=1 --blocksize=512k "$img" > "$TMP/names.json" \
	2>"$TMP/err"; then
	if python3 -c '
import json, sys
doc = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
sys.exit(0 if "\ufffd" in doc["device"]["path"] else 1)
' "$TMP/names.json" 2>"$TMP/names.py"; then
		pass "names: JSON with a non-UTF-8 file name is valid UTF-8 JSON"
	else
		fail "names: invalid JSON for a non-UTF-8 name:" \
			"$(head -c 300 "$TMP/names.py")"
	fi
else
	fail "names: -a --json on $img: $(head -c 300 "$TMP/err")"
fi
rm -rf "$N" "$TMP/names.json" "$TMP/names.py"

# a message names only options the user typed: the defaulted offset of
# the write tests is past the end of a small card
expect_status "messages: -O on a card smaller than the default offset" 2 \
	$FB -O sim:size=8M
if grep -q -e "--offset=" "$TMP/err"; then
	fail "messages: names --offset=, never typed: $(head -c 300 "$TMP/err")"
else
	pass "messages: no --offset= the user did not type"
fi
expect_grep "messages: says where the tests start" \
	"start at 16MiB or 8 erase sizes (8 x 4MiB), whichever is larger: 33554432;" \
	"$TMP/err"
expect_status "messages: -O --erasesize=64M on 512M, default offset" 2 \
	$FB -O --erasesize=64M sim:size=512M
expect_grep "messages: the default offset is 8 erase sizes" \
	"(8 x 64MiB), whichever is larger: 536870912;" "$TMP/err"

# a long path: the reason after it survives (the name is shortened)
long=/tmp/$(printf '%0200d' 0)/$(printf '%0200d' 0)/$(printf '%0200d' 0)/x
for t in -a -O; do
	expect_status "messages: $t on a long missing path" 2 $FB $t "$long"
	expect_grep "messages: $t on a long path keeps the reason" \
		": No such file or directory$" "$TMP/err"
done

# a test that does not fit with values the user never typed: the message
# names the device and suggests the option, never "--OPTION=" as if typed
# untyped NAME OPTION CMD...
untyped() {
	_name=$1 _opt=$2
	shift 2
	expect_status "messages: $_name: exit 2" 2 "$@"
	if grep -q -e "--$_opt=" "$TMP/err"; then
		fail "messages: $_name: names --$_opt=, never typed:" \
			"$(head -c 300 "$TMP/err")"
	else
		pass "messages: $_name: no --$_opt= the user did not type"
	fi
}
untyped "-f on a card too small for 6 AUs" fat-nr $FB -f sim:size=16M
expect_grep "messages: -f suggests --fat-nr" \
	"sim:size=16M (16MiB) is too small for the defaults: 6 AUs of 4MiB need 24MiB; give a smaller --fat-nr$" \
	"$TMP/err"
untyped "-O on a card too small for 2 AUs" open-au-nr $FB -O sim:size=40M
untyped "--erase on a card too small for 8 discards" count \
	$FB --erase --offset=0 sim:size=10M
untyped "-s on a card too small for 512 reads" scatter-order \
	$FB -s sim:size=4M,au=1M
untyped "-i on a card too small for 1MiB reads" interval-order \
	$FB -i sim:size=4M,au=1M
untyped "-a on a card too small for 16KiB blocks" blocksize \
	$FB -a sim:size=64K,au=16K,page=4K
untyped "--blocksize above the default erase size" erasesize \
	$FB -O --blocksize=8M sim:
expect_grep "messages: --blocksize=8M says the default erase size" \
	"^flashbench: --blocksize=8M: larger than the erase size, 4MiB by default; give a larger --erasesize$" \
	"$TMP/err"
untyped "--erasesize below the default block size" blocksize \
	$FB -O --erasesize=8k sim:
# typed, the option is named as typed
expect_status "messages: a typed --open-au-nr range that does not fit" 2 \
	$FB -O --open-au-nr=1-3 sim:size=40M
expect_grep "messages: names --open-au-nr as typed" \
	"^flashbench: --open-au-nr=1-3: 3 AUs of 4MiB spaced 12 apart" \
	"$TMP/err"

# --info and names longer than the kernel takes: the reason stays on the
# line (it was cut off at a buffer's end)
expect_status "messages: --info on a long missing path" 2 $FB --info "$long"
expect_grep "messages: --info on a long path keeps the reason" \
	": No such file or directory$" "$TMP/err"
huge=/tmp$(printf '/%0200d' $(seq 21))
for t in "-a" "-a -o $huge/o" "-O --preserve=$huge/p" "--restore=$huge/p" \
	"--analyze=$huge" "-a --plot=$huge.svg"; do
	# shellcheck disable=SC2086
	expect_status "messages: $t, a name over 4095 bytes: exit 2" 2 \
		$FB $t "$huge"
	expect_grep "messages: $t, a name over 4095 bytes: says why" \
		"longer than 4095 bytes, the longest name the kernel takes$" \
		"$TMP/err"
done
# --preserve: a read that fails on a long device name keeps the reason
rep=$(for i in $(seq 40); do printf 'size=256M,'; done)
rm -f "$TMP/names.fbp"
expect_status "messages: --preserve on a long device name that fails" 1 \
	$FB -O --preserve="$TMP/names.fbp" "sim:${rep}fail=32M"
expect_grep "messages: --preserve keeps the reason after a long name" \
	"fail=32M: Input/output error; nothing was written$" "$TMP/err"
rm -f "$TMP/names.fbp"
