#!/usr/bin/env python3
"""Check an SVG chart as a viewer sees it.

usage: svg_check.py FILE.svg FILE.png
Parses FILE.svg as XML (it must be well-formed SVG), decodes FILE.png (the
same chart rendered by a real SVG renderer) and prints
  paths=N circles=N marks=N ink=F colours=N plotted=N
where ink is the share of pixels that are not white, colours counts the
chart palette's colours found among the rendered pixels and plotted those
inside the plot areas (data drawn, not only the legend; lines that
coincide show one colour).
"""
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = "{http://www.w3.org/2000/svg}"
PALETTE = ["1f77b4", "d62728", "2ca02c", "ff7f0e", "9467bd",
           "8c564b", "e377c2", "7f7f7f", "bcbd22", "17becf"]


def png_pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w, h, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype not in (2, 6):
                raise ValueError("unexpected PNG format")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw, stride = zlib.decompress(idat), w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        ftype, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if ftype == 1:
                line[x] = (line[x] + a) & 255
            elif ftype == 2:
                line[x] = (line[x] + b) & 255
            elif ftype == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    root = ET.parse(sys.argv[1]).getroot()
    if root.tag != NS + "svg":
        sys.exit("not an svg document")
    paths = len(root.findall(NS + "path"))
    circles = len(root.findall(NS + "circle"))
    marks = sum(1 for e in root.findall(NS + "line")
                if e.get("stroke-dasharray") == "6 4")
    # the plot areas: a legend line alone must not count as a drawn line
    frames = [tuple(float(e.get(k)) for k in ("x", "y", "width", "height"))
              for e in root.findall(NS + "rect") if e.get("x") is not None]
    w, h, bpp, rows = png_pixels(sys.argv[2])
    ink, seen, drawn = 0, set(), set()
    for y, row in enumerate(rows):
        inside = [(fx, fx + fw) for fx, fy, fw, fh in frames
                  if fy < y < fy + fh - 1]
        for x in range(0, w * bpp, bpp):
            px = row[x:x + 3]
            if bpp == 4 and row[x + 3] == 0:
                continue
            if px != b"\xff\xff\xff":
                ink += 1
                seen.add(px.hex())
                if any(lo < x // bpp < hi - 1 for lo, hi in inside):
                    drawn.add(px.hex())
    colours = sum(1 for c in PALETTE if c in seen)
    plotted = sum(1 for c in PALETTE if c in drawn)
    print("paths=%d circles=%d marks=%d ink=%.4f colours=%d plotted=%d" %
          (paths, circles, marks, ink / float(w * h), colours, plotted))


main()
