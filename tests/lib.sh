# Shared helpers for the shell tests; source from tests/t_*.sh.
# Every check prints one "PASS: name" or "FAIL: name: why" line.
FB=${FB:-./flashbench}
# The test build, with the environment hooks (FLASHBENCH_TEST_GATE,
# FLASHBENCH_SYSFS) the installed flashbench lacks: only for the tests
# that need them, so that everything else tests the product.
FBH=${FBH:-tests/flashbench-hooks}
TMP=tests/tmp
mkdir -p "$TMP"

pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; }
skip() { echo "SKIP: $*"; }

# expect_status NAME WANT CMD...: run CMD, compare exit status
expect_status() {
	_name=$1 _want=$2
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	_got=$?
	if [ "$_got" -eq "$_want" ]; then
		pass "$_name"
	else
		fail "$_name: exit $_got, want $_want; stderr: $(head -c 300 "$TMP/err")"
	fi
}

# expect_grep NAME PATTERN FILE
expect_grep() {
	if grep -q -e "$2" "$3"; then
		pass "$1"
	else
		fail "$1: /$2/ not in $3: $(head -c 300 "$3")"
	fi
}

# sum_of FILE: a fast checksum; it only has to see a change
sum_of() { cksum < "$1"; }

# unchanged NAME FILE SUM: FILE still has the checksum SUM
unchanged() {
	if [ "$(sum_of "$2")" = "$3" ]; then
		pass "$1: unchanged"
	else
		fail "$1: changed"
	fi
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# make_loop FILE: print a loop device backed by FILE (direct I/O), or fail
make_loop() {
	losetup --direct-io=on -f --show "$1" 2>/dev/null
}

# can_mount WHAT: root and the tools of the loop device and file system
# tests, or a "SKIP: WHAT (why)" line and false
can_mount() {
	if ! is_root; then
		skip "$1 (need root for losetup and mount)"
		return 1
	fi
	for _t in mkfs.ext4 fsck.ext4 sfdisk partx losetup; do
		if ! command -v $_t >/dev/null 2>&1; then
			skip "$1 ($_t not installed)"
			return 1
		fi
	done
}

# new_loop VAR IMAGE [-P]: attach IMAGE with direct I/O and set VAR to
# the device (empty if that failed).  LOOPS lists DEVICE:IMAGE of the
# devices attached, the latest first, so a cleanup detaches stacked ones
# before their base.
new_loop() {
	_l=$(losetup --direct-io=on $3 -f --show "$2" 2>/dev/null) || _l=
	[ -n "$_l" ] && LOOPS="$_l:$(readlink -f "$2") $LOOPS"
	eval "$1=\$_l"
}

# Loop devices are shared by every test on the machine: once one of ours
# is detached, its name may go to another test's image at any moment, so
# a device is detached (or its swap turned off) only while still on our
# image, never by name alone.

# ours DEVICE IMAGE: DEVICE is attached to IMAGE
ours() { [ "$(losetup -nO BACK-FILE "$1" 2>/dev/null)" = "$2" ]; }

# detach_loop DEVICE: detach a device new_loop attached, if still ours,
# and forget it
detach_loop() {
	_keep=
	for _e in $LOOPS; do
		if [ "${_e%%:*}" = "$1" ]; then
			ours "$1" "${_e#*:}" && losetup -d "$1" 2>/dev/null
		else
			_keep="$_keep $_e"
		fi
	done
	LOOPS=$_keep
}

# detach_loops: all of them, stacked ones first (for a cleanup)
detach_loops() {
	for _e in $LOOPS; do
		detach_loop "${_e%%:*}"
	done
}

# fill MNT: three files (12 MiB), their checksums in MNT.sum
fill() {
	for _n in 1 2 3; do
		head -c $((_n * 2 << 20)) /dev/urandom > "$1/f$_n"
	done
	(cd "$1" && sha256sum f1 f2 f3) > "$1.sum"
	sync
}

# intact NAME DEV MNT: umount, fsck clean, the files fill() left unchanged
intact() {
	umount "$3"
	if fsck.ext4 -n -f "$2" >"$TMP/fsck" 2>&1; then
		pass "$1: fsck.ext4 -n -f clean afterwards"
	else
		fail "$1: fsck.ext4 found errors: $(tail -c 300 "$TMP/fsck")"
	fi
	mount -o ro "$2" "$3" &&
		if (cd "$3" && sha256sum -c --quiet) < "$3.sum"; then
			pass "$1: files unchanged"
		else
			fail "$1: file checksums differ"
		fi
	umount "$3"
}

# start_held OUT ERR CMD...: CMD in the background ($_pid), held by the
# test gate (FLASHBENCH_TEST_GATE) at each point it announces until
# release; so a signal lands where the test says, whatever the speed of
# the machine.  CMD is the test build ($FBH): only it has the gate.  The
# files are emptied first: a stale line must not pass
# for the new run's announcement.  G: the FIFO's path, set by the test.
start_held() {
	_o=$1 _e=$2
	shift 2
	rm -f "$G"
	mkfifo "$G"
	exec 9<>"$G"
	[ -p "$_o" ] || : >"$_o"
	: >"$_e"
	FLASHBENCH_TEST_GATE=$G "$@" >"$_o" 2>"$_e" 9>&- &
	_pid=$!
}

# release: the held run goes on to its end
release() { exec 9>&-; }

# running: the held run has not ended (a zombie has)
running() {
	case $(cut -d' ' -f3 "/proc/$_pid/stat" 2>/dev/null) in
	'' | Z) return 1 ;;
	esac
}

# announced FILE PATTERN: wait until the held run has written a line
# matching PATTERN to FILE.  The bound only keeps a broken run from
# hanging the suite; a working one is held there, however slow.
announced() {
	_i=0
	until grep -q -e "$2" "$1" 2>/dev/null; do
		if ! running && ! grep -q -e "$2" "$1" 2>/dev/null; then
			fail "the run ended without /$2/ in $1:" \
				"$(head -c 300 "$_e")"
			return 1
		fi
		if [ $_i -ge 1200 ]; then
			fail "no /$2/ in $1 after 60 s: $(head -c 300 "$1")"
			return 1
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
}

# A 32-bit x86 build that binfmt_misc hands to qemu-user (a kernel
# without IA32 emulation, as .ci/run sets up) reports qemu's peak RSS,
# which grows with the code it translated: 190 MiB for a scatter of 2^20 rows.
emulated() {
	[ "$(od -An -tu1 -j4 -N1 "$FB" | tr -d ' ')" = 1 ] &&
		[ "$(od -An -tu2 -j18 -N2 "$FB" | tr -d ' ')" = 3 ] &&
		grep -qsx enabled /proc/sys/fs/binfmt_misc/qemu-i386
}

# peak NAME MAX_KIB CMD...: CMD exits 0 with a peak RSS below MAX_KIB;
# its output is left in $TMP/peak.out and $TMP/peak.err
peak() {
	_name=$1 _max=$2
	shift 2
	if [ ! -x /usr/bin/time ]; then
		skip "$_name (no /usr/bin/time to measure memory)"
		return
	fi
	if emulated; then
		if "$@" > "$TMP/peak.out" 2> "$TMP/peak.err"; then
			skip "$_name (qemu-user runs this build: the RSS is qemu's)"
		else
			fail "$_name: exit $?: $(head -c 300 "$TMP/peak.err")"
		fi
		return
	fi
	/usr/bin/time -f %M -o "$TMP/peak.rss" "$@" > "$TMP/peak.out" \
		2> "$TMP/peak.err"
	_rc=$?
	_kib=$(tail -n 1 "$TMP/peak.rss")
	if [ "$_rc" -ne 0 ]; then
		fail "$_name: exit $_rc: $(head -c 300 "$TMP/peak.err")"
	elif [ "$_kib" -ge "$_max" ]; then
		fail "$_name: peak RSS $_kib KiB, want < $_max KiB"
	else
		pass "$_name ($_kib KiB)"
	fi
}
