#!/bin/sh
# Where a sweep column stops (openau.c SWEEP_PRUNE): for each divisor D
# (the column stops once below 1/D of its best) build a copy, run the
# profile suite and the random-card accuracy suite, and report their
# verdict tallies and the simulated device time of all -O runs.  The
# threshold is the smallest D (earliest stop, least device time) whose
# tallies match those of the largest D.
#   usage: bench/prune.sh [D...]   (default: 4 8 16; CARDS=40)
cd "$(dirname "$0")/.." || exit 1
work=${TMPDIR:-/tmp}/fb-prune.$$
trap 'rm -rf "$work"' EXIT
cards=${CARDS:-40}
[ $# -gt 0 ] || set -- 4 8 16
for d in "$@"; do
	w=$work/$d
	mkdir -p "$w"
	git ls-files -z | xargs -0 cp --parents -t "$w"
	sed -i "s|^#define SWEEP_PRUNE .*|#define SWEEP_PRUNE (1.0 / $d)|" \
		"$w/openau.c"
	make -s -C "$w" flashbench > /dev/null || exit 1
	# every -O run's device time, as its JSON tells it
	cat > "$w/fb" <<EOT
#!/bin/sh
out=\$("$w/flashbench" "\$@"); rc=\$?
printf '%s\n' "\$out"
case " \$* " in *" -O "*) printf '%s\n' "\$out" |
	grep -o '"device_ns": *[0-9]*' | tr -dc '0-9\n' >> "$w/ns" ;; esac
exit \$rc
EOT
	chmod +x "$w/fb"
	python3 tests/profiles.py --noise 0,5,15 --seeds 1,2,3 --fb "$w/fb" \
		> "$w/profiles"
	python3 tests/accuracy.py --cards "$cards" --seed 1 --fb "$w/fb" \
		> "$w/cards"
	echo "== 1/$d: profiles (noise right lower wrong), random cards (all)"
	grep '^[0-9]*%' "$w/profiles"
	grep '^all' "$w/cards"
	awk '{ s += $1 } END { printf "device time of %d -O runs: %.0f s\n",
		NR, s / 1e9 }' "$w/ns"
done
