#!/bin/sh
# The survey's advice runs as printed: for the profiles and for cards with
# 3x2^n pages, 1.5 to 12 MiB AUs, 64 MiB to 64 GiB, the sfdisk script and
# each mkfs line go to the tool on a sparse file of the card's (or the
# partition's) size, which must accept them without a warning and lay
# the file system out as the advice says: the partition on erase blocks,
# f2fs sections whole erase blocks, FAT clusters no page boundary cuts and
# a data area on one, ext4's stride and stripe width the page and AU.
. tests/lib.sh

W=$TMP/advice_tools
mkdir -p "$W"
IMG=$W/card.img
PART=$W/part.img
trap 'rm -f "$IMG" "$PART"' EXIT INT TERM

have() { command -v "$1" >/dev/null 2>&1; }

# report STATUS PASS-TEXT FAIL-TEXT: one line from a check's status
report() {
	if [ "$1" -eq 0 ]; then
		pass "$2"
	else
		fail "$3"
	fi
}

# The cards: profile, or sim: keys, then the true AU and page in bytes.
CARDS="sd08g:4194304:16384
su04g:4194304:32768
evo32:16777216:16384
samsung16:8388608:16384
xporter:8388608:32768
rage:12582912:24576
size=64M,au=1536K,page=12K:1572864:12288
size=256M,au=3M,page=48K:3145728:49152
size=512M,au=6M,page=24K:6291456:24576
size=128M,au=1M,page=8K:1048576:8192
size=2G,au=12M,page=6K:12582912:6144
size=64G,au=3M,page=12K:3145728:12288"

# tool_line OUT KEY: the command printed under "advice KEY"
tool_line() {
	sed -n "/^# advice $2 /{n;s/^#     //p;}" "$1"
}

# sfdisk_script OUT: the lines of the partition advice
sfdisk_script() {
	sed -n '/^# advice partition /,/^# advice [^p]/p' "$1" |
		sed -n 's/^#     //p'
}

# check_partition NAME OUT AU: sfdisk takes the script; its start and
# size are whole erase blocks; sets PSTART (bytes) and PSIZE
check_partition() {
	sfdisk_script "$2" > "$W/script"
	if ! sfdisk -q "$IMG" < "$W/script" > "$W/sfdisk.out" 2>&1; then
		fail "$1: sfdisk refuses the script: $(head -n 2 "$W/sfdisk.out")"
		return 1
	fi
	set -- "$1" $(sfdisk --dump "$IMG" |
		sed -n 's/.*start= *\([0-9]*\), size= *\([0-9]*\).*/\1 \2/p') "$3"
	PSTART=$(($2 * 512)) PSIZE=$(($3 * 512))
	[ $((PSTART % $4)) -eq 0 ] && [ $((PSIZE % $4)) -eq 0 ] &&
	   [ "$PSIZE" -gt 0 ]
	report $? \
		"$1: sfdisk: partition at $2 sectors, whole erase blocks" \
		"$1: sfdisk: start $2 size $3 sectors: not on a $4-byte AU"
}

# le32 FILE OFFSET: the little-endian 32-bit number at OFFSET
le32() {
	od -An -tu4 -j "$2" -N4 --endian=little "$1" | tr -d ' '
}

# run_tool NAME LINE [ARGS]: LINE on the partition file, accepted
# without a warning, or a FAIL line and false
run_tool() {
	_n=$1 _line=$2
	shift 2
	if $_line "$@" "$PART" > "$W/tool.out" 2>&1 < /dev/null &&
	   ! grep -qi warning "$W/tool.out"; then
		return 0
	fi
	fail "$_n: '$_line': $(grep -v '^[[:space:]]' "$W/tool.out" |
		grep -i 'bad \|error\|warning\|invalid' | head -n 1)"
	return 1
}

check_f2fs() {
	line=$(tool_line "$2" mkfs.f2fs)
	case $line in
	none:*) pass "$1: f2fs: $line"; return ;;
	"") fail "$1: no f2fs advice"; return ;;
	esac
	run_tool "$1" "$line" || return
	# superblock at 1 KiB: log_blocks_per_seg @20, segs_per_sec @24,
	# main_blkaddr @92; blocks of 4 KiB
	seg=$((4096 << $(le32 "$PART" 1044)))
	sec=$((seg * $(le32 "$PART" 1048)))
	main=$(($(le32 "$PART" 1116) * 4096))
	[ $((sec % $3)) -eq 0 ] && [ $(((PSTART + main) % $3)) -eq 0 ]
	report $? \
		"$1: '$line': sections of $sec bytes, main area on an AU" \
		"$1: '$line': section $sec, main area at $main + $PSTART: not on the $3-byte AU"
}

check_vfat() {
	line=$(tool_line "$2" mkfs.vfat)
	[ -n "$line" ] || { fail "$1: no mkfs.vfat advice"; return; }
	run_tool "$1" "$line" || return
	fsck.fat -v -n "$PART" > "$W/fsck.out" 2>&1
	bits=$(sed -n 's/.*FATs, \([0-9]*\) bit entries.*/\1/p' "$W/fsck.out")
	csize=$(sed -n 's/^ *\([0-9]*\) bytes per cluster.*/\1/p' "$W/fsck.out")
	data=$(sed -n 's/^Data area starts at byte \([0-9]*\).*/\1/p' "$W/fsck.out")
	want_bits=${line#*-F }
	want_bits=${want_bits%% *}
	want_c=$((${line##*-s } * 512))
	[ "$bits" = "$want_bits" ] && [ "$csize" = "$want_c" ] &&
	   [ $(($4 % csize)) -eq 0 ] && [ $(((PSTART + data) % csize)) -eq 0 ]
	report $? \
		"$1: '$line': FAT$bits, $csize-byte clusters dividing the page, data area on one" \
		"$1: '$line': FAT${bits:-?} clusters ${csize:-?} data at ${data:-?}; want FAT$want_bits, $want_c dividing the $4-byte page"
}

check_ext4() {
	line=$(tool_line "$2" mkfs.ext4)
	[ -n "$line" ] || { fail "$1: no mkfs.ext4 advice"; return; }
	run_tool "$1" "$line" -q || return
	stride=$(dumpe2fs -h "$PART" 2>/dev/null | sed -n 's/^RAID stride: *//p')
	width=$(dumpe2fs -h "$PART" 2>/dev/null |
		sed -n 's/^RAID stripe width: *//p')
	page_blocks=$(($4 / 4096))
	[ $(($4 % 4096)) -eq 0 ] || page_blocks=1
	[ "$stride" = "$page_blocks" ] && [ "$width" = $(($3 / 4096)) ]
	report $? \
		"$1: '$line': stride $stride, stripe width $width blocks" \
		"$1: '$line': stride ${stride:-?} width ${width:-?}; want $page_blocks and $(($3 / 4096))"
}

# card NAME: the survey of sim:NAME, its advice run by each tool
card() {
	name=${1%%:*} rest=${1#*:}
	au=${rest%%:*} page=${rest#*:}
	out=$W/survey.txt
	if ! $FB --survey "sim:$name" > "$out" 2> "$W/survey.err"; then
		fail "$name: survey: $(tail -n 1 "$W/survey.err")"
		return
	fi
	size=$($FB --info "sim:$name" 2>/dev/null | sed -n 's/^size: \([0-9]*\) .*/\1/p')
	rm -f "$IMG" "$PART"
	truncate -s "$size" "$IMG" || { fail "$name: no sparse image"; return; }
	check_partition "$name" "$out" "$au" || return
	for tool in f2fs vfat ext4; do
		case $tool in
		f2fs) have mkfs.f2fs || { skip "$name: f2fs (mkfs.f2fs not installed)"; continue; } ;;
		vfat) { have mkfs.vfat && have fsck.fat; } ||
			{ skip "$name: vfat (dosfstools not installed)"; continue; } ;;
		ext4) { have mkfs.ext4 && have dumpe2fs; } ||
			{ skip "$name: ext4 (e2fsprogs not installed)"; continue; } ;;
		esac
		rm -f "$PART"
		truncate -s "$PSIZE" "$PART"
		check_$tool "$name" "$out" "$au" "$page"
	done
	rm -f "$IMG" "$PART"
}

if ! have sfdisk; then
	skip "advice tools (sfdisk not installed)"
	exit 0
fi
for c in $CARDS; do
	card "$c"
done
