#!/bin/sh
# Runs every unit test binary and every tests/t_*.sh script; each prints
# "PASS: ...", "FAIL: ..." or "SKIP: ... (reason)" lines.  Ends with the
# count of skipped checks and then the "N passed, N failed" line CI reads.
cd "$(dirname "$0")/.." || exit 1
out=tests/tmp/results
mkdir -p tests/tmp
: > "$out"
for t in tests/unit_*; do
	case "$t" in *.c) continue ;; esac
	[ -x "$t" ] || continue
	echo "== $t"
	"$t" 2>&1 | tee -a "$out" | grep -v '^PASS: '
	[ -n "$(tail -c 1 "$out")" ] && echo >> "$out"
done
for t in tests/t_*.sh; do
	[ -f "$t" ] || continue
	echo "== $t"
	sh "$t" 2>&1 | tee -a "$out" | grep -v '^PASS: '
done
pass=$(grep -c '^PASS: ' "$out")
fail=$(grep -c '^FAIL: ' "$out")
skip=$(grep -c '^SKIP: ' "$out")
echo "$skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
