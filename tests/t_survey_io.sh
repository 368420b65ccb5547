#!/bin/sh
# A device error during a survey reads as a single test's does: which
# I/O, on which device, why, and the hint when the device vanished; on
# stderr and in the report's "# stopped:" line, exit status 1.
. tests/lib.sh
T=$TMP/survey_io
rm -rf "$T"
mkdir -p "$T"

# survey_fails NAME DEVICE PATTERN: the survey of DEVICE stops with
# PATTERN, also what -a says of the same device
survey_fails() {
	$FB --survey "$2" > "$T/out" 2> "$T/err"
	st=$?
	[ $st -eq 1 ] && pass "$1: exit status 1" ||
		fail "$1: exit $st, want 1: $(tail -c 300 "$T/err")"
	expect_grep "$1: stderr" "^flashbench: survey stopped: $3" "$T/err"
	expect_grep "$1: the report" "^# stopped: $3" "$T/out"
	$FB -a "$2" > /dev/null 2> "$T/err"
	expect_grep "$1: as -a words it" "^flashbench: .*$3" "$T/err"
}

# an EIO where the first alignment step reads (the 1 KiB before 4 GiB)
D=sim:sd08g,fail=4294966272
survey_fails "a failing read" "$D" \
	"read [0-9]* bytes at offset [0-9]* of $D: Input/output error\$"
D=sim:sd08g,vanish=3
survey_fails "a vanished device" "$D" \
	"read [0-9]* bytes at offset [0-9]* of $D: No such device (the device vanished: removed or detached)\$"
rm -rf "$T"
