#!/bin/sh
# --info and identity decoding: sysfs trees built from the seeds' dumps
# (FLASHBENCH_SYSFS), registers alone against the kernel's decoded text
# attributes, the sim profiles, partitions, eMMC, offline --analyze.
. tests/lib.sh
T=$TMP/identity
rm -rf "$T"
mkdir -p "$T"

python3 tests/sysfs_tree.py "$T" tests/seeds/0*.txt > "$T/trees" ||
	fail "sysfs trees from the seeds"
[ "$(wc -l < "$T/trees")" -ge 6 ] && pass "six identity dumps in the seeds" ||
	fail "identity dumps in the seeds: $(wc -l < "$T/trees")"

# Every decoded field against the text attributes of the same dump; once
# with the whole dump, once from a tree with only the registers, so the
# CID itself is what gets checked.
FB="$FBH" python3 - "$T" <<'EOF'
import json, os, shutil, subprocess, sys

T = sys.argv[1]
fb = os.environ["FB"]


def info(tree):
    env = dict(os.environ, FLASHBENCH_SYSFS=tree)
    p = subprocess.run([fb, "--info", "--json", "/dev/mmcblk0"], env=env,
                       capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr
    return json.loads(p.stdout)["identity"], ""


def check(name, ok, why):
    print(("PASS: %s" if ok else "FAIL: %s: " + why) % name)


for line in open(os.path.join(T, "trees")):
    d = json.loads(line)
    a, tree, size = d["attrs"], d["tree"], d["size"]
    want = {
        "manfid": int(a["manfid"], 16),
        "oemid": bytes.fromhex(a["oemid"][2:]).decode(),
        "name": a["name"],
        "serial": int(a["serial"], 16),
        "date": a["date"][3:] + "-" + a["date"][:2],
    }
    if "hwrev" in a:
        want["revision"] = "%d.%d" % (int(a["hwrev"], 16),
                                      int(a["fwrev"], 16))
    if size and "csd" in a:
        want["capacity_bytes"] = size
    if "preferred_erase_size" in a:
        want["preferred_erase_size"] = int(a["preferred_erase_size"])
    variants = [(tree, "dump")]
    if "cid" in a:
        regs = tree + "-regs"
        shutil.copytree(tree, regs, symlinks=True)
        dev = os.path.join(regs, "block/mmcblk0/device")
        for f in os.listdir(dev):
            if f not in ("cid", "csd", "scr"):
                os.unlink(os.path.join(dev, f))
        want_regs = {k: v for k, v in want.items()
                     if k != "preferred_erase_size"}
        variants.append((regs, "registers only"))
    for path, how in variants:
        got, err = info(path)
        label = "%s (%s)" % (os.path.basename(tree), how)
        if got is None:
            check(label, False, err)
            continue
        w = want if how == "dump" else want_regs
        bad = ["%s=%r want %r" % (k, got.get(k), v) for k, v in w.items()
               if got.get(k) != v]
        check(label + ": " + ", ".join(sorted(w)), not bad, "; ".join(bad))
        check(label + ": type SD, no warnings",
              got["type"] == "SD" and not got["warnings"],
              "%s %s" % (got["type"], got["warnings"]))
EOF

# text form: one key: value line each
FLASHBENCH_SYSFS=$T/002-0 $FBH --info /dev/mmcblk0 > "$T/out" 2>&1
expect_grep "--info text: manfid with a hinted name" \
	'^manfid: 0x000003 (SanDisk; a hint' "$T/out"
expect_grep "--info text: capacity from the CSD" \
	'^capacity: 7948206080 bytes' "$T/out"
expect_grep "--info text: where preferred_erase_size comes from" \
	'^preferred_erase_size: 4194304 (4MiB; SSR AU_SIZE or the kernel' \
	"$T/out"

# A fake-capacity card: the CSD says more than the block device holds.
F=$T/fake
cp -r "$T/002-0" "$F"
echo 7761920 > "$F/block/mmcblk0/size"
FLASHBENCH_SYSFS=$F $FBH --info /dev/mmcblk0 > "$T/out" 2>&1
expect_grep "fake capacity: warned" \
	'^warning: the CSD says 7948206080 bytes.*fake-capacity' "$T/out"

# A partition: its disk, its start, aligned to the claimed AU or not.
P=$T/part
cp -r "$T/002-0" "$P"
mkdir -p "$P/block/mmcblk0/mmcblk0p1"
echo 1 > "$P/block/mmcblk0/mmcblk0p1/partition"
echo 8192 > "$P/block/mmcblk0/mmcblk0p1/start"
echo 1024 > "$P/block/mmcblk0/mmcblk0p1/size"
ln -s ../../block/mmcblk0/mmcblk0p1 "$P/class/block/mmcblk0p1"
FLASHBENCH_SYSFS=$P $FBH --info /dev/mmcblk0p1 > "$T/out" 2>&1
expect_grep "partition: its disk" '^partition_of: mmcblk0' "$T/out"
expect_grep "partition at 4 MiB: aligned" '^partition_aligned: yes' "$T/out"
expect_grep "partition: its own size, not the disk's" \
	'^size: 524288 (512KiB)$' "$T/out"
expect_grep "partition: the disk's size said as the disk's" \
	'^partition_of: mmcblk0 (the disk: 7948206080 bytes' "$T/out"
FLASHBENCH_SYSFS=$P $FBH --info --json /dev/mmcblk0p1 > "$T/out" 2>&1
if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["device"]["size"] == 524288, d["device"]
assert d["identity"]["partition"]["size"] == 524288, d["identity"]
' "$T/out" 2>/dev/null; then
	pass "partition: JSON sizes are the partition's"
else
	fail "partition: JSON sizes: $(head -c 300 "$T/out")"
fi
echo 63 > "$P/block/mmcblk0/mmcblk0p1/start"
FLASHBENCH_SYSFS=$P $FBH --info /dev/mmcblk0p1 > "$T/out" 2>&1
expect_grep "partition at sector 63: warned" \
	'^warning: the partition starts at 32256, not a multiple' "$T/out"

# eMMC: the MMC layouts (CID with a one-byte OEM ID, years from 2013).
M=$T/mmc/block/mmcblk1/device
mkdir -p "$M" "$T/mmc/class/block"
ln -s ../../block/mmcblk1 "$T/mmc/class/block/mmcblk1"
echo MMC > "$M/type"
echo 150101424a5444345212123456783401 > "$M/cid"
echo d0270132 0f5903ff f6dbffef 8e40400d | tr -d ' ' > "$M/csd"
FLASHBENCH_SYSFS=$T/mmc $FBH --info --json /dev/mmcblk1 > "$T/out" 2>&1
python3 -c '
import json, sys
i = json.load(open(sys.argv[1]))["identity"]
want = {"type": "MMC", "manfid": 0x15, "name": "BJTD4R", "serial": 0x12345678,
        "date": "2017-03", "revision": "1.2", "oemid": "0x01"}
bad = ["%s=%r" % (k, i.get(k)) for k in want if i.get(k) != want[k]]
print("PASS: eMMC CID" if not bad else "FAIL: eMMC CID: " + " ".join(bad))
' "$T/out"

# Every sim profile has an identity; sd08g is seed 002's card.
for p in $($FB --help-sim |
	awk '/^Profiles:/ { p = 1; next } /^Keys/ { p = 0 }
	     p && /^  [a-z0-9]+ / { print $1 }'); do
	expect_status "--info sim:$p" 0 $FB --info "sim:$p"
done
$FB --info --json sim:sd08g > "$T/out" 2>&1
python3 -c '
import json, sys
i = json.load(open(sys.argv[1]))["identity"]
ok = (i["name"], i["serial"], i["capacity_bytes"]) == ("SD08G", 0xa11ce23a,
                                                       7948206080)
print("PASS: sim:sd08g carries seed 002 card" if ok else "FAIL: sim:sd08g: %r" % i)
' "$T/out"
$FB --info sim:sd08g,size=16G > "$T/out" 2>&1
expect_grep "sim with a larger size: fake capacity" 'fake-capacity' "$T/out"
$FB --info sim:xporter > "$T/out" 2>&1
expect_grep "sim USB stick: its USB ID" '^usb_id: 13fe:3100' "$T/out"
expect_grep "sim USB stick: no registers" '^note: a USB reader' "$T/out"

# Live runs carry the identity in their JSON, and the erase verdict the
# claims with their sources.
$FB -a sim:sd08g --json > "$T/out" 2>&1
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["analysis"]["erase_size"]["evidence"]
ok = d["identity"]["name"] == "SD08G" and "preferred_erase_size 4MiB (" in ev
print("PASS: live JSON: identity and claims" if ok else "FAIL: live JSON: %s" % ev)
' "$T/out"

# Not a card: a regular file; with a test option: refused.
dd if=/dev/zero of="$T/file" bs=1M count=4 2>/dev/null
$FB --info "$T/file" > "$T/out" 2>&1
expect_grep "--info on a file: no registers" '^note: a regular file: no reg' \
	"$T/out"
expect_status "--info with -a: usage error" 2 $FB --info -a "$T/file"
expect_status "--info, no device: usage error" 2 $FB --info
expect_status "--info on a missing device: usage error" 2 \
	$FB --info "$T/nonexistent"

if is_root && L=$(make_loop "$T/file"); then
	$FB --info "$L" > "$T/out" 2>&1
	expect_grep "--info on a loop device: no registers" \
		'^note: a loop device: no registers' "$T/out"
	$FB --info --json "$L" > "$T/out" 2>&1
	python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" &&
		pass "--info --json on a loop device: one document" ||
		fail "--info --json on a loop device: $(head -c 200 "$T/out")"
	losetup -d "$L"
else
	skip "--info on a loop device (needs root and a free loop device)"
fi

# Offline: each seed section shows its card's identity.
$FB --analyze=tests/seeds/002_b87f7c75a8a4b11f.txt > "$T/out" 2>&1
expect_grep "--analyze seed 002: identity" '^# identity: name: SD08G' "$T/out"
$FB --analyze=tests/seeds/001_9ac5dd19bf759b36.txt > "$T/out" 2>&1
expect_grep "--analyze seed 001: cat {manfid,...}" '^# identity: name: SU04G' \
	"$T/out"
$FB --analyze=tests/seeds/000_e1b1b75654890f18.txt --json > "$T/out" 2>&1
python3 -c '
import json, sys
secs = json.load(open(sys.argv[1]))["reports"][0]["sections"]
names = [s["identity"]["name"] for s in secs if s["identity"]["name"]]
sizes = [s["identity"]["capacity_bytes"] for s in secs]
usb = [s["identity"]["usb_id"] for s in secs if s["identity"]["usb_id"]]
ok = names[:3] == ["SA04G", "SD04G", "SD04G"] and "13fe:3800" in usb
print("PASS: --analyze seed 000: each card its identity" if ok else
      "FAIL: --analyze seed 000: %r %r %r" % (names, sizes, usb))
' "$T/out"
$FB --analyze=tests/seeds/003_ad72078305abb6c0.txt --json > "$T/out" 2>&1
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["reports"][0]["sections"][0]
i = s["identity"]
ok = (i["manfid"], i["oemid"], i["date"], i["capacity_bytes"]) == \
     (0x1b, "SM", "2013-09", 15719727104) and not i["warnings"]
print("PASS: --analyze seed 003: identity" if ok else "FAIL: seed 003: %r" % i)
' "$T/out"

# An SD Status with AU_SIZE 8 MiB: the source of preferred_erase_size,
# and offline the claim the erase verdict checks (agreeing raises it).
S=$T/ssr
cp -r "$T/002-0" "$S"
SSR=$(python3 -c '
v = 2 << 510 | 4 << 440 | 10 << 428 | 1 << 313
print("%0128x" % v)')
echo "$SSR" > "$S/block/mmcblk0/device/ssr"
echo 8388608 > "$S/block/mmcblk0/device/preferred_erase_size"
FLASHBENCH_SYSFS=$S $FBH --info /dev/mmcblk0 > "$T/out" 2>&1
expect_grep "SSR: AU_SIZE" '^au_size: 8388608 (8MiB, SSR AU_SIZE)' "$T/out"
expect_grep "SSR: speed class" '^speed_class: 10' "$T/out"
expect_grep "SSR: preferred_erase_size from AU_SIZE" \
	'^preferred_erase_size: 8388608 (8MiB; SSR AU_SIZE)' "$T/out"
{
	echo "==> /sys/block/mmcblk0/device/ssr <== $SSR"
	echo "==> /sys/block/mmcblk0/device/type <== SD"
	echo '$ sudo ./flashbench -a /dev/mmcblk0 --blocksize=1024'
	$FB -a sim:au=8M,size=8G --blocksize=1024 2>/dev/null
} > "$T/report"
$FB --analyze="$T/report" --json > "$T/out" 2>&1
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["reports"][0]["sections"][0]
e = s["analysis"]["erase_size"]
c = [x for x in e["claims"] if x["name"] == "ssr_au_size"]
ok = (s["identity"]["au_size_bytes"] == 8 << 20 and e["value"] == 8 << 20
      and c and c[0]["agrees"] and "SSR AU_SIZE 8MiB agrees" in e["evidence"])
print("PASS: --analyze: a pasted SSR is a claim the erase verdict checks"
      if ok else "FAIL: --analyze SSR claim: %r %r" % (s["identity"], e))
' "$T/out"

# A USB stick: the USB device above the SCSI disk gives its IDs.
U=$T/usb
D=$U/devices/pci0000:00/usb1/1-1
mkdir -p "$D/1-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb/queue" \
	"$U/class/block"
echo 13fe > "$D/idVendor"
echo 3100 > "$D/idProduct"
echo 07A80207F3B4D952 > "$D/serial"
echo 'Patriot Memory' > "$D/manufacturer"
S6=$D/1-1:1.0/host6/target6:0:0/6:0:0:0
echo 'Patriot ' > "$S6/vendor"
echo 'Xporter XT Boost' > "$S6/model"
echo 31129600 > "$S6/block/sdb/size"
echo 0 > "$S6/block/sdb/queue/rotational"
ln -s ../../../6:0:0:0 "$S6/block/sdb/device"
ln -s "../../devices/pci0000:00/usb1/1-1/1-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb" \
	"$U/class/block/sdb"
FLASHBENCH_SYSFS=$U $FBH --info /dev/sdb > "$T/out" 2>&1
expect_grep "USB stick: type" '^type: USB' "$T/out"
expect_grep "USB stick: idVendor:idProduct" '^usb_id: 13fe:3100' "$T/out"
expect_grep "USB stick: model" '^model: Xporter XT Boost' "$T/out"
expect_grep "USB stick: serial" '^disk_serial: 07A80207F3B4D952' "$T/out"
expect_grep "USB stick: registers hidden" '^note: a USB reader or stick' \
	"$T/out"

# Devices the open-AU model does not describe: rotational, NVMe.
echo 1 > "$S6/block/sdb/queue/rotational"
FLASHBENCH_SYSFS=$U $FBH --info /dev/sdb > "$T/out" 2>&1
expect_grep "rotational: warned" '^warning: the kernel says the device is rot' \
	"$T/out"
N=$T/nvme
mkdir -p "$N/block/nvme0n1/device" "$N/class/block"
ln -s ../../block/nvme0n1 "$N/class/block/nvme0n1"
echo 'Samsung SSD 970 EVO 500GB' > "$N/block/nvme0n1/device/model"
FLASHBENCH_SYSFS=$N $FBH --info /dev/nvme0n1 > "$T/out" 2>&1
expect_grep "NVMe: type" '^type: NVMe' "$T/out"
expect_grep "NVMe: an SSD warning" '^warning: this looks like an SSD' "$T/out"
