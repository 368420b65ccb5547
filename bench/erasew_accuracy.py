#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""--find-erase against sim cards of known erase size: the six profiles
and random cards of tests/accuracy.py's deck (--cards N --seed S).  Per
card the verdict's value and confidence against the card's AU, and what
--analyze of the printed table says (it must say the same).  Tally:
right (medium/high), right-low, abstain, wrong-low, wrong-confident
(medium/high: the bug), and the bytes the plan announced.
Usage: bench/erasew_accuracy.py [FB] [--cards N] [--seed S] [-v]"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
import accuracy  # noqa: E402

UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
VERDICT = re.compile(r"erase_size: (?:([\d.]+)(KiB|MiB|GiB) \((\w+)\)|"
                     r"(inconclusive|null))")


def size(num, unit):
    return int(round(float(num) * UNITS[unit]))


def verdict(text):
    """value (None: none), confidence, the whole erase_size line"""
    m = VERDICT.search(text)
    line = text[m.start():].split("\n")[0] if m else ""
    if not m or m.group(4):
        return None, "inconclusive", line
    return size(m.group(1), m.group(2)), m.group(3), line


def run(fb, dev, tmp):
    p = subprocess.run([fb, "--find-erase", dev], capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    path = os.path.join(tmp, "t.txt")
    with open(path, "w") as f:
        f.write(p.stdout)
    a = subprocess.run([fb, "--analyze=" + path], capture_output=True,
                       text=True)
    m = re.search(r"will overwrite ([\d.]+)(KiB|MiB|GiB)", p.stderr)
    return (verdict(p.stderr), verdict(a.stdout + a.stderr),
            size(m.group(1), m.group(2)) if m else 0, p.stderr)


def judge(value, conf, au):
    if value is None:
        return "abstain"
    if value == au:
        return "right" if conf in ("medium", "high") else "right-low"
    return "wrong-low" if conf == "low" else "wrong-confident"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fb", nargs="?", default="./flashbench")
    ap.add_argument("--cards", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    devs = [("sim:%s" % p, None) for p in accuracy.PROFILES]
    for _ in range(a.cards):
        c = accuracy.draw_card(rng)
        c["planes"] = 1
        devs.append((accuracy.dev_name(c), c["au"]))
    tally, written, same = {}, [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for dev, au in devs:
            live, back, nbytes, err = run(a.fb, dev, tmp)
            if au is None:
                au = PROFILE_AU[dev[4:]]
            j = judge(live[0], live[1], au)
            tally[j] = tally.get(j, 0) + 1
            same += live == back
            written.append(nbytes)
            if a.v or j in ("wrong-confident", "wrong-low") or live != back:
                print("%-16s au=%-9d %s | %s" % (j, au, live[2], dev))
                if live != back:
                    print("   read back: %s" % back[2])
    n = len(devs)
    print("cards %d: %s" % (n, ", ".join("%s %d" % kv for kv in
                                         sorted(tally.items()))))
    print("read back the same: %d of %d" % (same, n))
    print("bytes written: mean %.0f MiB, max %.0f MiB" %
          (sum(written) / n / (1 << 20), max(written) / (1 << 20)))
    return 1 if tally.get("wrong-confident") else 0


PROFILE_AU = {"sd08g": 4 << 20, "su04g": 4 << 20, "evo32": 16 << 20,
              "samsung16": 8 << 20, "xporter": 8 << 20, "rage": 12 << 20}

if __name__ == "__main__":
    sys.exit(main())
