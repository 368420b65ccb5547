#!/bin/sh
# Pages larger than the units the verdict tries (PAGE_MAX, 64KiB): the
# places of a 1 KiB -a run fit such a page best at a unit under it whose
# odd multiples do not step.  Whatever the verdict says then is low: a
# 96KiB page was "48KiB (high)" before.
. tests/lib.sh

for spec in size=64G,au=3M,page=96K size=8G,au=4M,page=128K \
	size=16G,au=12M,page=192K size=4G,au=4M,page=256K; do
	if ! $FB -a --blocksize=1024 --count=8 "sim:$spec" \
		0<>/dev/null > /dev/null 2> "$TMP/err"; then
		fail "$spec: exit: $(head -c 300 "$TMP/err")"
		continue
	fi
	line=$(grep 'page_size:' "$TMP/err")
	case $line in
	*"(medium)"*|*"(high)"*)
		fail "$spec: a page under the true one said sure: $line" ;;
	*)
		pass "$spec: $(echo "$line" | cut -c1-60)" ;;
	esac
done

# the check costs a true page its confidence nowhere: a 48KiB page's
# odd multiples step as its even ones do
$FB -a --blocksize=1024 --count=8 sim:size=64G,au=3M,page=48K,noise=0 \
	0<>/dev/null > /dev/null 2> "$TMP/err"
expect_grep "a true 48KiB page keeps its step" \
	"page_size: 48KiB" "$TMP/err"
if grep -q 'odd multiples of it step little' "$TMP/err"; then
	fail "a true 48KiB page is not taken for a half"
else
	pass "a true 48KiB page is not taken for a half"
fi
