# Shared helpers for the shell tests; source from tests/t_*.sh.
# Every check prints one "PASS: name" or "FAIL: name: why" line.
FB=${FB:-./flashbench}
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

is_root() { [ "$(id -u)" -eq 0 ]; }

# make_loop FILE: print a loop device backed by FILE (direct I/O), or fail
make_loop() {
	losetup --direct-io=on -f --show "$1" 2>/dev/null
}
