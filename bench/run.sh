#!/bin/sh
# Benchmarks anyone can rerun: per-I/O overhead against bare pread on the
# same file (ratios against a baseline measured in the same run), the
# wall time and peak memory of typical runs (medians of 5), and planning
# memory and simulated writes per second (bench/sim.sh).
#   usage: bench/run.sh [SCRATCH-DIR]   (needs ~1 GiB free)
cd "$(dirname "$0")/.." || exit 1
dir=${1:-bench/tmp}
mkdir -p "$dir"
F=$dir/bench.img
[ -f "$F" ] || head -c $((1 << 30)) /dev/urandom > "$F"

echo "== timing overhead (O_DIRECT on $F)"
bench/overhead "$F" 4000 7

# med5 LABEL CMD...: median wall time and peak RSS over 5 runs
med5() {
	_label=$1
	shift
	for _i in 1 2 3 4 5; do
		/usr/bin/time -f "%e %M" "$@" >/dev/null 2>>"$dir/time.$$" ||
			true
	done
	grep -E '^[0-9.]+ [0-9]+$' "$dir/time.$$" | sort -n |
		awk -v l="$_label" '{ t[NR] = $1; m[NR] = $2 }
		END { printf "%s\t%.2fs\t%d KiB\n", l, t[3], m[3] }'
	rm -f "$dir/time.$$"
}

echo "== runs: median wall time and its peak RSS"
med5 "-a sim:" ./flashbench -a sim:
med5 "-a 1GiB file" ./flashbench -a "$F" --blocksize=1024
med5 "-O sim: --blocksize=512 --open-au-nr=3" \
	./flashbench -O sim: --blocksize=512 --open-au-nr=3
med5 "-O 1GiB file (4MiB erasesize)" ./flashbench -O "$F"
med5 "-O --open-au-nr=1-8 sim:" ./flashbench -O sim: --open-au-nr=1-8

sh bench/sim.sh
