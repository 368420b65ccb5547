#!/bin/sh
# A sim: fault (fail=N) where no I/O of the test lies cannot fire: one
# warning line before the run says so, and the run goes on; a fault the
# test does reach gets no warning.
. tests/lib.sh

$FB -a sim:fail=0 >"$TMP/out" 2>"$TMP/err"
expect_grep "fail=0 with -a: warned before the run" \
	"^flashbench: sim fail=0: this test never touches offset 0; the fault cannot fire$" \
	"$TMP/err"
if head -n 1 "$TMP/err" | grep -q "the fault cannot fire"; then
	pass "fail=0 with -a: the warning comes first"
else
	fail "fail=0 with -a: first line: $(head -n 1 "$TMP/err")"
fi
if [ -s "$TMP/out" ]; then
	pass "fail=0 with -a: the run goes on"
else
	fail "fail=0 with -a: no output"
fi

$FB -a sim:fail=8M >"$TMP/out" 2>"$TMP/err"
if grep -q "cannot fire" "$TMP/err"; then
	fail "fail=8M with -a: warned, but -a reads there"
else
	pass "fail=8M with -a: no warning"
fi
expect_grep "fail=8M with -a: the fault fires" "Input/output error" "$TMP/err"

$FB -a sim: >"$TMP/out" 2>"$TMP/err"
if grep -q "cannot fire" "$TMP/err"; then
	fail "no fail=: warned"
else
	pass "no fail=: no warning"
fi
