#!/usr/bin/env python3
"""Read-back: --analyze of a survey's own text against its live verdicts.

For each sim profile and --cards random cards (tests/survey_check.py's
generator, realism on, a fixed --seed), a full flashbench --survey to
text, then flashbench --analyze of that text.  A verdict differs when
its value or confidence read back is not the live one (issue 24, item
6: they should be the same).  Prints each verdict that differs, then how
many surveys and verdicts differ, by verdict name.
usage: bench/readback.py [--fb ./flashbench] [--cards 100] [--seed 1]
                         [-j 2]
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from survey_check import profiles, random_card  # noqa: E402

VERDICT = re.compile(r"^# ([a-z_]+): (.*?) -- ", re.M)


def verdicts(text):
    return {m.group(1): m.group(2) for m in VERDICT.finditer(text)}


def read_back(fb, dev):
    """The live verdicts and those --analyze reads from the text."""
    live = subprocess.run([fb, "--survey", dev], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(live)
        f.flush()
        back = subprocess.run([fb, "--analyze=" + f.name],
                              capture_output=True, text=True,
                              stdin=subprocess.DEVNULL)
    return verdicts(live), verdicts(back.stdout + back.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fb", default="./flashbench")
    ap.add_argument("--cards", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", type=int, default=2)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    devs = ["sim:" + p["name"] for p in profiles(a.fb)]
    devs += [random_card(rng, (0, 5)[i % 2], False, True)["dev"]
             for i in range(a.cards)]
    pool = ThreadPoolExecutor(a.j)
    by_name, total, surveys = Counter(), 0, 0
    for dev, (live, back) in zip(devs, pool.map(
            lambda d: read_back(a.fb, d), devs)):
        differ = [k for k in live if live[k] != back.get(k)]
        total += len(live)
        surveys += bool(differ)
        for k in differ:
            by_name[k] += 1
            print("%s: live %s, read back %s: %s" % (
                k, live[k], back.get(k, "none"), dev))
    print("%d of %d surveys differ, %d of %d verdicts%s" % (
        surveys, len(devs), sum(by_name.values()), total,
        "".join("; %s %d" % kv for kv in sorted(by_name.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
