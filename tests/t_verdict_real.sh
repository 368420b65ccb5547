#!/bin/sh
# Verdict mechanisms read from real reports: each case is the excerpt of
# a tests/real report that carries the evidence, with a control that
# differs only in that evidence.
. tests/lib.sh

# fat_line NAME FILE: the fat_aus verdict of a pasted report
fat_line() {
	$FB --analyze="$1" 2>&1 | grep '^# fat_aus:'
}

# 013-kingston-sa04g-2013 --find-fat: AU 0 slower, AU 1 less so, the
# rest alike: a slowdown fading in the order of the writes, no FAT area
# (the expert reads none).
F=$TMP/fat-fading.txt
cat > "$F" <<'T'
# source: tests/real/013-kingston-sa04g-2013.txt (excerpt)
root@localhost:~/flashbench# ./flashbench /dev/mmcblk1 --find-fat --erasesize=$[4*1024*1024]
4MiB    865K/s   3.56M/s  3.01M/s  5.13M/s  5.14M/s  5.12M/s  
2MiB    4.3M/s   4.88M/s  5.11M/s  5.16M/s  5.11M/s  5.3M/s   
1MiB    3.99M/s  4.9M/s   5.23M/s  5.18M/s  5.17M/s  5.15M/s  
512KiB  3.88M/s  4.81M/s  5.15M/s  5.16M/s  5.16M/s  5.15M/s  
256KiB  4.35M/s  4.38M/s  5.17M/s  5.18M/s  5.17M/s  5.16M/s  
128KiB  3.78M/s  4.8M/s   5.13M/s  5.12M/s  5.15M/s  5.14M/s  
64KiB   4.27M/s  4.74M/s  5.08M/s  5.03M/s  5.08M/s  5.07M/s  
32KiB   3.62M/s  4.29M/s  4.97M/s  4.96M/s  4.96M/s  4.95M/s  
16KiB   3.01M/s  3.31M/s  3.74M/s  4.29M/s  4.3M/s   4.29M/s 
T
fat_line "$F" > "$TMP/fat-fading"
expect_grep "fat: a slowdown fading in write order is no FAT area" \
	'^# fat_aus: none (low) -- .*fading with the order' "$TMP/fat-fading"

# control: AU 1 written like the rest, so AU 0 alone stands apart: named
# (low: 16% is under what a FAT area costs, analysis/fat_area.c)
sed 's/^\([0-9]*[KM]iB  *[^ ]*  *\)[^ ]*\(  *\)\([^ ]*\)/\1\3\2\3/' \
	"$F" > "$TMP/fat-place.txt"
fat_line "$TMP/fat-place.txt" > "$TMP/fat-place"
expect_grep "fat: AU 0 alone slower is still named" \
	'^# fat_aus: 0 (low) -- AU 0 at' "$TMP/fat-place"

# 001-sandisk-cf-32gb: the only -O run (--random) collapses; the linear
# --findfat table shows the minimum full-speed write (the expert: 64 KB,
# 32 KiB at a third of the speed).
F=$TMP/min-fat.txt
cat > "$F" <<'T'
# source: tests/real/001-sandisk-cf-32gb.txt (excerpt, one line a row)
flashbench -O --erasesize=$[64 * 1024 * 1024] /dev/sda --open-au-nr=1 --random
64MiB 39.3M/s
32MiB 70.1M/s
16MiB 70.2M/s
8MiB 25.8M/s
4MiB 18M/s
2MiB 9.41M/s
1MiB 4.93M/s
512KiB 2.35M/s
256KiB 1.14M/s
128KiB 596K/s
64KiB 3.87M/s
32KiB 3.05M/s
16KiB 2.12M/s
T
cp "$F" "$TMP/min-o.txt"
cat >> "$F" <<'T'
flashbench --findfat --fat-nr=4 --erasesize=$[64 * 1024 * 1024] --blocksize=1024 /dev/sda
64MiB 47.1M/s 70M/s 69.9M/s 69.8M/s
32MiB 69.3M/s 70.4M/s 70M/s 70.4M/s
16MiB 43.7M/s 58.2M/s 70.4M/s 70.4M/s
8MiB 70.3M/s 70.4M/s 69.4M/s 58M/s
4MiB 69.3M/s 69.9M/s 70.3M/s 70.3M/s
2MiB 69.1M/s 69.8M/s 70.2M/s 66.1M/s
1MiB 69.3M/s 64.6M/s 70M/s 70.1M/s
512KiB 65.2M/s 61.1M/s 68.6M/s 68.7M/s
256KiB 60M/s 61M/s 60.8M/s 60.8M/s
128KiB 68M/s 61.2M/s 63.4M/s 69.3M/s
64KiB 37M/s 54.8M/s 55.4M/s 54.9M/s
32KiB 23.9M/s 23.9M/s 23.9M/s 24M/s
16KiB 8.89M/s 8.91M/s 8.94M/s 8.28M/s
8KiB 5.02M/s 4.81M/s 5.03M/s 5.02M/s
4KiB 2.11M/s 2.14M/s 2.11M/s 2.14M/s
2KiB 1.1M/s 1.11M/s 1.11M/s 1.11M/s
1KiB 545K/s 546K/s 543K/s 546K/s
T
$FB --analyze="$F" 2>&1 | grep '^# min_full_speed_write:' > "$TMP/min-fat"
expect_grep "min_write: read from the linear -f table where no -O run held" \
	'^# min_full_speed_write: 64KiB (low) -- .*the linear -f writes' \
	"$TMP/min-fat"
# control: the collapsed -O run alone shows no full-speed write
$FB --analyze="$TMP/min-o.txt" 2>&1 |
	grep '^# min_full_speed_write:' > "$TMP/min-o"
expect_grep "min_write: a collapsed -O run alone stays inconclusive" \
	'^# min_full_speed_write: unknown (inconclusive) -- every run collapsed' \
	"$TMP/min-o"

# 004-sandisk-sd04g-class4's linear sweep: N=5 collapses, 6 and 7 hold,
# 8 on collapse.  Either N=5 is an outlier or 6 and 7 held by chance:
# the runs prove "between 4 and 7", not 7 (the reader labels 4 to 5).
oau_line() {
	$FB --analyze="$1" 2>&1 | grep '^# open_au_linear:'
}
sweep_run() {
	echo "./flashbench -O --open-au-nr=$1 /dev/mmcblk0"
	for s in 4MiB 2MiB 1MiB 512KiB 256KiB 128KiB 64KiB 32KiB 16KiB; do
		echo "$s $2"
	done
}
{ sweep_run 1 9.1M/s; sweep_run 2 9.1M/s; sweep_run 3 2.1M/s
  sweep_run 4 9.1M/s; sweep_run 5 9.1M/s; sweep_run 6 2.1M/s
  sweep_run 7 2.1M/s; } > "$TMP/oau-outlier.txt"
oau_line "$TMP/oau-outlier.txt" > "$TMP/oau-outlier"
expect_grep "open-AU: a collapse below two runs that held gives a span" \
	'^# open_au_linear: between 2 and 5 (medium) -- .*outlier, or they held by chance' \
	"$TMP/oau-outlier"
oau_line tests/real/004-sandisk-sd04g-class4.txt > "$TMP/oau-004"
expect_grep "open-AU: 004's sweep reads as the span its runs prove" \
	'^# open_au_linear: between 4 and 7 (low)' "$TMP/oau-004"

# control: N=3 held like its neighbours: the edge alone, exact
{ sweep_run 1 9.1M/s; sweep_run 2 9.1M/s; sweep_run 3 9.1M/s
  sweep_run 4 9.1M/s; sweep_run 5 9.1M/s; sweep_run 6 2.1M/s
  sweep_run 7 2.1M/s; } > "$TMP/oau-edge.txt"
oau_line "$TMP/oau-edge.txt" > "$TMP/oau-edge"
expect_grep "open-AU: without the outlier the edge is exact" \
	'^# open_au_linear: 5 (high)' "$TMP/oau-edge"
