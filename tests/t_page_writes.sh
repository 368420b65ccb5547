#!/bin/sh
# The page from write times (analysis/page_writes.c), where the -a reads
# give none: a write of half a page taking longer than a whole one, in
# two -O runs that held.  A real report's runs, a control without that
# evidence, and sim cards with and without rmw= (read back, programmed
# whole) that know their page.
. tests/lib.sh

page_line() {
	$FB --analyze="$1" 2>&1 | grep '^# page_size:'
}

# no_page NAME FILE: the page_size line of FILE's report is absent
no_page() {
	page_line "$2" > "$TMP/pw-none"
	if [ -s "$TMP/pw-none" ]; then
		fail "$1 -- $(cat "$TMP/pw-none")"
	else
		pass "$1"
	fi
}

# tests/real/007-patriot-xporter-xt-16gb.txt: two held runs, 16KiB
# writes at 3.1M/s (5.2ms each), 32KiB ones at 10.9M/s (3.0ms); the
# expert: "page size looks like 32 KB effective"
F=$TMP/pw-007.txt
cat > "$F" <<'T'
# source: tests/real/007-patriot-xporter-xt-16gb.txt (excerpt)
$ sudo ./flashbench --erasesize=$[8*1024*1024] --open-au --open-au-nr=3 /dev/sdc --blocksize=4096
8MiB 15M/s
4MiB 14.9M/s
2MiB 14.9M/s
1MiB 15.4M/s
512KiB 15.7M/s
256KiB 13.1M/s
128KiB 13.1M/s
64KiB 16.4M/s
32KiB 10.9M/s
16KiB 3.12M/s
8KiB 1.67M/s
4KiB 861K/s
$ sudo ./flashbench --erasesize=$[8*1024*1024] --open-au --open-au-nr=6 /dev/sdc
8MiB 15.3M/s
4MiB 14.6M/s
2MiB 14.2M/s
1MiB 14.9M/s
512KiB 15.4M/s
256KiB 13.5M/s
128KiB 12.3M/s
64KiB 16M/s
32KiB 10.6M/s
16KiB 3.16M/s
T
page_line "$F" > "$TMP/pw-007"
expect_grep "page from writes: 007's two held runs give 32KiB, low" \
	'^# page_size: 32KiB (low) -- from writes: in 2 -O runs' "$TMP/pw-007"

# control: one run alone could hold a pause of the card: no page
sed '/open-au-nr=6/,$d' "$F" > "$TMP/pw-one.txt"
no_page "page from writes: one run gives none" "$TMP/pw-one.txt"

# control: 16KiB writes at their share of 32KiB's time (no read-back)
sed 's/^16KiB 3.1[26]M\/s/16KiB 6.1M\/s/' "$F" > "$TMP/pw-flat.txt"
no_page "page from writes: none without the read-back" "$TMP/pw-flat.txt"

# sim: su04g has 32KiB pages; with rmw= its 16KiB writes read back
for spec in su04g,rmw=100 su04g; do
	$FB -O --open-au-nr=1-2 "sim:$spec" > "$TMP/pw-$spec.txt" 2>/dev/null
done
page_line "$TMP/pw-su04g,rmw=100.txt" > "$TMP/pw-rmw"
expect_grep "page from writes: sim:su04g,rmw=100 reads its 32KiB page" \
	'^# page_size: 32KiB (low) -- from writes' "$TMP/pw-rmw"
no_page "page from writes: sim:su04g without rmw= gives none" \
	"$TMP/pw-su04g.txt"

# a bad rmw= value: one line naming it, exit 2, no I/O
expect_status "sim: rmw=101 is refused" 2 $FB -O sim:su04g,rmw=101
