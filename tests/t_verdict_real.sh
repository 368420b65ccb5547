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

# control: AU 1 written like the rest, so AU 0 alone stands apart
sed 's/^\([0-9]*[KM]iB  *[^ ]*  *\)[^ ]*\(  *\)\([^ ]*\)/\1\3\2\3/' \
	"$F" > "$TMP/fat-place.txt"
fat_line "$TMP/fat-place.txt" > "$TMP/fat-place"
expect_grep "fat: AU 0 alone slower is still a FAT area" \
	'^# fat_aus: 0 (\(medium\|high\))' "$TMP/fat-place"
