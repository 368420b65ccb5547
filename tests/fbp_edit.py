#!/usr/bin/env python3
"""Rewrite a --preserve file as a hostile or old one would be, with valid
checksums, so that only the checks on its contents can refuse it.

    fbp_edit.py IN OUT misalign   range 0 split in two, the second one
                                  byte off the sector grid
    fbp_edit.py IN OUT overlap    range 0 split in two that overlap
    fbp_edit.py IN OUT v1         the same data in format version 1
                                  (no device identity, no fingerprint)

Reads format 1 or 2 (layout in safety/preserve_file.c)."""
import struct
import sys

FNV_INIT = 0xcbf29ce484222325
MASK = (1 << 64) - 1


def fnv(data, h=FNV_INIT):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & MASK
    return h


def parse(raw):
    version, complete = struct.unpack_from("<II", raw, 8)
    size, sector, plen, n = struct.unpack_from("<QIIQ", raw, 16)
    f = {"version": version, "complete": complete, "size": size,
         "sector": sector, "id": b"", "samples": [], "fp": 0}
    pos = 48
    if version >= 2:
        idlen, ns, f["sample_len"], _, f["fp"] = struct.unpack_from(
            "<IIIIQ", raw, 48)
        pos = 72
    f["path"] = raw[pos:pos + plen]
    pos += plen
    if version >= 2:
        f["id"] = raw[pos:pos + idlen]
        pos += idlen
        f["samples"] = list(struct.unpack_from("<%dQ" % ns, raw, pos))
        pos += 8 * ns
    ranges = [struct.unpack_from("<QQQ", raw, pos + 24 * i)
              for i in range(n)]
    pos += 24 * n
    f["ranges"] = []
    for off, length, _ in ranges:
        f["ranges"].append((off, raw[pos:pos + length]))
        pos += length
    return f


def build(f, version):
    head = struct.pack("<8sIIQIIQQ", b"FBPRESRV", version, f["complete"],
                       f["size"], f["sector"], len(f["path"]),
                       len(f["ranges"]), 0)
    if version >= 2:
        head += struct.pack("<IIIIQ", len(f["id"]), len(f["samples"]),
                            f["sample_len"], 0, f["fp"])
    head += f["path"]
    if version >= 2:
        head += f["id"] + b"".join(struct.pack("<Q", s)
                                   for s in f["samples"])
    for off, data in f["ranges"]:
        head += struct.pack("<QQQ", off, len(data), fnv(data))
    head = head[:40] + struct.pack("<Q", fnv(head)) + head[48:]
    return head + b"".join(data for _, data in f["ranges"])


def split(f, shift):
    off, data = f["ranges"][0]
    half = len(data) // 2
    f["ranges"][0:1] = [(off, data[:half]),
                        (off + half + shift, data[half:])]


def main():
    src, dst, op = sys.argv[1:4]
    f = parse(open(src, "rb").read())
    version = f["version"]
    if op == "misalign":
        split(f, 1)
    elif op == "overlap":
        split(f, -f["sector"])
    elif op == "v1":
        version = 1
    else:
        sys.exit("unknown operation " + op)
    open(dst, "wb").write(build(f, version))


main()
