#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The survey's erase size from writes: random cards of tests/accuracy.py's
deck (--cards N --seed S) made flat to reads (xcost=0: no read cost at
AU boundaries), each surveyed whole.  Per card: the exit status, the
erase_size verdict (value, confidence, whether from writes) against the
card's AU, and open_au_linear against its open AUs.  Tally: complete
(exit 0), erase size right / wrong at medium or high (the bug), stopped
for want of one; open-AU linear right / wrong at medium or high.
Usage: bench/survey_erasew.py [FB] [--cards N] [--seed S] [-v]"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
import accuracy  # noqa: E402

UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
ERASE = re.compile(r"^# erase_size: ([\d.]+)(KiB|MiB|GiB) \((\w+)\)(.*)$",
                   re.M)
OPEN = re.compile(r"^# open_au_linear: (\d+) \((\w+)\)", re.M)
SURE = ("medium", "high")


def survey(fb, dev):
    p = subprocess.run([fb, "--survey", dev], capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    e = ERASE.search(p.stdout)
    o = OPEN.search(p.stdout)
    erase = (int(round(float(e.group(1)) * UNITS[e.group(2)])),
             e.group(3), "(from writes)" in e.group(4)) if e else None
    return p.returncode, erase, (int(o.group(1)), o.group(2)) if o else None


def judge(c, status, erase, opn, tally):
    def add(k):
        tally[k] = tally.get(k, 0) + 1
    add("exit %d" % status)
    if erase and erase[1] in SURE:
        add("erase right" if erase[0] == c["au"] else "erase WRONG")
        add("from writes" if erase[2] else "from reads")
    else:
        add("erase unsure")
    if opn and opn[1] in SURE:
        add("open right" if opn[0] == c["open"] else "open wrong")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fb", nargs="?", default="./flashbench")
    ap.add_argument("--cards", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    rng = accuracy.random.Random(a.seed)
    tally = {}
    for _ in range(a.cards):
        c = accuracy.draw_card(rng)
        c["planes"] = 1
        dev = accuracy.dev_name(c) + ",xcost=0"
        status, erase, opn = survey(a.fb, dev)
        judge(c, status, erase, opn, tally)
        wrong = erase and erase[1] in SURE and erase[0] != c["au"]
        if a.v or wrong:
            print("exit %d erase %s open %s | au=%d open=%d %s" %
                  (status, erase, opn, c["au"], c["open"], dev))
    print("cards %d: %s" % (a.cards, ", ".join(
        "%s %d" % kv for kv in sorted(tally.items()))))
    return 1 if tally.get("erase WRONG") else 0


if __name__ == "__main__":
    sys.exit(main())
