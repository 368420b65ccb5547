#!/bin/sh
# Runs every unit test binary and every tests/t_*.sh script; each prints
# "PASS: ...", "FAIL: ..." or "SKIP: ... (reason)" lines.  Ends with the
# count of skipped checks and then the "N passed, N failed" line CI reads.
cd "$(dirname "$0")/.." || exit 1
out=tests/tmp/results
one=tests/tmp/run-one
mkdir -p tests/tmp
: > "$out"

# run_one NAME CMD...: its lines go to the results and, but for passes, to
# the screen as they come.  A test that ends with a nonzero status without
# a FAIL line (a crash, a sanitizer's abort, a script that died) is a
# failure: the checks it never reached must not pass for absent.
run_one() {
	_t=$1
	shift
	echo "== $_t"
	{ "$@" 2>&1; echo $? > "$one.status"; } | tee "$one" |
		grep -v '^PASS: '
	cat "$one" >> "$out"
	[ -n "$(tail -c 1 "$out")" ] && echo >> "$out"
	_st=$(cat "$one.status")
	if [ "$_st" -ne 0 ] && ! grep -q '^FAIL: ' "$one"; then
		echo "FAIL: $_t: ended with status $_st and no FAIL line" |
			tee -a "$out"
	fi
	rm -f "$one" "$one.status"
}

for t in tests/unit_*; do
	case "$t" in *.c) continue ;; esac
	[ -x "$t" ] || continue
	run_one "$t" "$t"
done
for t in tests/t_*.sh; do
	[ -f "$t" ] || continue
	run_one "$t" sh "$t"
done
pass=$(grep -c '^PASS: ' "$out")
fail=$(grep -c '^FAIL: ' "$out")
skip=$(grep -c '^SKIP: ' "$out")
echo "$skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
