#!/usr/bin/env python3
"""Assertions on flashbench --json output for the simulated card.

usage: sim_check.py CHECK ARGS... < flashbench.json
Prints one line saying what it found; exits 1 when the check fails.
"""
import json
import sys


def rows(doc):
    return doc["tables"][0]["rows"]


def align_levels(doc, au, page):
    """diff high at multiples of au, clearly lower but > 0 at multiples of
    page below that, about zero below page."""
    top, mid, low = [], [], []
    for r in rows(doc):
        a, d = r["align"], r["diff_ns"]
        if a % au == 0:
            top.append(d)
        elif a % page == 0:
            mid.append(d)
        elif a < page:
            low.append(d)
    if not top or not mid or not low:
        return False, "missing levels: %d top, %d mid, %d low" % (
            len(top), len(mid), len(low))
    ok = (min(top) > 1.3 * max(mid) and min(mid) > 5000 and
          max(abs(x) for x in low) < 0.25 * min(mid))
    return ok, "top %.0f-%.0fns, mid %.0f-%.0fns, low max |%.0f|ns" % (
        min(top), max(top), min(mid), max(mid), max(abs(x) for x in low))


def rate_ratio(doc, smallest, op, bound):
    """rate at size `smallest` compared with the largest size's rate."""
    rs = rows(doc)
    big = rs[0]["rate_bps"]
    small = [r["rate_bps"] for r in rs if r["size"] == smallest]
    if not small:
        return False, "no row for size %d" % smallest
    q = small[0] / big
    ok = q >= bound if op == "ge" else q <= bound
    return ok, "rate ratio %.3f (%s %.3f)" % (q, op, bound)


def slowest_ratio(doc, smallest, op, bound):
    """the slowest rate at sizes of at least `smallest`, against the
    largest size's: a collapse may level off or recover below."""
    rs = rows(doc)
    big = rs[0]["rate_bps"]
    low = [r["rate_bps"] for r in rs if r["size"] >= smallest]
    q = min(low) / big
    ok = q >= bound if op == "ge" else q <= bound
    return ok, "slowest rate ratio %.3f (%s %.3f)" % (q, op, bound)


def fat_stands_out(doc, first, n):
    """the FAT AUs' columns differ from every other column in most rows."""
    rs = rows(doc)
    fat = set(range(first, first + n))
    hits = 0
    for r in rs:
        v = r["rates_bps"]
        others = [x for i, x in enumerate(v) if i not in fat]
        special = [x for i, x in enumerate(v) if i in fat]
        lo, hi = min(others), max(others)
        if all(x < 0.8 * lo or x > 1.25 * hi for x in special):
            hits += 1
    return hits * 2 > len(rs), "%d of %d rows set the FAT AUs apart" % (
        hits, len(rs))


def verdict(doc, key, value, *conf):
    v = doc["analysis"][key]
    want = None if value == "null" else json.loads(value)
    ok = v["value"] == want and (not conf or v["confidence"] in conf)
    return ok, "%s = %r (%s), want %r%s" % (key, v["value"], v["confidence"],
                                          want, " " + "|".join(conf)
                                          if conf else "")


def not_wrong(doc, key, value):
    """right, or honestly unsure: never a confident wrong answer"""
    v = doc["analysis"][key]
    want = json.loads(value)
    if v["value"] == want:
        return True, "%s right: %r (%s)" % (key, v["value"], v["confidence"])
    ok = v["confidence"] in ("low", "inconclusive")
    return ok, "%s = %r (%s), truth %r" % (key, v["value"], v["confidence"],
                                         want)


def main():
    check, args = sys.argv[1], sys.argv[2:]
    doc = json.load(sys.stdin)
    if check == "align":
        ok, msg = align_levels(doc, int(args[0]), int(args[1]))
    elif check == "ratio":
        ok, msg = rate_ratio(doc, int(args[0]), args[1], float(args[2]))
    elif check == "slowest":
        ok, msg = slowest_ratio(doc, int(args[0]), args[1], float(args[2]))
    elif check == "fat":
        ok, msg = fat_stands_out(doc, int(args[0]), int(args[1]))
    elif check == "verdict":
        ok, msg = verdict(doc, *args)
    elif check == "not_wrong":
        ok, msg = not_wrong(doc, *args)
    elif check == "rows":
        n = len(rows(doc))
        ok, msg = n >= int(args[0]), "%d rows" % n
    else:
        ok, msg = False, "unknown check " + check
    print(msg)
    return 0 if ok else 1


sys.exit(main())
