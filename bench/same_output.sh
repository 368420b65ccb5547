#!/bin/sh
# same_output.sh OLD NEW: whether two flashbench binaries give the same
# output where a refactoring must change nothing: --survey on the six
# sim profiles (text and JSON), --analyze of the seed reports, each
# single test on sim:sd08g, --help and --help-sim.  Prints the diff and
# exits 1 where they differ.  Run from the top of the tree.
set -u
[ $# -eq 2 ] || { echo "usage: sh bench/same_output.sh OLD NEW" >&2; exit 2; }
out=${TMPDIR:-/tmp}/flashbench-same.$$
trap 'rm -rf "$out"' EXIT

# outputs BIN DIR: every output above of BIN, in DIR.  The binary is
# copied to one name so the command lines in the JSON compare equal.
outputs() {
	mkdir -p "$2/bin" && cp "$1" "$2/bin/flashbench" || exit 2
	b=$2/bin/flashbench
	for p in sd08g su04g evo32 samsung16 xporter rage; do
		"$b" --survey sim:$p > "$2/survey-$p.out" 2>&1
		echo "exit $?" >> "$2/survey-$p.out"
		"$b" --survey --json sim:$p > "$2/survey-$p.json" 2>/dev/null
	done
	for f in tests/seeds/*.txt; do
		n=$(basename "$f" .txt)
		"$b" --analyze="$f" > "$2/analyze-$n.out" 2>&1
		"$b" --analyze="$f" --json > "$2/analyze-$n.json" 2>/dev/null
	done
	for t in -a "-O --open-au-nr=1-6" -f "-O -r --open-au-nr=3" \
		 --erase -s -i --info; do
		n=$(echo "$t" | tr -d ' =-')
		"$b" $t --analyze sim:sd08g > "$2/test-$n.out" 2>&1
	done
	"$b" --help > "$2/help.out" 2>&1
	"$b" --help-sim > "$2/help-sim.out" 2>&1
	rm -r "$2/bin"
	sed -i -e '/"timestamp":/d' -e "s#\"$b\"#\"flashbench\"#" "$2"/*.json
}

outputs "$1" "$out/old"
outputs "$2" "$out/new"
if diff -r "$out/old" "$out/new"; then
	echo "same output: $(ls "$out/new" | wc -l) files"
else
	exit 1
fi
