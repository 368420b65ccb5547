#!/bin/sh
# --analyze reads the banners wrapper scripts print before each -O run, in
# their own words, as it reads a flashbench command line: each form gives
# the verdicts the same tables give under "flashbench -O --open-au-nr=N".
# Numbers in unrelated lines never set N; a table whose N nothing states
# is named in a note (text and JSON), and a new card forgets the banners.
. tests/lib.sh

if ! command -v python3 >/dev/null 2>&1; then
	skip "banners: needs python3"
	exit 0
fi
dir=$TMP/banner
rm -rf "$dir"
mkdir -p "$dir"

# Tables of a card with 6 open AUs, 4 of them for random writes (virtual
# time: the rows do not depend on the machine).
LIN="2 4 6 7"
RND="2 3 4 5"
for n in $LIN; do
	"$FB" -O --erasesize=4M --open-au-nr="$n" sim:sd08g,random=4 \
		0<>/dev/null 2>/dev/null > "$dir/lin$n" || fail "sim run $n"
done
for n in $RND; do
	"$FB" -O --erasesize=4M --open-au-nr="$n" --random \
		sim:sd08g,random=4 0<>/dev/null 2>/dev/null > "$dir/rnd$n" ||
		fail "sim run $n --random"
done

# paste ORDER FORM: the tables of ORDER (lin or rnd), each after FORM
# with %n the count, %o the order's word, %r the order as an option.
paste_with() {
	case $1 in
	lin) _ns=$LIN _o=linear _r= ;;
	*) _ns=$RND _o=random _r=--random ;;
	esac
	for _n in $_ns; do
		echo "$2" | sed -e "s/%n/$_n/g" -e "s/%o/$_o/g" -e "s/%r/$_r/g"
		cat "$dir/$1$_n"
	done
}

verdicts() {
	"$FB" --analyze="$1" 2>&1 | grep -e '^# open_au_' -e '^# min_full'
}

for order in lin rnd; do
	paste_with $order \
		'$ sudo ./flashbench -O --erasesize=4194304 --open-au-nr=%n %r /dev/sdb' \
		> "$dir/ref-$order"
	verdicts "$dir/ref-$order" > "$dir/ref-$order.v"
	grep -q 'open_au_.*: .*[0-9] (\(medium\|high\|low\))' \
		"$dir/ref-$order.v" ||
		fail "banners: reference $order gives no count: $(cat "$dir/ref-$order.v")"
done

# The forms: the brief's (issue 23) and those public wrapper scripts
# print (GitHub code index: a script echoing "======= AU=$i, linear
# access =======" before each "flashbench --open-au --open-au-nr=$i", and
# one echoing "BLOCKSIZE = ... ERASESIZE = ... AU = $AU").
n=0
while IFS= read -r form; do
	n=$((n + 1))
	for order in lin rnd; do
		paste_with $order "$form" > "$dir/form$n-$order"
		verdicts "$dir/form$n-$order" > "$dir/form$n-$order.v"
		if cmp -s "$dir/form$n-$order.v" "$dir/ref-$order.v"; then
			pass "banner '$form' ($order) reads as the command line"
		else
			fail "banner '$form' ($order): $(head -c 300 "$dir/form$n-$order.v")"
		fi
	done
done <<'EOF'
=== %n open AUs, %o ===
Testing %n erase blocks in %o order
open-au-nr %n %o:
--- N=%n (%o) ---
# %o, %n AUs
Open AU test: %n AUs, %o
[%o] %n open
$ sudo ./flashbench -O -n %n %r /dev/sdb
root@host:~# flashbench --open-au --open-au-nr=%n %r /dev/mmcblk0
flashbench -O --open-au-nr=%n %r /dev/sdb
======= AU=%n, %o access =======
BLOCKSIZE = 16384 ERASESIZE = 4194304 AU = %n %o
EOF

# A banner may say one of the two: an order said first holds for later
# counts; one said after a count qualifies that count only.
json_tables() {
	"$FB" --json --analyze="$1" | python3 -c 'import json, sys
for s in json.load(sys.stdin)["reports"][0]["sections"]:
    print(" ".join("%s%s" % (t.get("open_au_nr"), "r" if t["random"] else "l")
                   for t in s["tables"]))
    for x in s.get("notes", []):
        print("note %d %s" % (x["table"], x["missing"]))'
}

expect_tables() {
	json_tables "$dir/$1" > "$dir/$1.t" 2>&1
	if [ "$(cat "$dir/$1.t")" = "$2" ]; then
		pass "banners: $3"
	else
		fail "banners: $3: got '$(cat "$dir/$1.t")', want '$2'"
	fi
}

{
	echo "=== random ==="
	echo "--- N=2 ---"; cat "$dir/rnd2"
	echo "--- N=3 ---"; cat "$dir/rnd3"
	echo "=== linear ==="; cat "$dir/lin4"
} > "$dir/order-first"
expect_tables order-first "2r 3r 3l" \
	"an order said alone holds for the counts after it"
{
	echo "Trying 3 open AUs, random:"; cat "$dir/rnd3"
	echo "Trying 4 open AUs:"; cat "$dir/lin4"
	echo "random:"; cat "$dir/rnd4"
} > "$dir/order-after"
expect_tables order-after "3r 4l 4r" \
	"an order after a count is that count's; a count stays for an order"

# Near misses: sizes, dates, times, device names, percentages, a run
# count.  None states N: the table is named in a note, text and JSON.
while IFS= read -r line; do
	{ echo "$line"; cat "$dir/lin4"; } > "$dir/near"
	"$FB" --analyze="$dir/near" > "$dir/near.out" 2>&1
	if grep -q '^# note: table 1 (open AUs): number of open AUs not stated; its rows are not counted$' \
		"$dir/near.out" &&
	   [ "$(json_tables "$dir/near")" = "$(printf '0l\nnote 1 open_au_nr')" ]
	then
		pass "near miss '$line' sets no N; the note says so"
	else
		fail "near miss '$line': $(head -c 300 "$dir/near.out")"
	fi
done <<'EOF'
erase size 4MiB, 4 MiB test
2012-03-04 12:30:01
Mar  4 12:30:01 host kernel: [ 3.517] sdb: sdb1 sdb2
/dev/mmcblk0p2 mounted on /media/card
write speed dropped to 75 %, 12% of the best
run 3 of 5
EOF

# Each table's last row cut mid-number (a paste cut short): the banners
# still count.
for n in $LIN; do
	echo "--- N=$n (linear) ---"
	sed '$s/\(M\/s\).*/\1/; $s/[0-9]M\/s$//' "$dir/lin$n"
done > "$dir/cut"
expect_tables cut "2l 4l 6l 7l" "rows cut mid-number leave the banners read"

# A wrapper's "-n 4" is a count on its flashbench command line only.
{
	echo '$ sudo ./flashbench -O /dev/sdb > log; head -n 20 log'
	cat "$dir/lin4"
} > "$dir/head-n"
expect_tables head-n "2l" "-n of a later command (head -n 20) is no count"

# Several cards in one paste: the second card's table is not the first's
# banner's.
{
	echo "=== 4 open AUs, linear ==="
	echo "/dev/sdb:"; cat "$dir/lin4"
	echo "Card 2, /dev/sdc:"; cat "$dir/lin6"
} > "$dir/cards"
expect_tables cards "$(printf '4l\n0l\nnote 1 open_au_nr')" \
	"a new card forgets the banners of the one before"
