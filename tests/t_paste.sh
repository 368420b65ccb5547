#!/bin/sh
# Reports as people paste them (mail archives, markdown, pastebins, gists,
# wrapper scripts, cut pastes, terminal logs), made from sim: runs: every
# rendering reads as the plain report does, and that as the runs were
# made.  The full corpus: python3 tests/paste_corpus.py (all profiles).
. tests/lib.sh

if ! command -v python3 >/dev/null 2>&1; then
	skip "paste corpus: needs python3"
	exit 0
fi
python3 tests/paste_corpus.py --fb "$FB" --dir "$TMP/paste" \
	--profiles=sd08g,su04g,samsung16 > "$TMP/paste.out" 2>&1
sed -n 's/^error: /FAIL: paste corpus: /p' "$TMP/paste.out"
awk -F'\t' '$1 != "all" && $2 ~ /\// {
	split($2, n, "/")
	if (n[1] == n[2] && n[2] > 0)
		print "PASS: paste corpus: " $1 " (" $2 ")"
	else
		print "FAIL: paste corpus: " $1 ": " $2 " read right"
}' "$TMP/paste.out"
grep -q '^all' "$TMP/paste.out" ||
	fail "paste corpus: no summary: $(tail -n 3 "$TMP/paste.out")"

# The classic tool's own output (space padded, trailing spaces), if it is
# installed: run on a file of ours, it reads back with N and every row.
CLASSIC=/usr/bin/flashbench
if [ ! -x "$CLASSIC" ]; then
	skip "classic output: $CLASSIC not installed"
	exit 0
fi
img=$TMP/paste-classic.img
rm -f "$img"
truncate -s 64M "$img"
classic_reads() {
	_name=$1 _want=$2
	shift 2
	{
		echo "\$ sudo ./flashbench $* /dev/sdb"
		"$CLASSIC" "$@" "$img" 0<>/dev/null 2>/dev/null
	} > "$TMP/paste-classic.txt"
	_rows=$(grep -vc '^\$ ' "$TMP/paste-classic.txt")
	"$FB" --json --analyze="$TMP/paste-classic.txt" > "$TMP/paste-classic.json"
	_got=$(python3 -c 'import json, sys
t = [t for s in json.load(open(sys.argv[1]))["reports"][0]["sections"]
     for t in s["tables"]]
print(" ".join("%s/%s/%d" % (x["kind"], x.get("open_au_nr", "-"),
                             len(x["rows"])) for x in t))' \
		"$TMP/paste-classic.json")
	if [ "$_got" = "$_want/$_rows" ]; then
		pass "classic output: $_name"
	else
		fail "classic output: $_name: got '$_got', want '$_want/$_rows'"
	fi
}
classic_reads "-a" "align/-" -a --blocksize=4096
classic_reads "bare -O is N=2" "open_au/2" -O --erasesize=1048576
classic_reads "-O --open-au-nr=3" "open_au/3" -O --erasesize=1048576 \
	--open-au-nr=3
classic_reads "-f" "find_fat/-" -f --erasesize=1048576
rm -f "$img"
