#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Build sysfs trees from the identity dumps in the seed reports.

usage: sysfs_tree.py OUTDIR SEED...

For each dump (head .../device/*, find ... -printf '%f:' -exec cat, cat
.../{a,b,...}) writes OUTDIR/<seed>-<n>/ laid out as /sys is
(block/mmcblk0/device/<attr>, block/mmcblk0/size, class/block/mmcblk0 ->
../../block/mmcblk0) and prints one JSON line per tree: its directory,
the attributes as dumped and the size the report gives for the card
(fdisk's "Disk ... bytes" or "Size: ...B"), or null.  This parser is the
test's own, independent of the one in report/sysfs_dump.c.
"""
import json
import os
import re
import sys

ATTR = r"[a-z_]+"
HEAD = re.compile(r"==> /sys/block/(\w+)/device/(" + ATTR + r") <== ?"
                  r"((?!==>)\S+)?")
FIND = re.compile(r"\b(cid|csd|scr|ssr|date|fwrev|hwrev|manfid|name|oemid|"
                  r"serial|type|preferred_erase_size|erase_size): (\S+)")
CAT = re.compile(r"cat /sys/block/(\S+?)/device/\{([a-z_,]+)\} ((?:\S+ ?)+)")
SIZE = re.compile(r"Disk /dev/\w+: [^,]*, (\d+) bytes|Size: (\d+)B")


def dumps(text):
    """(start, end, attrs) for each dump, in order."""
    found = []
    cur, start, end = {}, None, None
    for m in HEAD.finditer(text):
        attr, val = m.group(2), m.group(3)
        if attr == "block" or attr in cur:
            if cur:
                found.append((start, end, cur))
            cur, start = {}, m.start()
        if start is None:
            start = m.start()
        if val and val != "head:":
            cur[attr] = val
        end = m.end()
    if cur:
        found.append((start, end, cur))
    # find's output: runs of "key: value" close together, not in a head dump
    run, rs, last = {}, 0, -1000
    for m in FIND.finditer(text):
        if any(s <= m.start() < e for s, e, _ in found):
            continue
        if m.start() - last > 200 or m.group(1) in run:
            if len(run) > 3:
                found.append((rs, last, run))
            run, rs = {}, m.start()
        run[m.group(1)] = m.group(2)
        last = m.end()
    if len(run) > 3:
        found.append((rs, last, run))
    for m in CAT.finditer(text):
        keys = m.group(2).split(",")
        vals = m.group(3).split()
        found.append((m.start(), m.end(), dict(zip(keys, vals))))
    return sorted(found, key=lambda d: d[0])


def card_size(text, start, stop):
    m = SIZE.search(text, start, stop)
    return int(m.group(1) or m.group(2)) if m else None


def main():
    out = sys.argv[1]
    for seed in sys.argv[2:]:
        text = re.sub(r"\s+", " ", open(seed, encoding="utf-8").read())
        ds = dumps(text)
        whole = len(ds) == 1
        for n, (start, end, attrs) in enumerate(ds):
            stop = ds[n + 1][0] if n + 1 < len(ds) else len(text)
            size = card_size(text, 0 if whole else start, stop)
            name = "%s-%d" % (os.path.basename(seed)[:3], n)
            root = os.path.join(out, name)
            dev = os.path.join(root, "block", "mmcblk0", "device")
            os.makedirs(dev, exist_ok=True)
            os.makedirs(os.path.join(root, "class", "block"), exist_ok=True)
            for k, v in attrs.items():
                with open(os.path.join(dev, k), "w") as f:
                    f.write(v + "\n")
            if size:
                with open(os.path.join(root, "block", "mmcblk0", "size"),
                          "w") as f:
                    f.write("%d\n" % (size // 512))
            link = os.path.join(root, "class", "block", "mmcblk0")
            if not os.path.islink(link):
                os.symlink("../../block/mmcblk0", link)
            print(json.dumps({"tree": root, "attrs": attrs, "size": size}))


main()
