#!/usr/bin/env python3
"""Check that a destructive run changed nothing outside the byte ranges it
announced on stderr, and did change something inside them.

usage: confined.py BEFORE AFTER STDERR
"""
import re
import sys


def ranges(stderr_text):
    m = re.search(r"will (?:overwrite|discard) .* in \d+ ranges?:((?: \d+-\d+)+)",
                  stderr_text)
    if not m:
        return None
    return [tuple(int(x) for x in r.split("-")) for r in m.group(1).split()]


def main():
    before, after, err = sys.argv[1:4]
    rs = ranges(open(err, encoding="utf-8", errors="replace").read())
    if rs is None:
        print("no announced range")
        return 1
    a = open(before, "rb").read()
    b = open(after, "rb").read()
    if len(a) != len(b):
        print("size changed: %d -> %d" % (len(a), len(b)))
        return 1
    pos = 0
    for lo, hi in rs:
        if a[pos:lo] != b[pos:lo]:
            print("changed outside the announced ranges, in %d-%d" % (pos, lo))
            return 1
        pos = hi + 1
    if a[pos:] != b[pos:]:
        print("changed after the last announced range (%d-)" % pos)
        return 1
    if all(a[lo:hi + 1] == b[lo:hi + 1] for lo, hi in rs):
        print("nothing changed inside the announced ranges")
        return 1
    print("ok: %d ranges" % len(rs))
    return 0


sys.exit(main())
