#!/bin/sh
# Planning memory and simulated-card speed (no scratch space needed):
#  - writes per second of simulated -O runs: the writes a run made (its
#    JSON "io") divided by its wall time, median of 5;
#  - peak RSS and wall time of planning the big sweep -O --erasesize=64M
#    --blocksize=512 --open-au-nr=1-40 (its dry run on a 64 GiB sim: the
#    plan a live run makes first), median of 3.  A build that kept one record
#    per planned write needs about 12 GB of RAM here.
#   usage: bench/sim.sh   (FB=path/to/flashbench measures another build;
#   BASE=path/to/flashbench also plans with that one, for the ratio)
cd "$(dirname "$0")/.." || exit 1
FB=${FB:-./flashbench}
t=${TMPDIR:-/tmp}/fb-bench-sim.$$
trap 'rm -f "$t" "$t.new" "$t.old"' EXIT

# writes LABEL ARGS...: median writes per second over 5 runs of -O ARGS
writes() {
	_label=$1
	shift
	_n=$("$FB" -O --json "$@" 2>/dev/null |
	     grep -o '"writes": *[0-9]*' | tr -dc 0-9)
	for _i in 1 2 3 4 5; do
		/usr/bin/time -f "%e" -o "$t" "$FB" -O "$@" > /dev/null 2>&1
		tail -n 1 "$t"
	done | sort -n | awk -v l="$_label" -v n="$_n" '{ s[NR] = $1 }
		END { printf "%s\t%d writes\t%.2fs\t%.0f writes/s\n", l, n,
		      s[3], (s[3] > 0 ? n / s[3] : 0) }'
}

echo "== sim: writes per second (median of 5)"
writes "-O --blocksize=512 --open-au-nr=3 sim:" --blocksize=512 \
	--open-au-nr=3 sim:
writes "-O --erasesize=64M --open-au-nr=2 sim:size=64G" --erasesize=64M \
	--open-au-nr=2 sim:size=64G
writes "-O --erasesize=64M --open-au-nr=1-8 sim:size=64G" --erasesize=64M \
	--open-au-nr=1-8 sim:size=64G

# planning: median wall time (s) and peak RSS (KiB) of 3 dry runs of the
# big sweep; with BASE, the builds take turns so that load falls on both
PLAN="--dry-run -O --erasesize=64M --blocksize=512 --open-au-nr=1-40 sim:size=64G"
once() {
	/usr/bin/time -f "%e %M" -o "$t" "$1" $PLAN > /dev/null
	tail -n 1 "$t" >> "$2"
}
median() { sort -n "$1" | sed -n 2p; }

echo "== planning: $PLAN (median of 3)"
rm -f "$t.new" "$t.old"
for _i in 1 2 3; do
	once "$FB" "$t.new"
	[ -n "${BASE:-}" ] && once "$BASE" "$t.old"
done
new=$(median "$t.new")
echo "$new" | awk '{ printf "this build\t%.2fs\t%d KiB\n", $1, $2 }'
if [ -n "${BASE:-}" ]; then
	old=$(median "$t.old")
	echo "$old" | awk '{ printf "BASE\t\t%.2fs\t%d KiB\n", $1, $2 }'
	echo "$old $new" | awk '{ printf "BASE / this build: %.0fx " \
		"(times under 0.01s count as 0.01s)\n",
		$1 / ($3 > 0.01 ? $3 : 0.01) }'
fi
