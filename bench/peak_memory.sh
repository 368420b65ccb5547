#!/bin/sh
# peak_memory.sh OLD NEW [SCRATCH-DIR]: the peak RSS (VmHWM) of the
# largest plans, each run by both binaries in this one run: sizes of
# 1-2 GiB and 16 GiB (OLD only plans that one: it would fill RAM), huge
# counts, big blocks, on sim: and on a sparse file (which the file runs
# write: about 0.5 GiB each).  Peak RSS
# from /usr/bin/time -v when installed, else the last VmHWM read from
# /proc/PID/status while the run went.  Run from the top of the tree:
#   sh bench/peak_memory.sh /work/base8/flashbench ./flashbench
set -u
[ $# -ge 2 ] || {
	echo "usage: sh bench/peak_memory.sh OLD NEW [SCRATCH-DIR]" >&2
	exit 2
}
OLD=$1 NEW=$2
dir=${3:-bench/tmp}
mkdir -p "$dir" || exit 1
F=$dir/peak_memory.img
trap 'rm -f "$F" "$dir/peak.$$"' EXIT

# hwm CMD...: CMD's peak RSS in KiB (its output thrown away)
hwm() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -v "$@" > /dev/null 2> "$dir/peak.$$"
		sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' \
			"$dir/peak.$$"
		return
	fi
	"$@" > /dev/null 2>&1 &
	_pid=$! _kib=0
	while [ -r /proc/$_pid/status ]; do
		_v=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' \
			/proc/$_pid/status 2>/dev/null)
		[ -n "$_v" ] && _kib=$_v
	done
	wait $_pid
	echo "$_kib"
}

# row CMD-ARGS...: the peak RSS of OLD and NEW running them
row() {
	printf '%10s %10s  %s\n' "$(hwm "$OLD" "$@")" "$(hwm "$NEW" "$@")" "$*"
}

# new_only CMD-ARGS...: NEW alone, where OLD would fill RAM (16 GiB)
new_only() {
	printf '%10s %10s  %s\n' "(skipped)" "$(hwm "$NEW" "$@")" "$*"
}

printf '%10s %10s  %s\n' "old KiB" "new KiB" "command"
new_only -O --erasesize=16G --open-au-nr=1 --count=1 sim:size=1T
row -O --erasesize=2G --open-au-nr=1 --count=1 sim:size=64G
row -f --erasesize=1G --count=1 sim:size=64G
row -O --ramp --erasesize=512M sim:size=64G,au=512M,open=3
row --erase --erasesize=2G --count=4 sim:size=64G
row -a --blocksize=1G sim:size=64G
row -i --interval-order=20 --count=1 sim:
row -s --scatter-order=20 --blocksize=512 --count=1 sim:size=1T
row --survey sim:size=64G,au=64M
row --survey sim:evo32
row --dry-run -O --erasesize=16G --open-au-nr=1-8 --count=1000000 \
	sim:size=1T
row --dry-run -O --erasesize=64M --blocksize=512 --open-au-nr=1-8 \
	sim:size=16G

rm -f "$F"
truncate -s 4G "$F" || exit 1
row -O --erasesize=256M --blocksize=128M --count=1 --open-au-nr=1 "$F"
row -a --blocksize=256M --count=1 "$F"
