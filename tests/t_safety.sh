#!/bin/sh
# Safety: write tests refuse a mounted or claimed device before any I/O
# and name what is in use; --force; --preserve puts the overwritten bytes
# back after a normal end, ^C and (with --restore) SIGKILL; I/O errors and
# vanished devices end with a clear line.
. tests/lib.sh

S=$TMP/safety
mkdir -p "$S"
F=$S/file.img
P=$S/keep.fbp
MNT=$(pwd)/$S/mnt
LOOPS=
cleanup() {
	umount "$MNT" 2>/dev/null
	umount "$S/ro" 2>/dev/null
	swapoff "$S/swap" 2>/dev/null
	# a swap area left on our partition by a run stopped mid-way
	[ -n "$L3" ] && ours "$L3" "$(readlink -f "$I")" &&
		swapoff "${L3}p2" 2>/dev/null
	detach_loops
	rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# A write test of a few rows: the test gate holds it after each one, so
# it need not be long to be signalled mid-way.
LONG="-O --blocksize=256k --erasesize=1M --open-au-nr=2"
ROW='^[0-9.]*[KM]iB'

sum_of() { sha256sum < "$1"; }

G=$S/gate

# signal_held SIG: send SIG to the held run, let it go on, collect its
# exit status in $_st
signal_held() {
	kill -"$1" $_pid 2>/dev/null
	release
	wait $_pid 2>/dev/null
	_st=$?
}

# same NAME DEV SUM: DEV is byte-identical to SUM
same() {
	if [ "$(sum_of "$2")" = "$3" ]; then
		pass "$1: byte-identical afterwards"
	else
		fail "$1: contents changed"
	fi
}

# roundtrip NAME DEV TEST-ARGS...: --preserve after a normal end
roundtrip() {
	_name=$1 _dev=$2
	shift 2
	_sum=$(sum_of "$_dev")
	rm -f "$P"
	expect_status "$_name: --preserve runs" 0 $FB "$@" --preserve="$P" \
		"$_dev"
	expect_grep "$_name: says it restored and verified" \
		"^flashbench: restored .* from $P, checksums verified$" \
		"$TMP/err"
	if [ -e "$P" ]; then
		fail "$_name: $P left behind after a clean run"
	else
		pass "$_name: file removed after a verified restore"
	fi
	same "$_name" "$_dev" "$_sum"
}

# signum NAME: the number of signal NAME (HUP: 1)
signum() {
	_n=1
	while [ $_n -lt 32 ] && [ "$(kill -l $_n)" != "$1" ]; do
		_n=$((_n + 1))
	done
	echo $_n
}

# stopped NAME STATUS: the held run of $TMP/out, $TMP/err ended with
# STATUS, its rows printed and the data put back; $P kept
stopped() {
	if [ $_st -eq "$2" ]; then
		pass "$1: exit $2"
	else
		fail "$1: exit $_st, want $2: $(head -c 300 "$TMP/err")"
	fi
	expect_grep "$1: rows so far printed" "$ROW" "$TMP/out"
	expect_grep "$1: restored and verified before exit" \
		"^flashbench: restored .*checksums verified; $P kept$" \
		"$TMP/err"
}

# interrupted NAME DEV [SIG]: --preserve, SIG (INT) after the first row
interrupted() {
	_sig=${3:-INT}
	_sum=$(sum_of "$2")
	rm -f "$P"
	start_held "$TMP/out" "$TMP/err" $FBH $LONG --preserve="$P" "$2"
	announced "$TMP/out" "$ROW" || { signal_held KILL; return; }
	signal_held $_sig
	stopped "$1" $((128 + $(signum $_sig)))
	expect_grep "$1: names the signal" \
		"^flashbench: interrupted by SIG$_sig after [1-9][0-9]* rows$" \
		"$TMP/err"
	same "$1" "$2" "$_sum"
	rm -f "$P"
}

# headed NAME DEV: as "| head -n 1": the reader of the rows goes away
# after the first one; the next row meets a broken pipe
headed() {
	_sum=$(sum_of "$2")
	rm -f "$P" "$S/rows"
	mkfifo "$S/rows"
	start_held "$S/rows" "$TMP/err" $FBH $LONG --preserve="$P" "$2"
	head -n 1 < "$S/rows" > "$TMP/out"
	release
	wait $_pid
	_st=$?
	stopped "$1" 141
	expect_grep "$1: says the pipe broke" "SIGPIPE" "$TMP/err"
	same "$1" "$2" "$_sum"
	rm -f "$P" "$S/rows"
}

# killed NAME DEV [SIG]: --preserve, SIGKILL after the first row, then
# --restore (with SIG sent while it runs)
killed() {
	_sum=$(sum_of "$2")
	rm -f "$P"
	start_held "$TMP/out" "$TMP/err" $FBH $LONG --preserve="$P" "$2"
	announced "$TMP/out" "$ROW" || { signal_held KILL; return; }
	signal_held KILL
	if [ "$(sum_of "$2")" != "$_sum" ]; then
		pass "$1: SIGKILL left the device changed"
	else
		fail "$1: the device is unchanged after a row was measured"
	fi
	if [ -n "${3:-}" ]; then
		start_held "$TMP/out" "$TMP/err" $FBH --restore="$P" "$2"
		announced "$TMP/err" "^flashbench: --restore=.*: putting it back"
		signal_held "$3"
		if [ $_st -eq $((128 + $(signum "$3"))) ]; then
			pass "$1: --restore: exit 128+SIG$3"
		else
			fail "$1: --restore: exit $_st: $(head -c 300 "$TMP/err")"
		fi
		expect_grep "$1: --restore says the signal waited" \
			"^flashbench: SIG$3 came during --restore, which was finished first$" \
			"$TMP/err"
	else
		expect_status "$1: --restore" 0 $FB --restore="$P" "$2"
	fi
	expect_grep "$1: --restore verifies" "checksums verified" "$TMP/err"
	same "$1 + --restore" "$2" "$_sum"
	rm -f "$P"
}

# preserve_refusals NAME DEV OTHER: --restore of DEV's file onto OTHER
preserve_refusals() {
	rm -f "$P"
	# a clean run removes the file: keep one by interrupting a run
	start_held "$TMP/out2" "$TMP/err2" $FBH $LONG --preserve="$P" "$2"
	announced "$TMP/out2" "$ROW"
	signal_held INT
	if [ ! -e "$P" ]; then
		fail "$1: no preserve file kept after ^C"
		return
	fi
	_osum=$(sum_of "$3")
	expect_status "$1: --restore onto another device is refused" 2 \
		$FB --restore="$P" "$3"
	expect_grep "$1: names the device it was made for" \
		"made for .*, not " "$TMP/err"
	same "$1: the other device" "$3" "$_osum"
	expect_status "$1: --preserve onto an existing file is refused" 2 \
		$FB $LONG --preserve="$P" "$2"
	expect_grep "$1: says why" "file exists" "$TMP/err"
	expect_status "$1: --restore with a test is refused" 2 \
		$FB --restore="$P" -O "$2"
	# flip the bits of the last data byte (writing a constant left the
	# file intact when the random data had it there, 1 run in 128): the
	# file's own checksum catches it
	_size=$(stat -c %s "$P")
	_b=$(od -An -tu1 -j $((_size - 1)) -N 1 "$P" | tr -d ' ')
	# shellcheck disable=SC2059
	printf "$(printf '\\%03o' $((255 - _b)))" |
		dd of="$P" bs=1 seek=$((_size - 1)) conv=notrunc 2>/dev/null
	if [ "$(od -An -tu1 -j $((_size - 1)) -N 1 "$P" | tr -d ' ')" -eq \
	     $((255 - _b)) ]; then
		pass "$1: the last data byte flipped"
	else
		fail "$1: could not flip the last data byte of $P"
	fi
	expect_status "$1: --restore of a corrupt file fails" 1 \
		$FB --restore="$P" "$2"
	expect_grep "$1: says the file is corrupt, nothing written" \
		"the file is corrupt; the device was not written" "$TMP/err"
	rm -f "$P"
}

# --- regular files: no root needed
head -c $((192 << 20)) /dev/urandom > "$F"
roundtrip "file: -O" "$F" -O --blocksize=256k --erasesize=1M --open-au-nr=3
roundtrip "file: -f" "$F" -f --blocksize=1M --erasesize=1M --fat-nr=3
roundtrip "file: --discard" "$F" --discard=1M:2M
# signals: a smaller file, as each check reads it whole
FS=$S/small.img
head -c $((48 << 20)) /dev/urandom > "$FS"
interrupted "file: ^C" "$FS"
# an ssh drop, ^\, kill, a broken pipe: all put the data back
for sig in HUP QUIT TERM PIPE USR1; do
	interrupted "file: SIG$sig" "$FS" $sig
done
headed "file: | head -n 1" "$FS"
killed "file: SIGKILL" "$FS"
killed "file: SIGKILL, SIGTERM during --restore" "$FS" TERM
killed "file: SIGKILL, SIGHUP during --restore" "$FS" HUP
rm -f "$FS"
head -c $((128 << 20)) /dev/urandom > "$S/other.img"
preserve_refusals "file" "$F" "$S/other.img"
rm -f "$S/other.img"

expect_status "file: --preserve with a read-only test is refused" 2 \
	$FB -a --preserve="$P" "$F"
printf 'FBPRESRV garbage' > "$P"
expect_status "file: --restore of a foreign file is refused" 2 \
	$FB --restore="$P" "$F"
expect_grep "file: says what it is" "not a flashbench preserve file" \
	"$TMP/err"
rm -f "$P"
expect_status "file: --restore of a missing file" 2 \
	$FB --restore="$P" "$F"

# refused_early NAME CMD...: exit 2 before the announcement, $F unchanged
refused_early() {
	_what=$1
	shift
	_sum=$(sum_of "$F")
	expect_status "$_what: refused, exit 2" 2 "$@"
	if grep -q "will overwrite" "$TMP/err"; then
		fail "$_what: refused only after the announcement"
	else
		pass "$_what: refused before the announcement"
	fi
	same "$_what" "$F" "$_sum"
}

# a --preserve file that cannot be made is a usage error, before any I/O
W="-O --blocksize=1M --erasesize=1M --open-au-nr=1"
refused_early "file: --preserve= (empty)" $FB $W --preserve= "$F"
expect_grep "file: --preserve= says no file" "no file named" "$TMP/err"
refused_early "file: --preserve same as --out" \
	$FB $W --preserve="$S/same" -o "$S/./same" "$F"
expect_grep "file: --preserve same as --out says so" "also --out" \
	"$TMP/err"
rm -f "$S/same"
mkdir -p "$S/ro"
if is_root; then
	mount -t tmpfs -o ro tmpfs "$S/ro" 2>/dev/null
else
	chmod 555 "$S/ro"
fi
if touch "$S/ro/probe" 2>/dev/null; then
	skip "file: --preserve in a read-only directory (it takes files here)"
	rm -f "$S/ro/probe"
else
	refused_early "file: --preserve in a read-only directory" \
		$FB $W --preserve="$S/ro/keep.fbp" "$F"
	expect_grep "file: --preserve in a read-only directory says why" \
		"cannot create it" "$TMP/err"
fi
umount "$S/ro" 2>/dev/null
chmod 755 "$S/ro"

# an active swap file: the kernel would refuse the first write
if is_root && head -c $((32 << 20)) /dev/zero > "$S/swap" &&
	chmod 600 "$S/swap" && mkswap "$S/swap" >/dev/null 2>&1 &&
	swapon "$S/swap" 2>/dev/null; then
	_keep=$F
	F=$S/swap
	refused_early "swap file: -O" $FB $W "$F"
	expect_grep "swap file: says so" "is an active swap file" "$TMP/err"
	refused_early "swap file: -O --force" $FB $W --force "$F"
	F=$_keep
	swapoff "$S/swap"
else
	skip "swap file (needs root and swapon)"
fi
rm -f "$S/swap"

# --- the simulated card: fault injection
if $FB -a --count=1 sim: >/dev/null 2>&1; then
	# the default -O region starts at 8 erase sizes: 32 MiB
	expect_status "sim: fail= ends with an I/O error" 1 \
		$FB -O sim:fail=32M
	expect_grep "sim: fail= names operation, length, offset, errno" \
		'^flashbench: write [0-9]* bytes at offset [0-9]* of sim:fail=32M: Input/output error' \
		"$TMP/err"
	expect_status "sim: vanish= ends with an error" 1 \
		$FB -O sim:vanish=10
	expect_grep "sim: vanish= says the device vanished" \
		'device vanished' "$TMP/err"
else
	skip "sim fault injection (the simulated card is not built in)"
fi

# --- loop devices
can_mount "loop device safety tests" || exit 0
mkdir -p "$MNT"

I=$S/fs.img
head -c $((192 << 20)) /dev/zero > "$I"
new_loop L "$I"
if [ -z "$L" ]; then
	skip "loop device safety tests (losetup failed: no loop support)"
	exit 0
fi

# ext4 with some files, mounted: every write test is refused
mkfs.ext4 -q -F "$L" && mount "$L" "$MNT" || {
	fail "loop: mkfs.ext4 and mount"
	exit 0
}
fill "$MNT"
for t in "-O" "-f" "--erase" "--discard=0:1M"; do
	expect_status "mounted: $t is refused" 2 $FB $t "$L"
	expect_grep "mounted: $t names the mount" \
		"^flashbench: $L: in use: $L is mounted on $MNT " "$TMP/err"
	# O_EXCL refuses a mounted device whatever --force says
	expect_grep "mounted: $t: the hint does not offer --force" \
		"(the kernel holds the device while it is: --force cannot override that)$" \
		"$TMP/err"
done
expect_status "mounted: --force still refused (O_EXCL)" 2 \
	$FB -O --force "$L"
expect_status "mounted: --restore is refused" 2 $FB --restore="$P" "$L"
expect_status "mounted: read-only -a still runs" 0 $FB -a --count=1 "$L"
intact "mounted" "$L" "$MNT"

# unmounted: --force gets past the check, which has nothing to say anyway
expect_status "unmounted: -O --force runs" 0 $FB -O --force --erasesize=1M "$L"

# preserve round trips on the loop device
# random contents, written through the device so no stale cache remains
dd if=/dev/urandom of="$L" bs=1M count=192 oflag=direct 2>/dev/null
roundtrip "loop: -O" "$L" -O --blocksize=256k --erasesize=1M --open-au-nr=3
roundtrip "loop: -f" "$L" -f --blocksize=1M --erasesize=1M --fat-nr=3
interrupted "loop: ^C" "$L"
killed "loop: SIGKILL" "$L"
I2=$S/other.img
head -c $((128 << 20)) /dev/zero > "$I2"
new_loop L2 "$I2"
preserve_refusals "loop" "$L" "$L2"

# a partition table: a mounted partition makes the whole disk refused
printf 'label: dos\nstart=2048, size=65536, type=83\nstart=67584, type=82\n' |
	sfdisk -q "$I" >/dev/null 2>&1
new_loop L3 "$I" -P
# the kernel may not scan partitions at attach time; partx asks again
# (synchronously); udev may still be making the nodes
[ -b "${L3}p2" ] || partx -a "$L3" 2>/dev/null
command -v udevadm >/dev/null 2>&1 && udevadm settle 2>/dev/null
if [ -b "${L3}p1" ] && [ -b "${L3}p2" ] && mkfs.ext4 -q -F "${L3}p1" &&
	mount "${L3}p1" "$MNT"; then
	expect_status "partition mounted: whole disk refused" 2 \
		$FB -O --erasesize=1M "$L3"
	expect_grep "partition mounted: names the partition" \
		"^flashbench: $L3: in use: ${L3}p1 is mounted on $MNT" \
		"$TMP/err"
	expect_status "partition mounted: the other partition is not" 0 \
		$FB --discard=0:1M "${L3}p2"
	umount "$MNT"
	if mkswap "${L3}p2" >/dev/null 2>&1 && swapon "${L3}p2" 2>/dev/null
	then
		expect_status "swap partition: whole disk refused" 2 \
			$FB -f --erasesize=1M "$L3"
		expect_grep "swap partition: says so" \
			"${L3}p2 is an active swap area" "$TMP/err"
		swapoff "${L3}p2"
	else
		skip "swap partition (swapon not permitted here)"
	fi
else
	skip "partition tests (no partition devices for $L3)"
fi
detach_loop "$L3"

# a loop device detached while a test runs: held after its first row
new_loop L4 "$I2"
start_held "$TMP/out" "$TMP/err" $FBH -a "$L4"
if announced "$TMP/out" '^align '; then
	detach_loop "$L4"
	release
	wait $_pid
	st=$?
	if [ $st -eq 0 ]; then
		skip "detached loop device (detach is deferred until close here)"
	elif [ $st -eq 1 ] && grep -q '^flashbench: read .* bytes at offset' \
		"$TMP/err"; then
		pass "detached loop device: clear message, exit 1"
	else
		fail "detached loop device: exit $st: $(head -c 300 "$TMP/err")"
	fi
else
	signal_held KILL
fi
